import { isOneOf, keysOf } from '../../kernel/objects.ts';
import type { AssetTypeDefinition } from '../asset.ts';
import { basic } from './basic/definition.ts';
import { bounce } from './bounce/definition.ts';
import { type AssetTypeName, notImplemented } from './catalog.ts';

/**
 * The definition of every asset type of catalog.ts, by its upstream name: a type listed there without a definition
 * here does not compile. A new type is a definition added here, never a branch in a command.
 */
const byType: { readonly [T in AssetTypeName]: AssetTypeDefinition } = { bounce, basic };

/** The definition of a known type (the HTTP layer passes the type its route serves). */
export function assetType(name: unknown): AssetTypeDefinition {
  if (!isOneOf(keysOf(byType), name)) throw notImplemented();
  return byType[name];
}
