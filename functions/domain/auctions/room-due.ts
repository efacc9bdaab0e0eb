import type { Internal } from '../kernel/aggregate.ts';
import type { Auction } from './auction.ts';

/**
 * What the auction room takes from an auction and leaves on it. The room is planned once, when the auction enters
 * `active.auction` (the room bot finds it on the work index: view.ts), and closed once the auction has left
 * `active.auction` without it (a cancellation): the auction's server-only `internal.room` says how far it got.
 */
export type RoomMark = 'planned' | 'closed';

export function roomMarkOf(internal: Internal | undefined): RoomMark | undefined {
  const mark = internal?.room;
  return mark === 'planned' || mark === 'closed' ? mark : undefined;
}

/** Whether the room has work on this auction: plan it (`plan`), or close the room it left behind (`close`). */
export function roomDue(auction: Auction, internal: Internal | undefined): 'plan' | 'close' | undefined {
  const mark = roomMarkOf(internal);
  if (auction.status === 'active.auction') return mark ? undefined : 'plan';
  return mark === 'planned' ? 'close' : undefined;
}
