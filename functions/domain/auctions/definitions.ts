import type { AuctionTypeName } from './catalog.ts';
import type { AuctionDefinition } from './definition.ts';
import { dgfInsider } from './types/dgf-insider/definition.ts';
import { landlease } from './types/landlease/definition.ts';

/** The definitions a bundle serves, keyed by type name (registry.ts reads them; a type may be absent). */
export type ServedDefinitions = { readonly [T in AuctionTypeName]?: AuctionDefinition<T> };

/**
 * The definition of every type listed in catalog.ts (the one list of auction types): keyed by its name, so a type
 * listed there without a definition here does not compile. A Lambda that serves one auction type (a write route of
 * /api/2.3 or /api/2.5) is built with this module replaced by a generated one holding its type's definition alone
 * (lib/build.ts `servedAuctionTypes`): its bundle carries no other type's schemas, bids or awarding.
 */
export const servedDefinitions: ServedDefinitions = { landlease, dgfInsider } satisfies {
  readonly [T in AuctionTypeName]: AuctionDefinition<T>;
};
