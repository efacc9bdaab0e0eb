import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKyiv } from '../../../functions/domain/kernel/time.ts';
import {
  advance,
  bidderDocument,
  type BidOutcome,
  placeBid,
  planRoom,
  publicDocument,
  type RoomState,
  results,
  type SealedBid,
  type Stage,
} from '../../../functions/domain/room/engine.ts';
import { bidders, insiderAuction, landleaseAuction, micros, PLANNED_AT } from './builders.ts';

/**
 * Random bid sequences and arrival times against small independent models of the originals' rules: the engine
 * accepts exactly the bids the model accepts (never one outside its stage), the results follow the winner rules, and
 * no sealed bid shows in anyone's document but its bidder's before the sealed-bid stage ends.
 */

const cents = (amount: number) => Math.round(amount * 100);

/** An arrival: a stage of the plan, where in it (a little before its start to a little after its end), who, what. */
const anyArrival = fc.record({
  stage: fc.oneof(fc.nat(), fc.constantFrom<Stage['type']>('sealedbid', 'bestbid', 'pre-sealedbid', 'pre-bestbid')),
  at: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: -0.05, max: 1.05, noNaN: true })),
  bidder: fc.nat(),
  kind: fc.constantFrom('asked', 'above', 'withdraw', 'random', 'best'),
  steps: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 })),
  random: fc.double({ min: -10, max: 2_000_000, noNaN: true }),
});
/**
 * Arrivals in the short stages where most rules live (a real schedule spends 96 % of its time in the Dutch steps):
 * sealed bids above the Dutch amount and best bids around the least one allowed.
 */
const arrival = fc.oneof(
  { arbitrary: anyArrival, weight: 3 },
  { arbitrary: anyArrival.map((a) => ({ ...a, stage: 'sealedbid' as const, kind: 'above' as const })), weight: 1 },
  { arbitrary: anyArrival.map((a) => ({ ...a, stage: 'bestbid' as const, kind: 'best' as const })), weight: 1 },
);
type Arrival = typeof arrival extends fc.Arbitrary<infer T> ? T : never;

/** The instant an arrival names, within the stage it picked (the last stage has no end: a minute after its start). */
function instantOf(plan: Stage[], a: Arrival): number {
  const stage =
    typeof a.stage === 'number' ? plan[a.stage % plan.length] : (plan.find((s) => s.type === a.stage) ?? plan[0]);
  const start = micros(stage.start);
  const end = stage.end ? micros(stage.end) : start + 60_000_000;
  return start + Math.floor(a.at * (end - start));
}

const stageAt = (plan: Stage[], at: number): Stage => plan.filter((s) => micros(s.start) <= at).at(-1) ?? plan[0];

describe('dgfInsider room properties', () => {
  it('accepts exactly the bids the rules allow, keeps sealed bids hidden, and posts the winner rules', {
    timeout: 120_000,
  }, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 10, max: 90 }),
        fc.constantFrom(1, 60, 1440),
        fc.array(arrival, { minLength: 1, maxLength: 40 }),
        (count, dutchSteps, accelerator, arrivals) => {
          let state = planRoom(insiderAuction({ bidders: bidders(count), dutchSteps, accelerator }), PLANNED_AT);
          const plan = state.plan;
          const ids = state.bidders.map((b) => b.bidId);
          const onePercent = Math.floor((cents(state.value.amount) + 50) / 100);
          const sealedEnd = micros(plan.find((s) => s.type === 'pre-bestbid')!.start);
          const sealedStage = plan.find((s) => s.type === 'sealedbid')!;
          // The model: what the originals would have accepted.
          let dutch: { bidderId: string; c: number; date: string } | undefined;
          const sealed = new Map<string, SealedBid>();
          let sealedMax: number | undefined;
          let best: { c: number; date: string } | undefined;
          let over = false;

          const events = arrivals.map((a) => ({ a, at: instantOf(plan, a) })).sort((x, y) => x.at - y.at);
          for (const { a, at } of events) {
            const now = formatKyiv(at);
            const stage = stageAt(plan, at);
            // A best bid comes from the Dutch winner and a bid above the Dutch amount from another bidder, so the
            // rare paths are walked often; the other kinds come from anyone.
            const anyone = ids[a.bidder % ids.length];
            const other = ids.filter((id) => id !== dutch?.bidderId)[a.bidder % (ids.length - 1)];
            const bidderId = a.kind === 'best' && dutch ? dutch.bidderId : a.kind === 'above' && dutch ? other : anyone;
            // The model's view of the clock: the end conditions and the sealed results.
            if (!dutch && at >= micros(plan.find((s) => s.type === 'pre-sealedbid')!.start)) over = true;
            if (dutch && at >= sealedEnd && sealedMax === undefined && !over) {
              const valid = [...sealed.values()].filter((b) => b.amount !== -1);
              if (valid.length + 1 < 2) over = true;
              else sealedMax = Math.max(...valid.map((b) => cents(b.amount)));
            }
            const asked = cents(stage.amount ?? 0);
            const amountCents =
              a.kind === 'asked'
                ? asked
                : a.kind === 'withdraw'
                  ? -100
                  : a.kind === 'above'
                    ? (dutch?.c ?? asked) + a.steps * 137
                    : a.kind === 'best'
                      ? (sealedMax ?? asked) + onePercent + (a.steps % 3) - 1 // around the least best bid allowed
                      : cents(a.random);
            const amount = amountCents / 100;

            const isD = dutch?.bidderId === bidderId;
            const acceptable =
              !over &&
              amountCents !== 0 &&
              ((stage.type === 'dutch' && !dutch && amountCents === asked) ||
                (stage.type === 'sealedbid' &&
                  dutch !== undefined &&
                  !isD &&
                  (amountCents === -100 || amountCents > dutch.c)) ||
                (stage.type === 'bestbid' &&
                  dutch !== undefined &&
                  sealedMax !== undefined &&
                  isD &&
                  (amountCents === -100 || (amountCents > dutch.c && amountCents >= sealedMax + onePercent))));

            state = advance(state, now, [...sealed.values()]);
            const outcome: BidOutcome = placeBid(state, { bidderId, amount }, now);
            expect(outcome.kind !== 'refused', `${stage.name} ${amount} at ${now}: ${JSON.stringify(outcome)}`).toBe(
              acceptable,
            );
            if (outcome.kind === 'state') {
              state = outcome.state;
              if (stage.type === 'dutch') dutch = { bidderId, c: amountCents, date: now };
              else best = { c: amountCents === -100 ? dutch!.c : amountCents, date: now };
            }
            if (outcome.kind === 'sealed') {
              expect(stage.type).toBe('sealedbid');
              expect(at).toBeGreaterThanOrEqual(micros(sealedStage.start));
              expect(at).toBeLessThan(sealedEnd);
              sealed.set(bidderId, outcome.sealed);
            }

            // No sealed bid shows before its stage ends, to anyone but its bidder.
            if (at < sealedEnd) {
              const amounts = [...sealed.values()].filter((b) => b.amount > 0);
              const everyone = JSON.stringify(publicDocument(state, now));
              for (const b of amounts) expect(everyone).not.toContain(String(b.amount));
              for (const viewer of ids) {
                const doc = JSON.stringify(bidderDocument(state, viewer, sealed.get(viewer), now));
                for (const b of amounts.filter((x) => x.bidderId !== viewer && x.amount !== sealed.get(viewer)?.amount))
                  expect(doc).not.toContain(String(b.amount));
              }
            }
          }

          // The end: the results follow the winner rules.
          const end = plan.at(-1)!.start;
          state = advance(state, end, [...sealed.values()]);
          expect(state.ended).toBeDefined();
          const posted = results(state).bids;
          expect(posted.map((b) => b.id)).toEqual(ids);
          if (!dutch) {
            expect(posted.every((b) => b.value === undefined)).toBe(true);
            return;
          }
          const valid = [...sealed.values()].filter((b) => b.amount !== -1 && b.bidderId !== dutch.bidderId);
          const expected = new Map<string, { c: number; date: string }>([
            [dutch.bidderId, best && valid.length > 0 ? best : { c: dutch.c, date: dutch.date }],
            ...valid.map((b) => [b.bidderId, { c: cents(b.amount), date: b.date }] as const),
          ]);
          for (const b of posted) {
            const e = expected.get(b.id);
            expect(b.value && { c: cents(b.value.amount), date: b.date }).toEqual(e);
          }
          // The winner (highest, then earliest) is the Dutch winner exactly when a best bid beat the sealed maximum.
          const ranked = posted
            .filter((b) => b.value)
            .sort((x, y) => cents(y.value!.amount) - cents(x.value!.amount) || micros(x.date!) - micros(y.date!));
          if (valid.length > 0 && best && best.c > dutch.c) expect(ranked[0].id).toBe(dutch.bidderId);
          if (valid.length > 0 && (!best || best.c === dutch.c)) expect(ranked[0].id).not.toBe(dutch.bidderId);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('landlease room properties', () => {
  it('accepts exactly the bids of an open round, prices only rise, and the end and results follow', {
    timeout: 120_000,
  }, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.constantFrom('2026-11-24T10:00:00+02:00', '2026-11-24T16:55:00+02:00', '2026-06-15T16:58:30+03:00'),
        fc.constantFrom(1, 60),
        fc.constantFrom(1000, 1050.5),
        fc.array(
          fc.record({
            delay: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 200_000_000 })),
            bidder: fc.nat(),
            kind: fc.constantFrom('asked', 'multiple', 'random', 'below'),
            steps: fc.integer({ min: 0, max: 5 }),
            random: fc.double({ min: -10, max: 5000, noNaN: true }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (count, startDate, accelerator, value, arrivals) => {
          let state: RoomState = planRoom(
            landleaseAuction({
              bidders: bidders(count),
              startDate,
              accelerator,
              value: { amount: value, currency: 'UAH', valueAddedTaxIncluded: false },
              minimalStep: { amount: 100 },
            }),
            PLANNED_AT,
          );
          const ids = state.bidders.map((b) => b.bidId);
          const step = 10_000;
          const scaled = (seconds: number) => Math.round((seconds * 1e6) / accelerator);
          const deadline = micros(state.deadline!);
          // The model: the anchor (start, then each accepted bid) opens a round at anchor + 10 s until +190 s.
          let anchor = micros(startDate);
          let price = cents(state.value.amount);
          const latest = new Map<string, { c: number; date: string }>();
          let now = micros(startDate) - 5_000_000;
          for (const a of arrivals) {
            now += Math.round(a.delay / accelerator);
            const roundStart = anchor + scaled(10);
            const roundEnd = Math.min(anchor + scaled(190), deadline);
            const open = roundStart < deadline && now >= roundStart && now < roundEnd;
            const asked = price + step;
            const c =
              a.kind === 'asked'
                ? asked
                : a.kind === 'multiple'
                  ? (Math.floor(asked / step) + a.steps) * step
                  : a.kind === 'below'
                    ? asked - 1
                    : cents(a.random);
            const acceptable = open && c !== 0 && c >= asked && (c % step === 0 || c === asked);
            const bidderId = ids[a.bidder % ids.length];
            const at = formatKyiv(now);
            state = advance(state, at, []);
            const outcome = placeBid(state, { bidderId, amount: c / 100 }, at);
            expect(outcome.kind === 'state', `${c} at ${at}: ${JSON.stringify(outcome)}`).toBe(acceptable);
            if (outcome.kind === 'state') {
              expect(c).toBeGreaterThan(price);
              state = outcome.state;
              anchor = now;
              price = c;
              latest.set(bidderId, { c, date: at });
            }
          }
          const end =
            anchor + scaled(10) < deadline ? Math.min(anchor + scaled(190), deadline) : Math.max(anchor, deadline);
          if (now < end) expect(advance(state, formatKyiv(end - 1), []).ended).toBeUndefined();
          const done = advance(state, formatKyiv(end), []);
          expect(done.ended?.at).toBe(formatKyiv(end));
          for (const b of results(done).bids) {
            const mine = latest.get(b.id);
            expect(cents(b.value!.amount)).toBe(mine ? mine.c : cents(state.value.amount));
            expect(b.date).toBe(mine?.date);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
