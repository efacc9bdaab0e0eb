import type { Auction } from '#domain/auctions/auction.ts';
import { AUCTION_BUDGETS } from '#domain/auctions/limits.ts';
import { auctionIndexing, auctionView } from '#domain/auctions/view.ts';
import { aggregateReader, aggregateRepository, type AggregateKind } from './aggregates.ts';

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
// Pure: a bundle that takes only one of the two leaves the other, and all it reaches, out.
export const auctionRepository = /* @__PURE__ */ aggregateRepository(AUCTION_KIND);
export const auctionReader = /* @__PURE__ */ aggregateReader(AUCTION_KIND);
