import { authorOf } from '#domain/kernel/principal.ts';
import { assetOwnership } from '#domain/assets/commands.ts';
import { assetView } from '#domain/assets/reads.ts';
import { draftFoundBy, readOwnershipData } from '#domain/transfers/transfer.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { ASSET_KIND } from '#store/asset-repository.ts';
import { changeOwnership } from '#store/ownership.ts';
import { assetsContext } from './context.ts';

/** POST /api/2.4/assets/{assetId}/ownership (and 0.1): a broker takes the asset over with a transfer. */
export const handler = httpHandler(async (req) => {
  const data = readOwnershipData(req.data);
  return {
    data: assetView(
      await changeOwnership(ASSET_KIND, req.params.assetId, data.id, assetOwnership(assetsContext(req), data), {
        at: req.now,
        by: authorOf(req.principal),
        found: draftFoundBy(req.principal, data, 'asset_id'),
      }),
    ),
  };
});
