import type { Timing } from '../calendar/periods.ts';
import type { DocumentContext } from '../documents/docservice.ts';
import type { AggregateReader, AggregateRepository, SequenceSource } from '../kernel/aggregate.ts';
import type { Principal } from '../kernel/principal.ts';
import type { Micros } from '../kernel/time.ts';
import type { Auction } from './auction.ts';

/** The ports and facts every auction command gets, bound to one request (or one chronograph run). */
export interface AuctionsContext {
  principal: Principal;
  now: Micros;
  auctions: AggregateRepository<Auction>;
  sequences: SequenceSource;
  /** The auction type the route serves (its `type`, e.g. `landlease`): other types are not found there. */
  type: string;
  /** Base URL of the auction system, for `auctionUrl`. */
  auctionSite: string;
  /** The document service context, on routes that write documents. */
  files?: DocumentContext;
  /** The server secret participation links are keyed with, on routes that may make a bid active. */
  participationSecret?: string;
  /** The id a create makes its object with: derived from the request's Idempotency-Key, else none (a new one). */
  createdId?: string;
}

/** The context of a read: the auctions' read port only (reads.ts), so a read's bundle carries no write path. */
export type AuctionsReadContext = Pick<AuctionsContext, 'principal' | 'now' | 'type' | 'auctionSite'> & {
  auctions: AggregateReader<Auction>;
};

/**
 * The context of the commands that may count periods (creation, the owner's PATCH, results, awards): the request's
 * time with the working-day calendar the runtime configured. Other routes never load the calendar.
 */
export type PeriodsContext = AuctionsContext & Timing;
