import { UnsupportedMediaTypeError } from '../kernel/errors.ts';
import { isOneOf, keysOf } from '../kernel/objects.ts';
import type { Auction } from './auction.ts';
import type { AuctionTypeName } from './catalog.ts';
import type { AuctionDefinition } from './definition.ts';
import { dgfInsider } from './types/dgf-insider/definition.ts';
import { landlease } from './types/landlease/definition.ts';

/**
 * The definition of every type listed in catalog.ts (the one list of auction types): keyed by its name, so a type
 * listed there without a definition here does not compile.
 */
const byType: { readonly [T in AuctionTypeName]: AuctionDefinition<T> } = { landlease, dgfInsider };

/** Every auction definition, in catalog order (the OpenAPI document reads their schemas). */
export const auctionDefinitions: readonly AuctionDefinition[] = Object.values(byType);

const find = (type: string): AuctionDefinition | undefined =>
  isOneOf(keysOf(byType), type) ? byType[type] : undefined;

/** The type a POST to a route serving `type` creates; another `procurementMethodType` in the body is refused. */
export function definitionForCreate(type: string, procurementMethodType: unknown): AuctionDefinition {
  const found = find(type);
  if (!found || (procurementMethodType !== undefined && procurementMethodType !== type)) {
    throw new UnsupportedMediaTypeError({
      location: 'body',
      name: 'procurementMethodType',
      description: 'Not implemented',
    });
  }
  return found;
}

/** The definition of a type the service serves. */
export function definitionFor(type: string): AuctionDefinition {
  const found = find(type);
  if (!found) throw new Error(`no auction definition for ${type}`);
  return found;
}

/** The definition of a stored auction. */
export const definitionOf = (auction: Auction): AuctionDefinition => definitionFor(auction.procurementMethodType);
