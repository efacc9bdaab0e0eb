import type { Asset } from '#domain/assets/asset.ts';
import { assetIndexing } from '#domain/assets/asset.ts';
import { assetType } from '#domain/assets/types/registry.ts';
import { aggregateRepository, type AggregateKind } from './aggregates.ts';

/**
 * Assets of every type share the kind `ASSET`; each type has its own listing feed. One module per kind, so
 * that lots handlers do not bundle, nor compile at start, the asset type definitions.
 */
export const ASSET_KIND: AggregateKind<Asset> = {
  kind: 'ASSET',
  entity: 'asset',
  notFound: 'asset_id',
  indexing: (asset) => assetIndexing(asset, assetType(asset.assetType).feed),
  dateModified: (asset) => asset.dateModified,
  id: (asset) => asset.id,
};
export const assetRepository = aggregateRepository(ASSET_KIND);
