import type { Asset } from '#domain/assets/asset.ts';
import { assetIndexing } from '#domain/assets/asset.ts';
import { assetView } from '#domain/assets/reads.ts';
import { assetTypeDescriptor } from '#domain/assets/types/catalog.ts';
import { aggregateReader, aggregateRepository, type AggregateKind } from './aggregates.ts';

/**
 * Assets of every type share the kind `ASSET`; each type has its own listing feed (its descriptor's). One module
 * per kind, and only the type descriptors, so that neither the lots handlers nor the asset reads bundle the asset
 * type definitions.
 */
export const ASSET_KIND: AggregateKind<Asset> = {
  kind: 'ASSET',
  entity: 'asset',
  notFound: 'asset_id',
  indexing: (asset) => assetIndexing(asset, assetTypeDescriptor(asset.assetType).feed),
  dateModified: (asset) => asset.dateModified,
  id: (asset) => asset.id,
  history: { objectKind: 'asset', view: assetView, type: (asset) => asset.assetType },
};
// Pure: a bundle that takes only one of the two leaves the other, and all it reaches, out.
export const assetRepository = /* @__PURE__ */ aggregateRepository(ASSET_KIND);
export const assetReader = /* @__PURE__ */ aggregateReader(ASSET_KIND);
