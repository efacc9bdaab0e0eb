import type { Micros } from '../kernel/time.ts';
import type { AcceptedBid, RoomAuction, RoomState, SealedBid, Stage } from './model.ts';
import {
  after,
  bestFirst,
  cents,
  chained,
  ended,
  fromCents,
  instant,
  iso,
  latestPerBidder,
  MINUTE,
  printed,
  type Judgement,
  type RoomRules,
  refused,
  SECOND,
  type Standing,
  type StageOffer,
  stageAt,
  startsOf,
} from './rules.ts';

/**
 * dgfInsider (openprocurement.auction.insider, branch sandbox: constants.py, utils.py, forms.py, mixins.py):
 * a pause, the Dutch steps, the sealed bids, the best bid of the Dutch winner, the announcement.
 */

const FIRST_PAUSE = 30 * SECOND;
const DUTCH_PART = 405 * MINUTE;
const END_PHASE_PAUSE = 20 * SECOND;
const SEALEDBID = 10 * MINUTE;
const BESTBID = 5 * MINUTE;
export const DEFAULT_DUTCH_STEPS = 80;

/** The originals' messages (forms.py, mixins.py). */
export const INSIDER_MESSAGES = {
  notMatching: (c: number) => `Passed value doesn't match current amount=${printed(c)}`,
  stepEnded: 'Your bid is not submitted since the previous step has already ended.',
  tooLow: 'To low value',
  notAboveDutch: "Bid value can't be less or equal current amount",
  dutchWinnerInSealed: 'Not allowed to post bid for dutch winner',
  notDutchWinner: "bidder_id don't match with dutchWinner.bidder_id",
  belowBestStep:
    'Your bid should be greater than the one made by the sealed bid winner at least for one step (1% of the primary lot value).',
  /** Ours: the sealed results are not applied yet (the service applies what is due before a bid, so rare). */
  behind: 'The room is applying a stage change: place the bid again',
  stage: (type: string) => `Not allowed to post bid on current (${type}) phase`,
};

/** Step i asks initial × (100 − i) %, rounded half up to cents, never below 1.00 (utils.calculate_next_stage_amount). */
export function dutchAmountCents(initialCents: number, step: number): number {
  if (step === 0) return initialCents;
  const c = Math.floor((initialCents * (100 - step) + 50) / 100);
  return c > 0 ? c : 100;
}

const stageOf = (state: RoomState, type: Stage['type']): Stage => {
  const s = state.plan.find((x) => x.type === type);
  if (!s) throw new Error(`no ${type} stage`);
  return s;
};

const dutchWinnerOf = (state: RoomState): AcceptedBid | undefined =>
  state.bids.find((b) => b.stage.startsWith('dutch'));
const bestBidOf = (state: RoomState): AcceptedBid | undefined => state.bids.filter((b) => b.stage === 'bestbid').at(-1);
/** The sealed-bid winner: the highest sealed result, the earlier on a tie (mixins.find_sealedbid_winner). */
const sealedWinnerOf = (state: RoomState): AcceptedBid | undefined => [...(state.sealed ?? [])].sort(bestFirst)[0];

const withinStage = (stage: Stage, at: Micros): boolean =>
  instant(stage.start) <= at && (stage.end === undefined || at < instant(stage.end));

type Judge = (state: RoomState, stage: Stage, bid: { bidderId: string; cents: number }, now: Micros) => Judgement;

/** 1 % of the starting value: the Dutch step and the least raise of the best bid over the best sealed bid. */
const onePercentOf = (state: RoomState): number => dutchAmountCents(cents(state.value.amount), 99);

/** A Dutch step takes exactly its amount. */
const dutchOffer = (stage: Stage): StageOffer => ({ from: cents(stage.amount ?? 0), upTo: cents(stage.amount ?? 0) });

/** What a bid may be in each stage, in cents (forms.py validate_bid_value); the judges below hold bids to it. */
const OFFERS: Partial<Record<Stage['type'], (state: RoomState, stage: Stage) => StageOffer | undefined>> = {
  dutch: (_state, stage) => dutchOffer(stage),
  sealedbid: (state) => {
    const winner = dutchWinnerOf(state);
    return winner ? { from: cents(winner.amount) + 1 } : undefined;
  },
  bestbid: (state) => {
    const sealedWinner = sealedWinnerOf(state);
    return dutchWinnerOf(state) && sealedWinner
      ? { from: cents(sealedWinner.amount) + onePercentOf(state) }
      : undefined;
  },
};

/** Who may bid in which stage, and how much (forms.py validate_bid_value, validate_bidder_id). -1 is −100 cents. */
const JUDGES: Partial<Record<Stage['type'], Judge>> = {
  dutch(state, stage, { bidderId, cents: c }, now) {
    const asked = dutchOffer(stage).from;
    if (c === asked) return { accepted: { bidderId, amount: fromCents(c), date: iso(now), stage: stage.name } };
    const earlier = state.plan.some((s) => s.type === 'dutch' && s.index < stage.index && cents(s.amount ?? 0) === c);
    return earlier
      ? refused('stage', INSIDER_MESSAGES.stepEnded)
      : refused('amount', INSIDER_MESSAGES.notMatching(asked));
  },
  sealedbid(state, stage, { bidderId, cents: c }, now) {
    const winner = dutchWinnerOf(state);
    const offer = OFFERS.sealedbid?.(state, stage);
    if (!winner || !offer) return refused('stage', INSIDER_MESSAGES.stage(stage.type));
    if (winner.bidderId === bidderId) return refused('dutch-winner', INSIDER_MESSAGES.dutchWinnerInSealed);
    if (c === -100) return { sealed: { bidderId, amount: -1, date: iso(now) } }; // withdraws
    if (c <= 0) return refused('too-low', INSIDER_MESSAGES.tooLow);
    if (c < offer.from) return refused('amount', INSIDER_MESSAGES.notAboveDutch);
    return { sealed: { bidderId, amount: fromCents(c), date: iso(now) } };
  },
  bestbid(state, stage, { bidderId, cents: c }, now) {
    const winner = dutchWinnerOf(state);
    const offer = OFFERS.bestbid?.(state, stage);
    if (!winner || !offer) return refused('behind', INSIDER_MESSAGES.behind);
    if (winner.bidderId !== bidderId) return refused('not-dutch-winner', INSIDER_MESSAGES.notDutchWinner);
    const bid = { bidderId, amount: fromCents(c), date: iso(now), stage: stage.name };
    if (c === -100) return { accepted: { ...bid, amount: winner.amount } }; // back to the Dutch amount
    if (c <= cents(winner.amount)) return refused('amount', INSIDER_MESSAGES.notAboveDutch);
    if (c < offer.from) return refused('below-best-step', INSIDER_MESSAGES.belowBestStep);
    return { accepted: bid };
  },
};

type Effect = (state: RoomState, at: Micros, sealed: SealedBid[]) => RoomState;

/** What happens when a stage starts (mixins.py end_dutch, end_sealedbid, end_bestbid); other starts only tell. */
const ON_START: Partial<Record<Stage['type'], Effect>> = {
  // No Dutch bid: the auction ends with the Dutch part.
  'pre-sealedbid': (state, at) => (dutchWinnerOf(state) ? state : ended(state, at, 'no-dutch-bid')),
  // The sealed bids are read; fewer than 2 results (the Dutch winner's counts): the auction ends.
  'pre-bestbid': (state, at, sealed) => {
    const winner = dutchWinnerOf(state);
    if (!winner) return state;
    const results = sealedResults(state, winner, sealed);
    const next = { ...state, sealed: results };
    return results.length + 1 < 2 ? ended(next, at, 'too-few-sealed-results') : next;
  },
  announcement: (state, at) => ended(state, at, 'finished'),
};

export const insiderRules: RoomRules = {
  plan(auction: RoomAuction, start: Micros, n: number) {
    const steps = auction.dutchSteps ?? DEFAULT_DUTCH_STEPS;
    const rounds = steps + 1; // the first step asks the initial value, then `steps` steps down
    const initial = cents(auction.value.amount);
    const at = (offset: Micros) => iso(after(start, offset, n));
    const dutch = Array.from({ length: rounds }, (_, i) => ({
      type: 'dutch' as const,
      name: `dutch_${i}`,
      start: at(FIRST_PAUSE + (i * DUTCH_PART) / rounds),
      amount: fromCents(dutchAmountCents(initial, i)),
    }));
    const afterDutch = FIRST_PAUSE + DUTCH_PART; // fixed, whenever the Dutch part ended
    const tail: [Stage['type'], Micros][] = [
      ['pre-sealedbid', afterDutch],
      ['sealedbid', afterDutch + END_PHASE_PAUSE],
      ['pre-bestbid', afterDutch + END_PHASE_PAUSE + SEALEDBID],
      ['bestbid', afterDutch + 2 * END_PHASE_PAUSE + SEALEDBID],
      ['announcement', afterDutch + 2 * END_PHASE_PAUSE + SEALEDBID + BESTBID],
    ];
    return {
      dutchSteps: steps,
      plan: chained([
        { type: 'pause', name: 'pause', start: at(0) },
        ...dutch,
        ...tail.map(([type, offset]) => ({ type, name: type, start: at(offset) })),
      ]),
    };
  },

  stages(state) {
    if (!state.ended) return state.plan;
    // An early end (no Dutch bid, too few sealed results) brings the announcement forward; the stages it skipped go.
    const end = instant(state.ended.at);
    const before = state.plan.filter((s) => s.type !== 'announcement' && instant(s.start) < end);
    return chained([...before, { ...stageOf(state, 'announcement'), start: state.ended.at }]);
  },

  current(state, now) {
    if (state.ended && instant(state.ended.at) <= now) return this.stages(state).at(-1) as Stage;
    const planned = stageAt(state.plan, now);
    const winner = dutchWinnerOf(state);
    if (planned.type === 'dutch' && winner) return stageOf(state, 'pre-sealedbid');
    // No Dutch bid by the end of the Dutch part: the auction is over, whether or not a timer said so yet.
    if (!winner && now >= instant(stageOf(state, 'pre-sealedbid').start)) return stageOf(state, 'announcement');
    return planned;
  },

  offer: (state, stage) => OFFERS[stage.type]?.(state, stage),

  step: onePercentOf,

  judge(state, stage, bid, now) {
    const judge = JUDGES[stage.type];
    return judge ? judge(state, stage, bid, now) : refused('stage', INSIDER_MESSAGES.stage(stage.type));
  },

  boundaries(state) {
    const winner = dutchWinnerOf(state);
    const end = state.ended ? instant(state.ended.at) : Number.POSITIVE_INFINITY;
    const wonAt = winner ? instant(winner.date) : Number.POSITIVE_INFINITY;
    const starts = startsOf(state.plan);
    // After the Dutch winner the remaining steps are skipped: nothing happens at their starts.
    return state.plan
      .map((s, i) => ({ s, at: starts[i] }))
      .filter(({ s, at }, i) => i > 0 && at <= end && !(s.type === 'dutch' && at > wonAt))
      .map(({ at }) => at);
  },

  mayBid(state, stage, bidderId) {
    const winner = dutchWinnerOf(state)?.bidderId;
    if (stage.type === 'dutch') return true;
    if (stage.type === 'sealedbid') return winner !== undefined && winner !== bidderId;
    return stage.type === 'bestbid' && winner === bidderId && state.sealed !== undefined;
  },

  // The latest best bid counts: it replaces the previous one, so the state stays small however often the winner bids.
  record: (bids, bid) => [...bids.filter((b) => b.stage !== 'bestbid' || bid.stage !== 'bestbid'), bid],

  readsSealedAt: (state, at) => state.plan[startsOf(state.plan).indexOf(at)]?.type === 'pre-bestbid',

  apply(state, at, sealed) {
    const effect = ON_START[state.plan[startsOf(state.plan).indexOf(at)]?.type];
    return effect ? effect(state, at, sealed) : state;
  },

  standings(state, now) {
    const winner = dutchWinnerOf(state);
    if (!winner) return [];
    const announcement = state.ended ? instant(state.ended.at) : instant(stageOf(state, 'announcement').start);
    // The best bid is shown once its stage is over, like the sealed bids (end_bestbid).
    const best = now >= announcement ? bestBidOf(state) : undefined;
    const sealedWinner = sealedWinnerOf(state);
    const lines: Standing[] = [
      { bidderId: winner.bidderId, amount: (best ?? winner).amount, date: (best ?? winner).date, dutchWinner: true },
      ...(state.sealed ?? []).map((b) => ({
        bidderId: b.bidderId,
        amount: b.amount,
        date: b.date,
        ...(b === sealedWinner ? { sealedbidWinner: true as const } : {}),
      })),
    ];
    return lines.sort(bestFirst);
  },

  // The Dutch winner's accept at once, the best bid once its stage is over; the sealed bids are the results' lines.
  history(state, now) {
    const winner = dutchWinnerOf(state);
    const best = bestBidOf(state);
    const announcement = state.ended ? instant(state.ended.at) : instant(stageOf(state, 'announcement').start);
    return [...(winner ? [winner] : []), ...(best && now >= announcement ? [best] : [])];
  },

  results(state) {
    const lines = new Map(this.standings(state, Number.POSITIVE_INFINITY).map((s) => [s.bidderId, s]));
    return {
      bids: state.bidders.map(({ bidId }) => {
        const line = lines.get(bidId);
        return line ? { id: bidId, value: { ...state.value, amount: line.amount }, date: line.date } : { id: bidId };
      }),
    };
  },
};

/**
 * The sealed results: the latest sealed bid of each bidder but the Dutch winner, placed within the stage, withdrawals
 * (−1) out, each above the Dutch amount (the service hands in what it kept; a stray item changes nothing).
 */
function sealedResults(state: RoomState, winner: AcceptedBid, sealed: SealedBid[]): AcceptedBid[] {
  const stage = stageOf(state, 'sealedbid');
  const known = new Set(state.bidders.map((b) => b.bidId));
  const inStage = sealed
    .filter((b) => known.has(b.bidderId) && b.bidderId !== winner.bidderId && withinStage(stage, instant(b.date)))
    .sort((a, b) => instant(a.date) - instant(b.date))
    .map((b) => ({ ...b, stage: 'sealedbid' }));
  return [...latestPerBidder(inStage).values()].filter((b) => cents(b.amount) > cents(winner.amount));
}
