import { formatKyiv } from '../kernel/time.ts';
import { removeWithin, type Auction, type Working } from './auction.ts';
import { auctionUrlOf, BID, bidRecords } from './bids.ts';
import type { EventContext } from './timed-events.ts';

/** Steps the types' timed events share: status moves, dropping draft bids, scheduling the auction. */

/** A time-driven status change: `date` and `dateModified` move with it. */
export function moveTo<A extends Auction>(
  w: Working<A>,
  status: A['status'],
  ctx: EventContext,
  extra: Partial<A> = {},
): void {
  const at = formatKyiv(ctx.now);
  w.root = { ...w.root, ...extra, status, date: at, dateModified: at };
}

/**
 * Draft bids never registered are removed with their documents, as many as one write holds: false when some are
 * left for the next write (the event stays due until none is).
 */
export function dropDraftBids(w: Working): boolean {
  for (const { bid } of bidRecords(w.children).filter((r) => r.bid.status === 'draft')) {
    if (!removeWithin(w, { kind: BID, id: bid.id })) return false;
  }
  return true;
}

/**
 * The auction is scheduled: `active.auction` with its `auctionUrl` (from the auction site) and the auction start at
 * `shouldStartAfter`. From then on each active bid has its participation link, computed when its owner reads it
 * (`bidView`): a credential, never stored.
 */
export function scheduleAuction(w: Working, ctx: EventContext): void {
  const auctionUrl = auctionUrlOf(ctx.auctionSite, w.root);
  moveTo(w, 'active.auction', ctx, {
    auctionUrl,
    auctionPeriod: { ...w.root.auctionPeriod, startDate: w.root.auctionPeriod?.shouldStartAfter },
  });
}
