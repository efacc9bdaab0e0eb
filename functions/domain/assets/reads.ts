import type { Aggregate, AggregateReader } from '../kernel/aggregate.ts';
import { NotFoundError } from '../kernel/errors.ts';
import { currentDocuments, type DocumentRecord } from '../documents/documents.ts';
import type { Asset, RelatedProcess } from './asset.ts';
import type { AssetTypeDescriptor } from './descriptor.ts';

/**
 * The reads of assets. They need of a type only its descriptor (types/catalog.ts), never its definition
 * (types/registry.ts), so the read routes' bundles carry no schemas or validators (test/unit/read-bundles.test.ts).
 */

export interface AssetsReadContext {
  assets: AggregateReader<Asset>;
  /** The asset type served at the request's API path (`bounce` at 2.4, `basic` at 0.1). */
  type: AssetTypeDescriptor;
}

/** What GET shows: the root and the current version of each document. */
export function assetView(a: Pick<Aggregate<Asset>, 'root' | 'children'>): Asset & { documents?: DocumentRecord[] } {
  const documents = currentDocuments(a.children);
  return documents.length ? { ...a.root, documents } : a.root;
}

/** An asset is found only at the API path of its own type (a bounce asset is not at `/api/0.1/assets`). */
export function assertServed(
  type: Pick<AssetTypeDescriptor, 'assetType'>,
  a: Aggregate<Asset> | undefined,
): asserts a is Aggregate<Asset> {
  if (!a || a.root.assetType !== type.assetType) throw new NotFoundError('asset_id');
}

export async function readAsset(
  ctx: { assets: AggregateReader<Asset>; type: Pick<AssetTypeDescriptor, 'assetType'> },
  id: string,
): Promise<Aggregate<Asset>> {
  const a = await ctx.assets.get(id);
  assertServed(ctx.type, a);
  return a;
}

/** The related processes of an asset (none when it has no such list). */
export const relatedProcessesOf = (asset: Asset): RelatedProcess[] =>
  Array.isArray(asset.relatedProcesses) ? asset.relatedProcesses : [];

export function findRelatedProcess(asset: Asset, id: string): RelatedProcess {
  const found = relatedProcessesOf(asset).find((rp) => rp.id === id);
  if (!found) throw new NotFoundError('relatedProcess_id');
  return found;
}

/** A type without related processes has no such sub-resource. */
function assertRelatedProcesses(type: AssetTypeDescriptor): void {
  if (!type.relatedProcesses) throw new NotFoundError('asset_id');
}

export async function listRelatedProcesses(ctx: AssetsReadContext, id: string): Promise<RelatedProcess[]> {
  assertRelatedProcesses(ctx.type);
  return relatedProcessesOf((await readAsset(ctx, id)).root);
}

export async function getRelatedProcess(
  ctx: AssetsReadContext,
  id: string,
  processId: string,
): Promise<RelatedProcess> {
  assertRelatedProcesses(ctx.type);
  return findRelatedProcess((await readAsset(ctx, id)).root, processId);
}
