/**
 * The auction room's data: what planning reads from an auction, the room's whole state (stored as one item), the
 * public document every connection receives, and the records the service keeps beside the state (sealed bids and the
 * bid journal). Plain JSON, no class: the service stores and sends these as they are.
 *
 * Instants are ISO 8601 strings with the Kyiv offset (as the API writes them); every function takes `now` as such a
 * string and never reads a clock.
 */

import type { AuctionResults } from '../schemas/generated/request-types.ts';

export type RoomType = 'dgfInsider' | 'landlease';

export interface Money {
  amount: number;
  currency: string;
  valueAddedTaxIncluded: boolean;
}

/** What planning reads from the auction (its `GET /auction` view and the auction's own fields). */
export interface RoomAuction {
  id: string;
  procurementMethodType: RoomType;
  /** auctionPeriod.startDate */
  startDate: string;
  value: Money;
  minimalStep?: { amount: number };
  /** auctionParameters.dutchSteps (dgfInsider), default 80. */
  dutchSteps?: number;
  /** The sandbox accelerator (procurementMethodDetails `accelerator=N` in test mode); 1 otherwise. */
  accelerator?: number;
  title?: string;
  procuringEntityName?: string;
  /**
   * The active bids: `name` is tenderers[0].name, revealed only at the announcement; `bidNumber` the bid's own number
   * where the type has one (landlease), which then names the bidder ("Bidder #<bidNumber>") as the original did.
   */
  bidders: { bidId: string; name: string; date: string; bidNumber?: number }[];
}

export type StageType =
  | 'pause'
  | 'dutch'
  | 'pre-sealedbid'
  | 'sealedbid'
  | 'pre-bestbid'
  | 'bestbid'
  | 'english'
  | 'pre-announcement'
  | 'announcement';

/** One stage of the schedule. `end` is the planned end (the next stage's start); the last stage has none. */
export interface Stage {
  index: number;
  type: StageType;
  /** `dutch_0` … `dutch_N` for the Dutch steps, the type otherwise. */
  name: string;
  start: string;
  end?: string;
  /** The Dutch step's asked amount, the English round's minimal amount. */
  amount?: number;
}

/** A bid the room accepted into its state (a Dutch bid, an English bid, a best bid, a sealed result once revealed). */
export interface AcceptedBid {
  bidderId: string;
  amount: number;
  date: string;
  /** The stage it was placed in (`dutch_12`, `sealedbid`, `bestbid`, `english`). */
  stage: string;
}

/** A sealed bid: kept by the service in an item per bidder that no public read returns. `-1` withdraws. */
export interface SealedBid {
  bidderId: string;
  amount: number;
  date: string;
}

/** Why a bid is refused: a stable code and the original's message. */
export interface Refusal {
  code: RefusalCode;
  message: string;
}

export type RefusalCode =
  | 'unknown-bidder'
  | 'no-amount'
  | 'stage'
  | 'behind'
  | 'amount'
  | 'not-multiple'
  | 'too-low'
  | 'dutch-winner'
  | 'not-dutch-winner'
  | 'below-best-step'
  | 'too-high';

/** One line of the bid journal (for the audit document): every bid the room saw, accepted or refused. */
export interface BidEntry {
  bidderId: string;
  amount: number;
  date: string;
  stage: string;
  outcome: 'accepted' | 'sealed' | 'refused';
  message?: string;
}

export type EndReason = 'no-dutch-bid' | 'too-few-sealed-results' | 'finished' | 'no-bid-in-round' | 'deadline';

/** The room's whole state: one item, written with a condition on `version`. */
export interface RoomState {
  auctionId: string;
  procurementMethodType: RoomType;
  /** Bumped by every change; the service writes the state only if the stored version is the one it read. */
  version: number;
  startDate: string;
  accelerator: number;
  value: Money;
  minimalStep?: number;
  dutchSteps?: number;
  /** landlease: the instant after which no round runs (17:00 Kyiv on the auction day). */
  deadline?: string;
  title?: string;
  procuringEntityName?: string;
  /** The active bids in the order of their numbers (`Bidder #<number>`). */
  bidders: { bidId: string; name: string; date: string; number: number }[];
  /** The planned schedule at planning (dgfInsider: all of it; landlease: the first pause and round). */
  plan: Stage[];
  /** Accepted public bids in order: the Dutch winner, the English bids, the best bids. */
  bids: AcceptedBid[];
  /** dgfInsider: the sealed results, written when the sealed-bid stage closes (latest per bidder, withdrawals out). */
  sealed?: AcceptedBid[];
  /** The last planned instant the timers have applied (every boundary up to it is applied). */
  appliedUntil: string;
  /** Set when the auction has ended (its instant and why). */
  ended?: { at: string; reason: EndReason };
  /** Set when the results were posted: the names are revealed from then on. */
  revealedAt?: string;
}

/**
 * A result line of the public document: the latest accepted amount per bidder, best first. The bidder's label
 * (`Bidder #N`, then the name) is in `bidders`, once, so the largest document stays one message.
 */
export interface PublicResult {
  bidderNumber: number;
  /** Only after the announcement. */
  bidderId?: string;
  amount: number;
  date: string;
  dutchWinner?: true;
  sealedbidWinner?: true;
}

/**
 * What a bid in a stage may be, from the very rules that judge it (RoomRules.offer): from `from` up to `upTo`; with
 * `multipleOf`, only `from` itself or a multiple of it. The bidder's page shows it and proposes only such amounts.
 */
export interface Offer {
  /** The stage it is for: the current one, or in a pause the next one a bid may be placed in. */
  stage: string;
  from: number;
  upTo: number;
  multipleOf?: number;
}

/** The document every connection receives after every change. */
export interface PublicRoomDocument {
  auctionId: string;
  procurementMethodType: RoomType;
  title?: string;
  procuringEntityName?: string;
  value: Money;
  minimalStep?: { amount: number };
  dutchSteps?: number;
  /** The room's minimal step: landlease the auction's minimalStep, dgfInsider 1 % of the starting value. */
  step?: number;
  /** What a bid may be now, or in a pause next (none once the bidding is over or before the sealed results). */
  offer?: Offer;
  version: number;
  serverTime: string;
  /** The stages; for landlease only the latest ones (from `stagesFrom`), so the document stays one message. */
  stages: Stage[];
  stagesFrom: number;
  currentStage: number;
  results: PublicResult[];
  /** The accepted bids that may be shown, in order, with the stage each was placed in (landlease: the latest 60). */
  history: { bidderNumber: number; amount: number; date: string; stage: string }[];
  bidders: { bidderNumber: number; label: string; bidderId?: string }[];
  ended?: { at: string; reason: EndReason };
  namesRevealed: boolean;
}

/** What a bidder sees besides the public document: who they are, their own sealed bid and whether they may bid. */
export interface BidderView {
  bidderId: string;
  bidderNumber: number;
  label: string;
  /** This bidder's own latest bid, including a sealed or best bid nobody else sees yet. */
  ownBid?: { amount: number; date: string };
  mayBid: boolean;
  /** Whether they may bid in the stage after the current one, as the room stands now. */
  mayBidNext: boolean;
}

export type BidOutcome =
  | { kind: 'state'; state: RoomState; entry: BidEntry }
  | { kind: 'sealed'; sealed: SealedBid; entry: BidEntry }
  | { kind: 'refused'; refusal: Refusal; entry: BidEntry };

/**
 * POST /auction body data: every active bid, with `value` and `date` when it has a result; the very report the results
 * command checks (`auctionResults`), so the room hands it over as it is.
 */
export type RoomResults = AuctionResults;

/**
 * The room as the service keeps it: the state and what the timers track beside it. Written with a condition on the
 * state's `version` and on `sealedRev` (bumped by every sealed bid in the same write as the bid), so a stage that closes
 * never misses a sealed bid accepted before it closed, and a stale timer or a lost race writes nothing.
 */
export interface RoomItem {
  state: RoomState;
  /** Sealed bids accepted so far (a counter the state's writes are conditioned on). */
  sealedRev: number;
  /** When the results were posted to the auction (once). */
  posted?: string;
  /** Failed attempts at posting the results, and when the next one is due. */
  postAttempts?: number;
  retryAt?: string;
  /** When the room was closed (its auction left active.auction without it: a cancellation). */
  closed?: string;
  /** Whether the audit document is on the auction. */
  audited?: boolean;
}

/** A connection of a room: an observer, or a bidder verified by their participation link. */
export interface RoomConnection {
  connectionId: string;
  auctionId: string;
  bidderId?: string;
}
