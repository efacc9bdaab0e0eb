import type {
  BidderView,
  BidEntry,
  BidOutcome,
  PublicRoomDocument,
  RoomAuction,
  RoomResults,
  RoomState,
  SealedBid,
  Stage,
} from './model.ts';

export type * from './model.ts';

/**
 * The auction room's rules, pure: the service (functions/room/) reads the state item, calls one of these with the
 * server's `now`, and writes what comes back with a condition on `state.version`.
 */

const notYet = (): never => {
  throw new Error('not yet');
};

/** The room of an auction entering active.auction: the schedule, the bidders' numbers, version 1. */
export function planRoom(_auction: RoomAuction, _now: string): RoomState {
  return notYet();
}

/** The stage at `now`, derived from the schedule, the accepted bids and the clock (never stored). */
export function currentStage(_state: RoomState, _now: string): Stage {
  return notYet();
}

/**
 * A bid, validated against the stage at `now`. Dutch, English and best bids change the state; a sealed bid comes back
 * as a SealedBid for the service to keep in the bidder's own item (the state is unchanged). Every outcome carries a
 * journal entry for the audit. `amount: -1` withdraws a sealed bid or returns a best bid to the Dutch amount.
 * Before a bid the service applies what is due (`nextTransitionAt(state) <= now`: `advance`), so a bid never meets a
 * state behind the clock; if it does, the bid is refused (`behind`), never judged on stale facts.
 */
export function placeBid(_state: RoomState, _bid: { bidderId: string; amount: number }, _now: string): BidOutcome {
  return notYet();
}

/** The next planned instant at which `advance` has something to apply; undefined once the room has ended. */
export function nextTransitionAt(_state: RoomState): string | undefined {
  return notYet();
}

/** Whether `advance(state, now, …)` needs the sealed bids (the sealed-bid stage closes at or before `now`). */
export function needsSealedBids(_state: RoomState, _now: string): boolean {
  return notYet();
}

/**
 * Applies every boundary due at `now` (stage changes, the end conditions, the sealed results when the sealed-bid
 * stage closes: `sealed` is the latest sealed bid of each bidder, read by the service). Idempotent: nothing due
 * returns the very same state (same version).
 */
export function advance(_state: RoomState, _now: string, _sealed: SealedBid[]): RoomState {
  return notYet();
}

export function isEnded(_state: RoomState): boolean {
  return notYet();
}

/** After the results are posted: the names are revealed from now on (idempotent). */
export function revealNames(_state: RoomState, _now: string): RoomState {
  return notYet();
}

/** What every connection receives: stages, the current stage, server time, results; "Bidder #N" until revealed. */
export function publicDocument(_state: RoomState, _now: string): PublicRoomDocument {
  return notYet();
}

/** The public document plus what only this bidder may see (their own sealed bid). */
export function bidderDocument(
  _state: RoomState,
  _bidderId: string,
  _sealed: SealedBid | undefined,
  _now: string,
): PublicRoomDocument & { me: BidderView } {
  return notYet();
}

/** The POST /auction body data once the room has ended: every active bid, with value and date when it has a result. */
export function results(_state: RoomState): RoomResults {
  return notYet();
}

/** The audit document: every stage, every accepted and refused bid (the journal the service kept) with its time. */
export function auditDocument(_state: RoomState, _journal: BidEntry[]): unknown {
  return notYet();
}
