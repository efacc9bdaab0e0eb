import { UnsupportedMediaTypeError } from '../../kernel/errors.ts';
import type { AssetTypeDefinition } from '../asset.ts';
import { basic } from './basic/definition.ts';
import { bounce } from './bounce/definition.ts';

/** Every asset type, by its upstream name. A new type is a definition added here, never a branch in a command. */
const TYPES: ReadonlyMap<string, AssetTypeDefinition> = new Map([bounce, basic].map((d) => [d.assetType, d]));

/** Upstream's answer to an assetType the API path does not serve: 415 `assetType: Not implemented`. */
export const notImplemented = () =>
  new UnsupportedMediaTypeError({ location: 'body', name: 'assetType', description: 'Not implemented' });

/** The definition of a known type (the HTTP layer passes the type its route serves). */
export function assetType(name: unknown): AssetTypeDefinition {
  const definition = typeof name === 'string' ? TYPES.get(name) : undefined;
  if (!definition) throw notImplemented();
  return definition;
}
