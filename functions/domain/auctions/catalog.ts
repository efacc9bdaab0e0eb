import type { AuctionTypeDescriptor } from './descriptor.ts';
import { dgfInsiderType } from './types/dgf-insider/descriptor.ts';
import { landleaseType } from './types/landlease/descriptor.ts';

/**
 * THE list of auction types, in route order. The route table builds each type's routes from it, the record types
 * `Auction` and `Bid` are unions over it, and registry.ts must give every name here a definition (a missing one does
 * not compile). A new type: its folder under `types/`
 * (descriptor.ts, definition.ts with its request schemas, examples.ts, ...), one line here and one in registry.ts,
 * then `npm run generate`. Two lists because the reads import this one: it must not reach the definitions, not even
 * through a lazy import (esbuild bundles a dynamic import inline).
 */
export const AUCTION_TYPES = [landleaseType, dgfInsiderType] as const;

export type AuctionTypeName = (typeof AUCTION_TYPES)[number]['procurementMethodType'];

/** The auction records of every type (descriptors' `records`): `Auction` in auction.ts. */
export type TypeAuctionRecord = NonNullable<(typeof AUCTION_TYPES)[number]['records']['auction']>;
/** The fields every type's bid request schemas allow: `Bid` in bids.ts. */
export type TypeBidFields = NonNullable<(typeof AUCTION_TYPES)[number]['records']['bid']>;

/**
 * The descriptor of a type the service serves: all a read needs of it (the reads import this, never registry.ts,
 * so their bundles carry no definitions, schemas or calendar).
 */
export function auctionType(type: string): AuctionTypeDescriptor {
  const found = AUCTION_TYPES.find((t) => t.procurementMethodType === type);
  if (!found) throw new Error(`no auction type ${type}`);
  return found;
}
