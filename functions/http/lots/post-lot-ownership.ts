import { authorOf } from '#domain/kernel/principal.ts';
import { lotOwnership, lotView } from '#domain/lots/commands.ts';
import { draftFoundBy, readOwnershipData } from '#domain/transfers/transfer.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { LOT_KIND } from '#store/lot-repository.ts';
import { changeOwnership } from '#store/ownership.ts';
import { lotsContext } from './context.ts';

/** POST /api/0.1/lots/{lotId}/ownership `{id: <transfer id>, transfer: <the lot's transfer token>}`: a broker takes the lot over. */
export const handler = httpHandler(async (req) => {
  const data = readOwnershipData(req.data);
  return {
    data: lotView(
      await changeOwnership(LOT_KIND, req.params.lotId, data.id, lotOwnership(lotsContext(req), data), {
        at: req.now,
        by: authorOf(req.principal),
        found: draftFoundBy(req.principal, data, 'lot_id'),
      }),
    ),
  };
});
