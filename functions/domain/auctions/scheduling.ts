import { formatKyiv } from '../kernel/time.ts';
import { putChild, removeWithBelongings, type Auction, type Working } from './auction.ts';
import { auctionUrlOf, BID, bidChild, bidRecords, participationUrlOf } from './bids.ts';
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

/** Draft bids never registered are removed with their documents. */
export function dropDraftBids(w: Working): void {
  for (const { bid } of bidRecords(w.children).filter((r) => r.bid.status === 'draft')) {
    removeWithBelongings(w, { kind: BID, id: bid.id });
  }
}

/**
 * The auction is scheduled: `active.auction` with its `auctionUrl` (from the auction site), the auction start at
 * `shouldStartAfter`, and each active bid's participation link (keyed under `ctx.participationSecret`).
 */
export function scheduleAuction(w: Working, ctx: EventContext): void {
  const auctionUrl = auctionUrlOf(ctx.auctionSite, w.root);
  for (const { bid, child } of bidRecords(w.children).filter((r) => r.bid.status === 'active')) {
    const link = participationUrlOf(ctx, w.root, bid.id);
    if (bid.participationUrl !== link)
      putChild(w, bidChild({ ...bid, participationUrl: link }, child.internal?.tokenHash));
  }
  moveTo(w, 'active.auction', ctx, {
    auctionUrl,
    auctionPeriod: { ...w.root.auctionPeriod, startDate: w.root.auctionPeriod?.shouldStartAfter },
  });
}
