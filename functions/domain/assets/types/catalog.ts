import { UnsupportedMediaTypeError } from '../../kernel/errors.ts';
import type { AssetTypeDescriptor } from '../descriptor.ts';
import { basicType } from './basic/descriptor.ts';
import { bounceType } from './bounce/descriptor.ts';

/**
 * THE list of asset types; registry.ts must give each its definition (a missing one does not compile). The reads
 * and the store import this, never registry.ts, so their bundles carry no asset schemas or validators.
 */
export const ASSET_TYPES = [bounceType, basicType] as const;

export type AssetTypeName = (typeof ASSET_TYPES)[number]['assetType'];

/** Upstream's answer to an assetType the API path does not serve: 415 `assetType: Not implemented`. */
export const notImplemented = () =>
  new UnsupportedMediaTypeError({ location: 'body', name: 'assetType', description: 'Not implemented' });

/** The descriptor of a known type (the HTTP layer passes the type its route serves). */
export function assetTypeDescriptor(name: unknown): AssetTypeDescriptor {
  const found: AssetTypeDescriptor | undefined = ASSET_TYPES.find((t) => t.assetType === name);
  if (!found) throw notImplemented();
  return found;
}
