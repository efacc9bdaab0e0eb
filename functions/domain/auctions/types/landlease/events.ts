import { instantOf, putWithin, type PeriodName, type Working } from '../../auction.ts';
import { SINGLE_AWARD, startAwarding } from '../../awarding.ts';
import { bidChild, bidRecords } from '../../bids.ts';
import { dropDraftBids, moveTo, scheduleAuction } from '../../scheduling.ts';
import type { EventContext, TimedEvent } from '../../timed-events.ts';
import type { LandleaseAuction, LandleaseStatus } from './record.ts';

/** The chronograph's landlease transitions (reference-behaviour.md §8), each due at the end of a period. */

const dueIn = (status: LandleaseStatus, period: PeriodName) => (auction: LandleaseAuction) =>
  auction.status === status ? instantOf(auction, period, 'endDate') : undefined;

const minBids = (auction: LandleaseAuction): number => auction.minNumberOfQualifiedBids ?? 2;

/**
 * Tendering ends: too few registered (pending/active) bids → unsuccessful; else drafts are dropped (in as many
 * writes as they take) → enquiry.
 */
function endTendering(w: Working<LandleaseAuction>, ctx: EventContext): void {
  const records = bidRecords(w.children);
  const registered = records.filter((r) => r.bid.status === 'pending' || r.bid.status === 'active');
  if (registered.length < minBids(w.root)) {
    moveTo(w, 'unsuccessful', ctx);
    return;
  }
  if (dropDraftBids(w)) moveTo(w, 'active.enquiry', ctx);
}

/**
 * Enquiry ends: bids never activated become unsuccessful (in as many writes as they take); too few active bids → unsuccessful; one (when one is
 * enough) → straight to qualification; otherwise the auction is scheduled with its URL and each bidder's link.
 */
function endEnquiry(w: Working<LandleaseAuction>, ctx: EventContext): void {
  const records = bidRecords(w.children);
  for (const { bid, child } of records.filter((r) => r.bid.status === 'draft' || r.bid.status === 'pending')) {
    if (!putWithin(w, bidChild({ ...bid, status: 'unsuccessful' }, child.internal?.tokenHash))) return;
  }
  const active = records.filter((r) => r.bid.status === 'active');
  w.root = { ...w.root, numberOfBids: active.length };
  if (active.length < minBids(w.root)) moveTo(w, 'unsuccessful', ctx);
  else if (active.length === 1) startAwarding(w, ctx, SINGLE_AWARD);
  else scheduleAuction(w, ctx);
}

export const landleaseEvents: readonly TimedEvent<LandleaseAuction>[] = [
  {
    name: 'rectification ends',
    at: dueIn('active.rectification', 'rectificationPeriod'),
    apply: (w, ctx) => moveTo(w, 'active.tendering', ctx),
  },
  { name: 'tendering ends', at: dueIn('active.tendering', 'tenderPeriod'), apply: endTendering },
  { name: 'enquiry ends', at: dueIn('active.enquiry', 'enquiryPeriod'), apply: endEnquiry },
];
