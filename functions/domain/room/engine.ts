import { insiderRules } from './insider.ts';
import { landleaseRules } from './landlease.ts';
import type {
  BidderView,
  BidEntry,
  BidOutcome,
  Offer,
  PublicResult,
  PublicRoomDocument,
  RefusalCode,
  RoomAuction,
  RoomResults,
  RoomState,
  RoomType,
  SealedBid,
  Stage,
} from './model.ts';
import { cents, fromCents, instant, iso, printed, type RoomRules, type Standing } from './rules.ts';

export type * from './model.ts';

/**
 * The auction room's rules, pure: the service (functions/room/) reads the state item, calls one of these with the
 * server's `now`, and writes what comes back with a condition on `state.version`. What differs between the types
 * lives in their definitions (insider.ts, landlease.ts); nothing here asks which type it serves.
 */
const RULES: Record<RoomType, RoomRules> = { dgfInsider: insiderRules, landlease: landleaseRules };

const rulesOf = (state: RoomState): RoomRules => RULES[state.procurementMethodType];

/** Display texts are capped so the public document of the largest auction stays one WebSocket message. */
const MAX_NAME = 200;
const MAX_TITLE = 500;
/**
 * No bid above 100 times the auction's starting value is taken, in any stage: far above any real auction's outcome, it
 * stops a slip of the decimal mark (×100) or a forged amount from becoming the award.
 */
export const MAX_TIMES_VALUE = 100;
const upperBound = (state: RoomState): number => cents(state.value.amount) * MAX_TIMES_VALUE;

/** The stages the public document carries: every insider stage (≤ 106), the latest landlease rounds. */
const MAX_PUBLIC_STAGES = 120;

/** A display text without control characters (JSON would escape each to 6 bytes), at most `max` code points. */
function capped(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  const points = Array.from(clean);
  return points.length <= max ? clean : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * The bidders' numbers: the bids' own `bidNumber` when every bid has a distinct one (landlease, as texas did),
 * otherwise the order the bids were placed in (then the id, for a stable order), from 1 (insider, as its mapping did).
 */
function numbered(bidders: RoomAuction['bidders']): RoomState['bidders'] {
  const own = bidders.map((b) => b.bidNumber);
  const distinct = own.every((n) => n !== undefined && n >= 1) && new Set(own).size === own.length;
  const byDate = [...bidders].sort((a, b) => instant(a.date) - instant(b.date) || a.bidId.localeCompare(b.bidId));
  return byDate
    .map(({ bidId, name, date, bidNumber }, i) => ({
      bidId,
      name,
      date,
      number: distinct ? (bidNumber as number) : i + 1,
    }))
    .sort((a, b) => a.number - b.number);
}

/** The room of an auction entering active.auction: the schedule, the bidders' numbers, version 1. */
export function planRoom(auction: RoomAuction, now: string): RoomState {
  const rules = RULES[auction.procurementMethodType];
  // A room planned after its start (a late planning, an outage) starts when planned: no stage is lost unseen.
  const start = Math.max(instant(auction.startDate), instant(now));
  const accelerator = auction.accelerator && auction.accelerator > 1 ? auction.accelerator : 1;
  const { plan, deadline, dutchSteps } = rules.plan(auction, start, accelerator);
  const bidders = numbered(auction.bidders).map((b) => ({ ...b, name: capped(b.name, MAX_NAME) ?? '' }));
  return {
    auctionId: auction.id,
    procurementMethodType: auction.procurementMethodType,
    version: 1,
    startDate: iso(start),
    accelerator,
    value: auction.value,
    ...(auction.minimalStep ? { minimalStep: auction.minimalStep.amount } : {}),
    ...(dutchSteps !== undefined ? { dutchSteps } : {}),
    ...(deadline ? { deadline } : {}),
    ...(auction.title !== undefined ? { title: capped(auction.title, MAX_TITLE) } : {}),
    ...(auction.procuringEntityName !== undefined
      ? { procuringEntityName: capped(auction.procuringEntityName, MAX_TITLE) }
      : {}),
    bidders,
    plan,
    bids: [],
    appliedUntil: iso(start),
  };
}

/** The stage at `now`, derived from the schedule, the accepted bids and the clock (never stored). */
export function currentStage(state: RoomState, now: string): Stage {
  return rulesOf(state).current(state, instant(now));
}

/** Every stage as the state knows it (landlease: the rounds the bids opened so far, then the end). */
export function stagesOf(state: RoomState): Stage[] {
  return rulesOf(state).stages(state);
}

export const isBidder = (state: RoomState, bidderId: string): boolean =>
  state.bidders.some((b) => b.bidId === bidderId);

/**
 * A bid, validated against the stage at `now`. Dutch, English and best bids change the state; a sealed bid comes back
 * as a SealedBid for the service to keep in the bidder's own item (the state is unchanged). Every outcome carries a
 * journal entry for the audit. `amount: -1` withdraws a sealed bid or returns a best bid to the Dutch amount.
 * The stage comes from the clock, so a bid after its stage's planned end is refused whether or not a timer fired.
 * The one fact a timer brings (the sealed results, which only the service can read) is never guessed: a best bid
 * before `advance` applied the sealed stage's end is refused (`behind`). The service applies what is due first
 * (`nextTransitionAt(state) <= now`: `advance`), then the bid, and writes once.
 */
export function placeBid(state: RoomState, bid: { bidderId: string; amount: number }, now: string): BidOutcome {
  const rules = rulesOf(state);
  const at = instant(now);
  const stage = rules.current(state, at);
  const entry = (outcome: BidEntry['outcome'], message?: string): BidEntry => ({
    bidderId: bid.bidderId,
    amount: bid.amount,
    date: iso(at),
    stage: stage.name,
    outcome,
    ...(message ? { message } : {}),
  });
  const refuse = (code: RefusalCode, message: string): BidOutcome => ({
    kind: 'refused',
    refusal: { code, message },
    entry: entry('refused', message),
  });
  if (!isBidder(state, bid.bidderId)) return refuse('unknown-bidder', 'Bad bidder!');
  const c = Number.isFinite(bid.amount) ? cents(bid.amount) : 0;
  if (c === 0) return refuse('no-amount', 'Bid amount is required');
  const bound = upperBound(state);
  if (c > bound)
    return refuse(
      'too-high',
      `Bid value can't be more than ${printed(bound)} (${MAX_TIMES_VALUE} times the starting value)`,
    );
  const judged = rules.judge(state, stage, { bidderId: bid.bidderId, cents: c }, at);
  if ('refused' in judged) return refuse(judged.refused.code, judged.refused.message);
  if ('sealed' in judged) return { kind: 'sealed', sealed: judged.sealed, entry: entry('sealed') };
  const next: RoomState = {
    ...state,
    version: state.version + 1,
    bids: rules.record(state.bids, judged.accepted),
  };
  return { kind: 'state', state: next, entry: { ...entry('accepted'), amount: judged.accepted.amount } };
}

/** The next planned instant at which `advance` has something to apply; undefined once the room has ended. */
export function nextTransitionAt(state: RoomState): string | undefined {
  const applied = instant(state.appliedUntil);
  const next = rulesOf(state)
    .boundaries(state)
    .find((at) => at > applied);
  return next === undefined ? undefined : iso(next);
}

/** Whether `advance(state, now, …)` needs the sealed bids (the sealed-bid stage closes at or before `now`). */
export function needsSealedBids(state: RoomState, now: string): boolean {
  const rules = rulesOf(state);
  const applied = instant(state.appliedUntil);
  const at = instant(now);
  return rules.boundaries(state).some((b) => b > applied && b <= at && rules.readsSealedAt(state, b));
}

/**
 * Applies every boundary due at `now` (stage changes, the end conditions, the sealed results when the sealed-bid
 * stage closes: `sealed` is the latest sealed bid of each bidder, read by the service). Idempotent: nothing due
 * returns the very same state (same version).
 */
export function advance(state: RoomState, now: string, sealed: SealedBid[]): RoomState {
  const rules = rulesOf(state);
  const at = instant(now);
  let next = state;
  for (let due = nextTransitionAt(next); due !== undefined && instant(due) <= at; due = nextTransitionAt(next))
    next = { ...rules.apply(next, instant(due), sealed), appliedUntil: due };
  return next === state ? state : { ...next, version: state.version + 1 };
}

export const isEnded = (state: RoomState): boolean => state.ended !== undefined;

/** After the results are posted: the names are revealed from now on (idempotent; only once ended). */
export function revealNames(state: RoomState, now: string): RoomState {
  if (!state.ended || state.revealedAt) return state;
  return { ...state, revealedAt: iso(instant(now)), version: state.version + 1 };
}

const labelOf = (state: RoomState, bidder: RoomState['bidders'][number]): string =>
  state.revealedAt ? bidder.name : `Bidder #${bidder.number}`;

/**
 * What a bid may be at `current` (its rules' offer and the room's upper bound, in amounts); in a stage nobody bids in
 * (a pause), what it may be in the next one, so the page can say it ahead. None once the auction has ended.
 */
function offerOf(state: RoomState, stages: Stage[], current: Stage, at: number): Offer | undefined {
  if (state.ended && instant(state.ended.at) <= at) return undefined;
  const rules = rulesOf(state);
  const next = stages.find((s) => s.index === current.index + 1);
  const [stage, offer] = [current, next]
    .map((s) => [s, s && rules.offer(state, s)] as const)
    .find(([, o]) => o !== undefined) ?? [current, undefined];
  if (!stage || !offer) return undefined;
  const bound = upperBound(state);
  return {
    stage: stage.name,
    from: fromCents(offer.from),
    upTo: fromCents(Math.min(offer.upTo ?? bound, bound)),
    ...(offer.multipleOf ? { multipleOf: fromCents(offer.multipleOf) } : {}),
  };
}

/** What every connection receives: stages, the current stage, server time, results; "Bidder #N" until revealed. */
export function publicDocument(state: RoomState, now: string): PublicRoomDocument {
  const rules = rulesOf(state);
  const at = instant(now);
  const stages = rules.stages(state);
  const stagesFrom = Math.max(0, stages.length - MAX_PUBLIC_STAGES);
  const current = rules.current(state, at);
  const offer = offerOf(state, stages, current, at);
  const step = rules.step(state);
  const numberOf = new Map(state.bidders.map((b) => [b.bidId, b.number]));
  const revealed = state.revealedAt !== undefined;
  const result = (s: Standing): PublicResult => {
    const bidderNumber = numberOf.get(s.bidderId) ?? 0;
    return {
      bidderNumber,
      ...(revealed ? { bidderId: s.bidderId } : {}),
      amount: s.amount,
      date: s.date,
      ...(s.dutchWinner ? { dutchWinner: true as const } : {}),
      ...(s.sealedbidWinner ? { sealedbidWinner: true as const } : {}),
    };
  };
  return {
    auctionId: state.auctionId,
    procurementMethodType: state.procurementMethodType,
    ...(state.title !== undefined ? { title: state.title } : {}),
    ...(state.procuringEntityName !== undefined ? { procuringEntityName: state.procuringEntityName } : {}),
    value: state.value,
    ...(state.minimalStep !== undefined ? { minimalStep: { amount: state.minimalStep } } : {}),
    ...(state.dutchSteps !== undefined ? { dutchSteps: state.dutchSteps } : {}),
    ...(step !== undefined ? { step: fromCents(step) } : {}),
    ...(offer ? { offer } : {}),
    version: state.version,
    serverTime: iso(at),
    stages: stages.slice(stagesFrom),
    stagesFrom,
    currentStage: current.index,
    results: rules.standings(state, at).map(result),
    history: rules.history(state, at).map((b) => ({
      bidderNumber: numberOf.get(b.bidderId) ?? 0,
      amount: b.amount,
      date: b.date,
      stage: b.stage,
    })),
    bidders: state.bidders.map((b) => ({
      bidderNumber: b.number,
      label: labelOf(state, b),
      ...(revealed ? { bidderId: b.bidId } : {}),
    })),
    ...(state.ended && instant(state.ended.at) <= at ? { ended: state.ended } : {}),
    namesRevealed: revealed,
  };
}

/**
 * What only this bidder may see: their number and label, their own sealed or best bid, whether they may bid now and
 * in the next stage (a page whose clock passes into it before the next document arrives must not show it closed).
 */
export function bidderView(state: RoomState, bidderId: string, sealed: SealedBid | undefined, now: string): BidderView {
  const rules = rulesOf(state);
  const bidder = state.bidders.find((b) => b.bidId === bidderId);
  const own = [...state.bids].reverse().find((b) => b.bidderId === bidderId);
  const mine = sealed?.bidderId === bidderId && cents(sealed.amount) > 0 ? sealed : own;
  const current = rules.current(state, instant(now));
  const next = rules.stages(state).find((s) => s.index === current.index + 1);
  return {
    bidderId,
    bidderNumber: bidder?.number ?? 0,
    label: bidder ? labelOf(state, bidder) : '',
    ...(mine ? { ownBid: { amount: fromCents(cents(mine.amount)), date: mine.date } } : {}),
    mayBid: bidder !== undefined && rules.mayBid(state, current, bidderId),
    mayBidNext: bidder !== undefined && next !== undefined && rules.mayBid(state, next, bidderId),
  };
}

/** The public document plus what only this bidder may see (`bidderView`). */
export function bidderDocument(
  state: RoomState,
  bidderId: string,
  sealed: SealedBid | undefined,
  now: string,
): PublicRoomDocument & { me: BidderView } {
  return { ...publicDocument(state, now), me: bidderView(state, bidderId, sealed, now) };
}

/**
 * The documents of one moment as JSON text, for a fan-out: the public one serialized once, and a bidder's as that
 * same text with their `me` spliced in, which is exactly JSON.stringify of `bidderDocument` without building and
 * serializing the public part again for each bidder.
 */
export function documentTexts(state: RoomState, now: string) {
  const text = JSON.stringify(publicDocument(state, now));
  return {
    public: text,
    bidder: (bidderId: string, sealed: SealedBid | undefined): string =>
      `${text.slice(0, -1)},"me":${JSON.stringify(bidderView(state, bidderId, sealed, now))}}`,
  };
}

/** The POST /auction body data once the room has ended: every active bid, with value and date when it has a result. */
export function results(state: RoomState): RoomResults {
  return rulesOf(state).results(state);
}

/**
 * The audit document: every stage, every bid the service journaled with its time (the accepted ones all, each
 * bidder's first refused ones), and how many more refusals of each bidder were only counted (`unjournaled`).
 */
export function auditDocument(
  state: RoomState,
  journal: BidEntry[],
  unjournaled: { bidderId: string; count: number }[] = [],
): unknown {
  const rules = rulesOf(state);
  const numberOf = new Map(state.bidders.map((b) => [b.bidId, b.number]));
  const final = state.ended ? instant(state.ended.at) : Number.POSITIVE_INFINITY;
  const sealedOpen = state.sealed !== undefined || state.ended !== undefined;
  return {
    id: state.auctionId,
    procurementMethodType: state.procurementMethodType,
    value: state.value,
    ...(state.minimalStep !== undefined ? { minimalStep: { amount: state.minimalStep } } : {}),
    ...(state.dutchSteps !== undefined ? { auctionParameters: { dutchSteps: state.dutchSteps } } : {}),
    timeline: {
      auction_start: {
        time: state.startDate,
        initial_bids: state.bidders.map((b) => ({ bidder: b.bidId, bid_number: b.number, date: b.date })),
      },
      stages: rules.stages(state),
      bids: [...journal]
        .sort((a, b) => instant(a.date) - instant(b.date))
        // Before the sealed-bid stage closed (an audit asked for early), a sealed amount stays hidden.
        .map(({ amount, ...e }) => ({
          ...e,
          ...(e.outcome !== 'sealed' || sealedOpen ? { amount } : {}),
          bid_number: numberOf.get(e.bidderId) ?? 0,
        })),
      ...(unjournaled.length
        ? {
            refusals_not_journaled: unjournaled.map((u) => ({
              bidder: u.bidderId,
              bid_number: numberOf.get(u.bidderId) ?? 0,
              count: u.count,
            })),
          }
        : {}),
      ...(state.sealed ? { sealedbid: state.sealed } : {}),
      results: {
        ...(state.ended ? { time: state.ended.at, reason: state.ended.reason } : {}),
        bids: rules.standings(state, final).map((s) => ({ ...s, bid_number: numberOf.get(s.bidderId) ?? 0 })),
      },
    },
    ...(state.revealedAt
      ? {
          announcement: {
            time: state.revealedAt,
            bidders: state.bidders.map((b) => ({ bidder: b.bidId, name: b.name })),
          },
        }
      : {}),
  };
}
