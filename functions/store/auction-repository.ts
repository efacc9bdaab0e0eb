import type { Auction } from '#domain/auctions/auction.ts';
import { AUCTION_BUDGETS } from '#domain/auctions/limits.ts';
import { auctionIndexing, auctionView } from '#domain/auctions/view.ts';
import { aggregateRepository, type AggregateKind } from './aggregates.ts';

/** Auctions of every type (landlease, dgfInsider, ...): one kind, so the chronograph reads one work partition. */
export const AUCTION_KIND: AggregateKind<Auction> = {
  kind: 'AUCTION',
  entity: 'auction',
  notFound: 'auction_id',
  indexing: auctionIndexing,
  dateModified: (auction) => auction.dateModified,
  id: (auction) => auction.id,
  budgets: AUCTION_BUDGETS,
  history: { objectKind: 'auction', view: auctionView, type: (auction) => auction.procurementMethodType },
};
export const auctionRepository = aggregateRepository(AUCTION_KIND);
