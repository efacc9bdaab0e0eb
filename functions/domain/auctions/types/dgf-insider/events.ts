import { instantOf, type Working } from '../../auction.ts';
import { bidRecords } from '../../bids.ts';
import { dropDraftBids, moveTo, scheduleAuction } from '../../scheduling.ts';
import type { EventContext, TimedEvent } from '../../timed-events.ts';
import { formatKyiv, type Micros } from '../../../kernel/time.ts';
import type { DgfInsiderAuction } from './record.ts';

/**
 * The chronograph's dgfInsider transition (reference-behaviour.md §9, upstream INS `check_status`): when the enquiry
 * period of a tendering auction ends, draft bids are dropped (in as many writes as they take); with no active bid
 * the auction is unsuccessful, otherwise it is scheduled (`active.auction`, `auctionUrl`).
 */
function endEnquiry(w: Working<DgfInsiderAuction>, ctx: EventContext): void {
  if (!dropDraftBids(w)) return;
  const active = bidRecords(w.children).filter((r) => r.bid.status === 'active');
  w.root = { ...w.root, numberOfBids: active.length };
  if (!active.length) moveTo(w, 'unsuccessful', ctx);
  else scheduleAuction(w, ctx);
}

/**
 * How long an insider auction runs from its start (upstream `calc_auction_end_time`, never accelerated): 80 Dutch
 * stages over 405 minutes, 30 + 20 seconds of pauses, 10 minutes of sealed bids, 5 of the best bid, and the 15-minute
 * stand-still.
 */
const AUCTION_DURATION: Micros = (405 * 60 + 50 + 10 * 60 + 5 * 60 + 15 * 60) * 1_000_000;

/** When a scheduled auction should be over: until then the results are awaited (upstream `next_check`). */
const plannedEnd = (auction: DgfInsiderAuction): Micros | undefined => {
  const start = auction.status === 'active.auction' ? instantOf(auction, 'auctionPeriod', 'startDate') : undefined;
  return start === undefined ? undefined : start + AUCTION_DURATION;
};

/**
 * No results by the planned end: the auction is planned again to start after it, as upstream `shouldStartAfter`
 * moved on once `calc_auction_end_time` had passed.
 */
function replan(w: Working<DgfInsiderAuction>): void {
  const after = formatKyiv(plannedEnd(w.root)!);
  w.root = { ...w.root, auctionPeriod: { ...w.root.auctionPeriod, shouldStartAfter: after, startDate: after } };
}

export const insiderEvents: readonly TimedEvent<DgfInsiderAuction>[] = [
  {
    name: 'enquiry ends',
    at: (auction) =>
      auction.status === 'active.tendering' ? instantOf(auction, 'enquiryPeriod', 'endDate') : undefined,
    apply: endEnquiry,
  },
  // The original showed `next_check` in active.auction too: the end of the auction as planned.
  { name: 'auction overdue', at: plannedEnd, apply: replan },
];
