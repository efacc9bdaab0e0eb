import { atKyivTime } from '../calendar/periods.ts';
import { kyivDate, type Micros } from '../kernel/time.ts';
import type { RoomAuction, RoomState, Stage } from './model.ts';
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
  type RoomRules,
  refused,
  SECOND,
  stageAt,
  startsOf,
} from './rules.ts';

/**
 * landlease (openprocurement.auction.texas: constants.py, utils.py, bids.py, forms.py, scheduler.py): English rounds.
 * A 10 s pause, then a round at value + minimalStep planned for 180 s but never past the deadline (17:00 Kyiv on the
 * auction day); an accepted bid closes its round at once and opens a pause and a new round at bid + minimalStep.
 * The auction ends after a round without a bid, or at the deadline. The rounds are not stored: they follow from the
 * start and the accepted bids, so a bid and the schedule can never disagree.
 */

/** The bids the history carries: as many as the public document carries stages (engine.ts), about two a round. */
const MAX_HISTORY = 60;
const PAUSE = 10 * SECOND;
const ROUND = 180 * SECOND;
const DEADLINE_HOUR = 17;
/** The sandbox's relative deadline (SANDBOX_AUCTION_DURATION), used with an accelerator and divided by it. */
const SANDBOX_DURATION = 30 * MINUTE;

export const LANDLEASE_MESSAGES = {
  /** The original's answer to a bid while another was handled; the service may give it when a write loses a race. */
  busy: 'Another bid is already processing',
  stage: 'Current stage does not allow bidding',
  tooLow: 'Too low value',
  notMultiple: (step: number) => `Value should be a multiplier of a minimalStep amount (${step})`,
};

interface Schedule {
  stages: Stage[];
  end: Micros;
  reason: 'deadline' | 'no-bid-in-round';
}

/**
 * The schedules already derived. A schedule depends on the accepted bids and on fields fixed when the room is planned
 * (but for the reveal), and every new state shares the bids array of the one it came from until a
 * bid changes it: keyed on that array, a schedule is derived once per bid, however often the timers move the state.
 */
const derived = new WeakMap<RoomState['bids'], Map<string, Schedule>>();

function schedule(state: RoomState): Schedule {
  const byReveal = derived.get(state.bids) ?? new Map<string, Schedule>();
  derived.set(state.bids, byReveal);
  const key = [
    state.startDate,
    state.deadline,
    state.accelerator,
    state.value.amount,
    state.minimalStep,
    state.revealedAt,
  ].join(' ');
  const known = byReveal.get(key) ?? derive(state);
  byReveal.set(key, known);
  return known;
}

/** Every round the start and the accepted bids opened, and the planned end of the last one. */
type ScheduleInput = Pick<
  RoomState,
  'startDate' | 'accelerator' | 'deadline' | 'value' | 'minimalStep' | 'bids' | 'revealedAt'
>;

function derive(state: ScheduleInput): Schedule {
  const n = state.accelerator;
  const deadline = instant(state.deadline ?? state.startDate);
  const step = cents(state.minimalStep ?? 0);
  const anchors = [
    { at: instant(state.startDate), amount: cents(state.value.amount) },
    ...state.bids.map((b) => ({ at: instant(b.date), amount: cents(b.amount) })),
  ];
  const stages: Omit<Stage, 'index' | 'end'>[] = [];
  let end = deadline;
  anchors.forEach(({ at, amount }, k) => {
    stages.push({ type: 'pause', name: 'pause', start: iso(at) });
    const start = after(at, PAUSE, n);
    end = start < deadline ? Math.min(after(at, PAUSE + ROUND, n), deadline) : Math.max(at, deadline);
    if (start < deadline)
      stages.push({ type: 'english', name: `round_${k + 1}`, start: iso(start), amount: fromCents(amount + step) });
  });
  stages.push({ type: 'pre-announcement', name: 'pre-announcement', start: iso(end) });
  if (state.revealedAt) stages.push({ type: 'announcement', name: 'announcement', start: state.revealedAt });
  return { stages: chained(stages), end, reason: end === deadline ? 'deadline' : 'no-bid-in-round' };
}

export const landleaseRules: RoomRules = {
  plan(auction: RoomAuction, start: Micros, n: number) {
    const deadline = n > 1 ? after(start, SANDBOX_DURATION, n) : atKyivTime(kyivDate(start), DEADLINE_HOUR);
    const { stages } = derive({
      startDate: iso(start),
      accelerator: n,
      deadline: iso(deadline),
      value: auction.value,
      minimalStep: auction.minimalStep?.amount,
      bids: [],
    });
    return { plan: stages, deadline: iso(deadline) };
  },

  stages: (state) => schedule(state).stages,

  current: (state, now) => stageAt(schedule(state).stages, now),

  // The round's amount, or any multiple of the minimal step above it (bids.py, forms.py validate_value).
  offer: (state, stage) =>
    stage.type === 'english'
      ? { from: cents(stage.amount ?? 0), multipleOf: cents(state.minimalStep ?? 0) }
      : undefined,

  step: (state) => (state.minimalStep === undefined ? undefined : cents(state.minimalStep)),

  judge(state, stage, { bidderId, cents: c }, now) {
    const offer = this.offer(state, stage);
    if (!offer) return refused('stage', LANDLEASE_MESSAGES.stage);
    const step = state.minimalStep ?? 0;
    if (c < offer.from) return refused('too-low', LANDLEASE_MESSAGES.tooLow);
    if (c % (offer.multipleOf as number) !== 0 && c !== offer.from)
      return refused('not-multiple', LANDLEASE_MESSAGES.notMultiple(step));
    return { accepted: { bidderId, amount: fromCents(c), date: iso(now), stage: stage.name } };
  },

  mayBid: (_state, stage) => stage.type === 'english',

  record: (bids, bid) => [...bids, bid],

  boundaries(state) {
    const { stages, end } = schedule(state);
    const starts = startsOf(stages);
    // Round starts and the end; a pause starts with the bid that opened it, which is itself the change.
    return stages.flatMap((s, i) => (s.type === 'english' && starts[i] <= end ? [starts[i]] : [])).concat(end);
  },

  readsSealedAt: () => false,

  apply(state, at) {
    const { end, reason } = schedule(state);
    return at === end ? ended(state, at, reason) : state;
  },

  // Every round's bid, the latest ones as many as the document carries rounds.
  history: (state) => state.bids.slice(-MAX_HISTORY),

  standings: (state) => [...latestPerBidder(state.bids).values()].sort(bestFirst),

  results(state) {
    const latest = latestPerBidder(state.bids);
    return {
      bids: state.bidders.map(({ bidId }) => {
        const bid = latest.get(bidId);
        // A bidder who never bid gets the starting value (datasource.update_source_object); the API makes it invalid.
        return bid
          ? { id: bidId, value: { ...state.value, amount: bid.amount }, date: bid.date }
          : { id: bidId, value: state.value };
      }),
    };
  },
};
