import type { RateLimit } from '../kernel/rate-limit.ts';
import type { Micros } from '../kernel/time.ts';
import type { BidEntry, RoomAuction, RoomConnection, RoomItem, RoomState, SealedBid } from './model.ts';

/**
 * What the room's use cases (functions/room/) need outside the pure rules, as ports they are handed: the room's items
 * (`RoomStore`: DynamoDB in the Lambdas, store/room-repository.ts; in memory for the unit tests,
 * test/support/memory-room-store.ts), the connections and timers (`RoomPorts`: API Gateway and Step Functions in AWS, sockets
 * and in-process timers locally), and the auction the room belongs to (`RoomAuctions`).
 */

/**
 * The room's items. Every write that could race says so in its answer: `false` when its condition failed (the room
 * moved on, the item exists, the bid is claimed), and the caller decides again on what is now stored.
 */
export interface RoomStore {
  get(auctionId: string): Promise<RoomItem | undefined>;
  /** The room's first state, only if it has none (planned once); false when it exists already. */
  create(item: RoomItem, nextAt: Micros | undefined): Promise<boolean>;
  /**
   * Writes `next` if the stored room is still `read` (its version and sealed bids); false when it moved on. `nextAt`:
   * when the room's timer is due (the timers' backstop finds it then), none once the room needs no more timers.
   */
  save(read: RoomItem, next: RoomItem, nextAt: Micros | undefined): Promise<boolean>;
  /** A sealed bid (the bidder's latest replaces theirs), kept only while the room is still `read`. */
  putSealed(read: RoomItem, sealed: SealedBid): Promise<boolean>;
  sealedBids(auctionId: string): Promise<SealedBid[]>;
  /**
   * One line of the bid journal (the audit's). Of a bidder's refused bids only the first `keptRefusals` are kept;
   * every refusal is counted (`refusalCounts`), so junk cannot grow the audit.
   */
  journal(auctionId: string, entry: BidEntry, keptRefusals: number): Promise<void>;
  journalEntries(auctionId: string): Promise<BidEntry[]>;
  refusalCounts(auctionId: string): Promise<{ bidderId: string; refused: number }[]>;
  /**
   * Claims a bid the client named, so that it is judged once however many copies arrive: true for the one copy that
   * judges it (a claim left unanswered by a judge that died may be taken over after a while).
   */
  claimBid(auctionId: string, bidderId: string, clientBidId: string, now: Micros): Promise<boolean>;
  /** The answer kept for a bid the client named, once its judge has given it. */
  bidAnswer<A>(auctionId: string, bidderId: string, clientBidId: string): Promise<A | undefined>;
  /** Keeps a claimed bid's answer and returns the one kept: a taken bid's answer is never replaced by a refusal. */
  keepBidAnswer<A extends { outcome: string }>(
    auctionId: string,
    bidderId: string,
    clientBidId: string,
    answer: A,
  ): Promise<A>;
  connect(connection: RoomConnection, now: Micros): Promise<void>;
  connection(connectionId: string): Promise<RoomConnection | undefined>;
  /**
   * Spends one message of a connection's allowance (domain/kernel/rate-limit.ts) and finds its session: undefined
   * for a connection the room does not know; `admitted: false` once it is over its limit (that refusal writes nothing).
   */
  spendMessage(
    connectionId: string,
    limit: RateLimit,
    nowMs: number,
  ): Promise<{ connection: RoomConnection; admitted: boolean } | undefined>;
  disconnect(connection: Pick<RoomConnection, 'connectionId' | 'auctionId'>): Promise<void>;
  /** Every connection of a room. */
  connections(auctionId: string): Promise<RoomConnection[]>;
}

/** The room's next timer: when to apply what is due in the room of one version. */
export interface TimerOrder {
  auctionId: string;
  /** The room version the timer belongs to: a newer write arms its own timer and this one stops. */
  version: number;
  /** When to wake (ISO instant). */
  nextAt: string;
}

/** What the room does outside its items: talk to connections, publish to observers, arm its timers. */
export interface RoomPorts {
  /**
   * A text message (UTF-8), encoded once by the caller: a fan-out hands the same bytes to every connection of one
   * audience. 'gone' when the connection no longer exists (API Gateway's 410).
   */
  send(connectionId: string, message: Uint8Array): Promise<'sent' | 'gone'>;
  /** Ends a connection from the server's side (API Gateway's DeleteConnection); one already gone is no error. */
  close(connectionId: string, reason: string): Promise<void>;
  arm(order: TimerOrder): Promise<void>;
  /**
   * One event (a JSON text) to every subscriber of a public channel, in one call whatever their number: the room's
   * broadcast (AppSync Events' publish in AWS, the local stand-in's locally). Anyone may subscribe: only the public
   * document is ever published.
   */
  publish(channel: string, event: string): Promise<void>;
}

/** The room's work on an auction: plan its room (from the auction as it is now), or close the room it left behind. */
export type RoomWork = { plan: RoomAuction } | { close: true };

/** What the room needs of its auction (the auctions and documents contexts, wired by the runtime). */
export interface RoomAuctions {
  /** What the room has to do for this auction, if anything (none for an auction that does not exist). */
  work(auctionId: string): Promise<RoomWork | undefined>;
  /** Records how far the room got on the auction (idempotent). */
  mark(auctionId: string, mark: 'planned' | 'closed', now: Micros): Promise<void>;
  /** Posts the room's results to the auction (as `POST /auction`); throws when the post failed. */
  postResults(state: RoomState, now: Micros): Promise<void>;
  /** Whether the results reached the auction already (it left active.auction: a post whose answer was lost). */
  resultsPosted(auctionId: string): Promise<boolean>;
  /** Files the audit document (engine.ts `auditDocument`, as JSON) and attaches it to the auction (once: the auction remembers it). */
  attachAudit(state: RoomState, audit: unknown, now: Micros): Promise<void>;
}
