import type { AssetsContext } from '#domain/assets/commands.ts';
import { assetType } from '#domain/assets/types/registry.ts';
import { repositoryHidingDrafts } from '#domain/kernel/principal.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { assetRepository } from '#store/asset-repository.ts';
import { organizationDirectory } from '#store/organizations.ts';
import { sequences } from '#store/sequences.ts';
import { creating } from '#runtime/idempotency.ts';

/**
 * The ports every assets command gets, bound to this request's principal, clock and the route's asset type;
 * `createdId`: the id an Idempotency-Key gives the child a create makes (runtime/idempotency.ts). A draft the
 * caller may not read is not there.
 */
export const assetsContext = (req: HttpRequest, createdId?: string): AssetsContext => ({
  principal: req.principal,
  now: req.now,
  files: req.files,
  assets: creating(repositoryHidingDrafts(assetRepository, req.principal, 'asset_id'), createdId),
  createdId,
  sequences,
  organizations: organizationDirectory,
  type: assetType(req.type),
});
