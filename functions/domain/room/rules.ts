import { formatKyiv, type Micros, parseInstant } from '../kernel/time.ts';
import type {
  AcceptedBid,
  EndReason,
  Refusal,
  RoomAuction,
  RoomResults,
  RoomState,
  SealedBid,
  Stage,
} from './model.ts';

/**
 * What a room type defines: its schedule, how it judges a bid in a stage, what happens at each boundary, and its
 * results. engine.ts holds one definition per procurementMethodType and never asks which type it serves.
 */
export interface RoomRules {
  /** The schedule planned from the auction; `start` is auctionPeriod.startDate, durations divided by `accelerator`. */
  plan(
    auction: RoomAuction,
    start: Micros,
    accelerator: number,
  ): { plan: Stage[]; deadline?: string; dutchSteps?: number };
  /** Every stage as the state knows it now (the plan, the rounds the bids opened, the end). */
  stages(state: RoomState): Stage[];
  /** The stage at `now`, from the schedule, the accepted bids and the clock alone. */
  current(state: RoomState, now: Micros): Stage;
  /** Judges the bid of a known bidder (amount in cents, never 0) placed in `stage`. */
  judge(state: RoomState, stage: Stage, bid: { bidderId: string; cents: number }, now: Micros): Judgement;
  /**
   * What a bid in `stage` may be, in cents (the least acceptable amount, an upper limit of the stage's own, whole
   * multiples): the judge refuses what falls outside it, and the page shows it. Undefined where nobody may bid.
   */
  offer(state: RoomState, stage: Stage): StageOffer | undefined;
  /** The room's minimal step in cents, if it has one. */
  step(state: RoomState): number | undefined;
  /** Whether the bidder may bid at all in `stage` (what the bidder's page offers). */
  mayBid(state: RoomState, stage: Stage, bidderId: string): boolean;
  /** The accepted bids once `bid` is accepted. */
  record(bids: AcceptedBid[], bid: AcceptedBid): AcceptedBid[];
  /** The planned instants at which something happens (for the timers), in order, none after the end. */
  boundaries(state: RoomState): Micros[];
  /** Whether the boundary at `at` reads the sealed bids. */
  readsSealedAt(state: RoomState, at: Micros): boolean;
  /** What the boundary at `at` changes (the end conditions, the sealed results); the state itself when nothing. */
  apply(state: RoomState, at: Micros, sealed: SealedBid[]): RoomState;
  /** The latest result per bidder that may be shown at `now` (all of them once ended), best first. */
  standings(state: RoomState, now: Micros): Standing[];
  /** The accepted bids that may be shown at `now`, in order, each with its stage (the page's bid history). */
  history(state: RoomState, now: Micros): AcceptedBid[];
  /** The POST /auction body data. */
  results(state: RoomState): RoomResults;
}

/** A stage's bids in cents (model.ts Offer before the room's own upper bound). */
export interface StageOffer {
  from: number;
  upTo?: number;
  multipleOf?: number;
}

export type Judgement = { refused: Refusal } | { accepted: AcceptedBid } | { sealed: SealedBid };

export interface Standing {
  bidderId: string;
  amount: number;
  date: string;
  dutchWinner?: true;
  sealedbidWinner?: true;
}

// ---------------------------------------------------------------------------------------------------- time

export const SECOND: Micros = 1_000_000;
export const MINUTE: Micros = 60 * SECOND;

export const iso = (at: Micros): string => formatKyiv(at);

/** An instant the room wrote itself (or the API's auctionPeriod.startDate); a bad one is a programming error. */
export function instant(text: string): Micros {
  const at = parseInstant(text);
  if (at === undefined) throw new Error(`not an instant: ${text}`);
  return at;
}

/**
 * `offset` after `start`, divided by the sandbox accelerator as the API's accelerator divides its periods
 * (calendar/periods.ts: every boundary moves to start + (boundary − start) / N).
 */
export const after = (start: Micros, offset: Micros, accelerator: number): Micros =>
  start + Math.round(offset / accelerator);

/** Stages with `end` set to the next one's start. */
export function chained(stages: Omit<Stage, 'index' | 'end'>[]): Stage[] {
  return stages.map(({ type, name, start, amount }, index) => {
    const next = stages[index + 1];
    return {
      index,
      type,
      name,
      start,
      ...(next ? { end: next.start } : {}),
      ...(amount !== undefined ? { amount } : {}),
    };
  });
}

/** The start instants of a schedule, parsed once per schedule (schedules are never mutated). */
const parsedStarts = new WeakMap<Stage[], Micros[]>();
export function startsOf(stages: Stage[]): Micros[] {
  const known = parsedStarts.get(stages) ?? stages.map((s) => instant(s.start));
  parsedStarts.set(stages, known);
  return known;
}

/** The last stage started at `now` (the first one before anything started). */
export function stageAt(stages: Stage[], now: Micros): Stage {
  const starts = startsOf(stages);
  let found = stages[0];
  stages.forEach((s, i) => {
    if (starts[i] <= now) found = s;
  });
  return found;
}

// ---------------------------------------------------------------------------------------------------- money

/** Amounts are judged in whole cents, rounded half up as the originals' Decimal fields did. */
export const cents = (amount: number): number => Math.round(Number((amount * 100).toPrecision(15)));
export const fromCents = (c: number): number => c / 100;
/** `990000.00`: an amount as the originals' messages printed a Decimal of two places. */
export const printed = (c: number): string => (c / 100).toFixed(2);

// ---------------------------------------------------------------------------------------------------- shared blocks

export const ended = (state: RoomState, at: Micros, reason: EndReason): RoomState => ({
  ...state,
  ended: { at: iso(at), reason },
});

/** The latest accepted bid of each bidder among `bids` (later in the list wins). */
export function latestPerBidder(bids: AcceptedBid[]): Map<string, AcceptedBid> {
  const latest = new Map<string, AcceptedBid>();
  for (const b of bids) latest.set(b.bidderId, b);
  return latest;
}

/** Best first: the higher amount, then the earlier date (the API's tie rule). */
export const bestFirst = (a: { amount: number; date: string }, b: { amount: number; date: string }): number =>
  cents(b.amount) - cents(a.amount) || instant(a.date) - instant(b.date);

export const refused = (code: Refusal['code'], message: string): Judgement => ({ refused: { code, message } });
