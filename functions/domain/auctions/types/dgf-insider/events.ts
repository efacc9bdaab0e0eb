import { instantOf, type Working } from '../../auction.ts';
import { bidRecords } from '../../bids.ts';
import { dropDraftBids, moveTo, scheduleAuction } from '../../scheduling.ts';
import type { EventContext, TimedEvent } from '../../timed-events.ts';
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

export const insiderEvents: readonly TimedEvent<DgfInsiderAuction>[] = [
  {
    name: 'enquiry ends',
    at: (auction) =>
      auction.status === 'active.tendering' ? instantOf(auction, 'enquiryPeriod', 'endDate') : undefined,
    apply: endEnquiry,
  },
];
