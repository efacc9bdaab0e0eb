import type { JsonRecord } from '../kernel/objects.ts';
import { parseInstant, type Micros } from '../kernel/time.ts';
import type { Auction, AuctionStatus, SharedStatus } from './auction.ts';

/**
 * What the convoy looks at in an auction created from a lot (from-lot.ts), apart from the release itself: the
 * auction's work index (view.ts, read by every route that stores auctions) needs this, never the type definitions
 * the release runs.
 */
export const AWAITING_CONVOY = 'pending.verification' satisfies SharedStatus;

/** The lot status each final auction status leads to. */
export const LOT_AFTER_AUCTION: Readonly<Partial<Record<AuctionStatus, 'pending.sold' | 'active.salable'>>> = {
  complete: 'pending.sold',
  unsuccessful: 'active.salable',
  cancelled: 'active.salable',
};

/** Whether the convoy has work on this auction, and since when. */
export function convoyDue(auction: Auction, internal?: JsonRecord): Micros | undefined {
  const waiting = auction.status === AWAITING_CONVOY;
  const unreported = !!auction.merchandisingObject && auction.status in LOT_AFTER_AUCTION && !internal?.lotReported;
  return waiting || unreported ? parseInstant(auction.dateModified) : undefined;
}
