import { UnsupportedMediaTypeError } from '../kernel/errors.ts';
import { isOneOf, keysOf } from '../kernel/objects.ts';
import type { Auction } from './auction.ts';
import type { AuctionDefinition } from './definition.ts';
import { servedDefinitions as byType } from './definitions.ts';

/**
 * Every auction definition this code serves, in catalog order (the OpenAPI document reads their schemas): all of
 * them from the sources, a bundle's own type in a Lambda built per type (definitions.ts).
 */
export const auctionDefinitions: readonly AuctionDefinition[] = keysOf(byType).flatMap((type) => byType[type] ?? []);

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
