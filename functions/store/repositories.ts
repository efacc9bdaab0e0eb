import type { Auction } from '#domain/auctions/auction.ts';
import { auctionIndexing } from '#domain/auctions/view.ts';
import type { Lot } from '#domain/lots/lot.ts';
import { lotIndexing } from '#domain/lots/lot.ts';
import { aggregateRepository, type AggregateKind } from './aggregates.ts';

/** The aggregate kinds of the table, each wired to its domain indexing rules. */
export const LOT_KIND: AggregateKind<Lot> = {
  kind: 'LOT',
  entity: 'lot',
  notFound: 'lot_id',
  indexing: lotIndexing,
  dateModified: (lot) => lot.dateModified,
  id: (lot) => lot.id,
};
export const lotRepository = aggregateRepository(LOT_KIND);

/** Auctions of every type (landlease, dgfInsider, ...): one kind, so the chronograph reads one work partition. */
export const AUCTION_KIND: AggregateKind<Auction> = {
  kind: 'AUCTION',
  entity: 'auction',
  notFound: 'auction_id',
  indexing: auctionIndexing,
  dateModified: (auction) => auction.dateModified,
  id: (auction) => auction.id,
};
export const auctionRepository = aggregateRepository(AUCTION_KIND);
