import { describe, expect, it } from 'vitest';
import {
  advance,
  bidderDocument,
  currentStage,
  isEnded,
  needsSealedBids,
  nextTransitionAt,
  placeBid,
  planRoom,
  publicDocument,
  type RoomState,
  results,
  revealNames,
  type SealedBid,
  stagesOf,
  auditDocument,
  type BidEntry,
} from '../../../functions/domain/room/engine.ts';
import { dutchAmountCents, INSIDER_MESSAGES } from '../../../functions/domain/room/insider.ts';
import { insiderAuction, micros, PLANNED_AT, plus } from './builders.ts';

const room = planRoom(insiderAuction(), PLANNED_AT);
const [B1, B2, B3] = room.bidders.map((b) => b.bidId);

/** The state after applying what is due at `now` (with these sealed bids), as the service does before a bid. */
const at = (state: RoomState, now: string, sealed: SealedBid[] = []) => advance(state, now, sealed);

function accepted(state: RoomState, bidderId: string, amount: number, now: string): RoomState {
  const outcome = placeBid(at(state, now), { bidderId, amount }, now);
  if (outcome.kind !== 'state') throw new Error(`expected an accepted bid, got ${JSON.stringify(outcome)}`);
  return outcome.state;
}

function sealedBid(state: RoomState, bidderId: string, amount: number, now: string): SealedBid {
  const outcome = placeBid(at(state, now), { bidderId, amount }, now);
  if (outcome.kind !== 'sealed') throw new Error(`expected a sealed bid, got ${JSON.stringify(outcome)}`);
  return outcome.sealed;
}

const refusal = (state: RoomState, bidderId: string, amount: number, now: string) => {
  const outcome = placeBid(at(state, now), { bidderId, amount }, now);
  return outcome.kind === 'refused' ? outcome.refusal.message : `not refused: ${outcome.kind}`;
};

/** B1 takes the Dutch step 10 (900,000.00) at 10:52:00. */
const afterDutch = accepted(room, B1, 900_000, '2026-11-24T10:52:00+02:00');
const SEALED_AT = '2026-11-24T16:50:00+02:00';
const AFTER_SEALED = '2026-11-24T16:56:00+02:00';
const BEST_AT = '2026-11-24T16:58:00+02:00';
const END = '2026-11-24T17:01:10+02:00';

describe('dgfInsider room: the schedule of an 80-step auction', () => {
  it('plans a pause, 81 Dutch steps of 5 minutes from start + 30 s, then the sealed and best bid stages', () => {
    const stages = room.plan;
    expect(stages).toHaveLength(1 + 81 + 5);
    expect(stages[0]).toMatchObject({
      type: 'pause',
      start: '2026-11-24T10:00:00+02:00',
      end: '2026-11-24T10:00:30+02:00',
    });
    expect(stages[1]).toMatchObject({ name: 'dutch_0', start: '2026-11-24T10:00:30+02:00', amount: 1_000_000 });
    expect(stages[2]).toMatchObject({ name: 'dutch_1', start: '2026-11-24T10:05:30+02:00', amount: 990_000 });
    expect(stages[41]).toMatchObject({ name: 'dutch_40', start: '2026-11-24T13:20:30+02:00', amount: 600_000 });
    expect(stages[81]).toMatchObject({ name: 'dutch_80', start: '2026-11-24T16:40:30+02:00', amount: 200_000 });
    expect(stages.slice(82).map((s) => [s.type, s.start])).toEqual([
      ['pre-sealedbid', '2026-11-24T16:45:30+02:00'],
      ['sealedbid', '2026-11-24T16:45:50+02:00'],
      ['pre-bestbid', '2026-11-24T16:55:50+02:00'],
      ['bestbid', '2026-11-24T16:56:10+02:00'],
      ['announcement', END],
    ]);
    expect(stages.every((s, i) => s.index === i && s.end === stages[i + 1]?.start)).toBe(true);
    expect(room).toMatchObject({ version: 1, dutchSteps: 80, accelerator: 1 });
  });

  it('asks initial × (100 − i) % rounded half up to cents, never below 1.00', () => {
    expect(dutchAmountCents(123_457, 33)).toBe(82_716); // 1234.57 × 0.67 = 827.1619
    expect(dutchAmountCents(150, 1)).toBe(149); // 1.50 × 0.99 = 1.485 → 1.49
    expect(dutchAmountCents(50, 1)).toBe(50); // 0.50 × 0.99 = 0.495 → 0.50
    expect(dutchAmountCents(100_000, 100)).toBe(100);
  });

  it('spreads 405 minutes over dutchSteps + 1 steps', () => {
    const ten = planRoom(insiderAuction({ dutchSteps: 10 }), PLANNED_AT).plan;
    expect(ten.filter((s) => s.type === 'dutch')).toHaveLength(11);
    const step = (micros(ten[2].start) - micros(ten[1].start)) / 1e6;
    expect(step).toBeCloseTo((405 * 60) / 11, 5);
    expect(ten.find((s) => s.type === 'pre-sealedbid')?.start).toBe('2026-11-24T16:45:30+02:00');
  });

  it('divides every duration by the accelerator in test mode: the whole auction in about 17.5 s at 1440', () => {
    const fast = planRoom(insiderAuction({ accelerator: 1440 }), PLANNED_AT).plan;
    const last = fast[fast.length - 1];
    expect((micros(last.start) - micros(fast[0].start)) / 1e6).toBeCloseTo(
      (30 + 405 * 60 + 20 + 600 + 20 + 300) / 1440,
      5,
    );
    expect((micros(fast[2].start) - micros(fast[1].start)) / 1e6).toBeCloseTo(300 / 1440, 5);
  });
});

describe('dgfInsider room: the Dutch part', () => {
  it('refuses bids in the first pause', () => {
    expect(refusal(room, B1, 1_000_000, '2026-11-24T10:00:10+02:00')).toBe(
      'Not allowed to post bid on current (pause) phase',
    );
  });

  it("accepts only the current step's amount", () => {
    const now = '2026-11-24T10:52:00+02:00';
    expect(currentStage(room, now).name).toBe('dutch_10');
    expect(refusal(room, B2, 910_000, now)).toBe(INSIDER_MESSAGES.stepEnded);
    expect(refusal(room, B2, 123, now)).toBe("Passed value doesn't match current amount=900000.00");
    expect(refusal(room, B2, 0, now)).toBe('Bid amount is required');
    expect(refusal(room, 'stranger', 900_000, now)).toBe('Bad bidder!');
  });

  it('ends the Dutch part with the first bid: nobody bids again until the sealed bids', () => {
    expect(afterDutch.version).toBe(at(room, '2026-11-24T10:52:00+02:00').version + 1);
    expect(afterDutch.bids).toEqual([
      { bidderId: B1, amount: 900_000, date: '2026-11-24T10:52:00+02:00', stage: 'dutch_10' },
    ]);
    expect(currentStage(afterDutch, '2026-11-24T10:52:01+02:00').type).toBe('pre-sealedbid');
    expect(refusal(afterDutch, B2, 900_000, '2026-11-24T10:52:01+02:00')).toBe(
      'Not allowed to post bid on current (pre-sealedbid) phase',
    );
    expect(nextTransitionAt(at(afterDutch, '2026-11-24T10:52:01+02:00'))).toBe('2026-11-24T16:45:30+02:00');
  });

  it('refuses a Dutch bid after its step planned end even when no timer moved the room', () => {
    // The state was never advanced; the clock alone says dutch_11 asks 890,000.00.
    expect(refusal(room, B1, 900_000, '2026-11-24T10:55:30+02:00')).toBe(INSIDER_MESSAGES.stepEnded);
    expect(placeBid(room, { bidderId: B1, amount: 890_000 }, '2026-11-24T10:55:30+02:00').kind).toBe('state');
  });

  it('ends the auction when nobody bid in the Dutch part, and posts no value', () => {
    const ended = at(room, '2026-11-24T16:45:30+02:00');
    expect(ended.ended).toEqual({ at: '2026-11-24T16:45:30+02:00', reason: 'no-dutch-bid' });
    expect(isEnded(ended)).toBe(true);
    expect(nextTransitionAt(ended)).toBeUndefined();
    expect(currentStage(room, '2026-11-24T16:45:31+02:00').type).toBe('announcement');
    expect(results(ended)).toEqual({ bids: [{ id: B1 }, { id: B2 }, { id: B3 }] });
    // The announcement comes forward; the stages it skipped are gone from the schedule.
    const stages = stagesOf(ended);
    expect(stages.at(-1)).toEqual({ index: 82, type: 'announcement', name: 'announcement', start: ended.ended?.at });
    expect(stages.at(-2)).toMatchObject({ name: 'dutch_80', end: ended.ended?.at });
    expect(publicDocument(ended, '2026-11-24T16:46:00+02:00').currentStage).toBe(82);
  });
});

describe('dgfInsider room: the sealed bids', () => {
  it('hides sealed bids, refuses the Dutch winner and amounts not above the Dutch amount', () => {
    expect(refusal(afterDutch, B1, 950_000, SEALED_AT)).toBe('Not allowed to post bid for dutch winner');
    expect(refusal(afterDutch, B2, -5, SEALED_AT)).toBe('To low value');
    expect(refusal(afterDutch, B2, 900_000, SEALED_AT)).toBe("Bid value can't be less or equal current amount");
    const sealed = sealedBid(afterDutch, B2, 950_000.01, SEALED_AT);
    expect(sealed).toEqual({ bidderId: B2, amount: 950_000.01, date: SEALED_AT });
    const doc = JSON.stringify(publicDocument(at(afterDutch, SEALED_AT), SEALED_AT));
    expect(doc).not.toContain('950000.01');
    expect(bidderDocument(at(afterDutch, SEALED_AT), B2, sealed, SEALED_AT).me).toMatchObject({
      ownBid: { amount: 950_000.01 },
      mayBid: true,
    });
    expect(JSON.stringify(bidderDocument(at(afterDutch, SEALED_AT), B3, undefined, SEALED_AT))).not.toContain(
      '950000.01',
    );
  });

  it('reads the sealed bids when the stage closes: the latest of each bidder counts, -1 withdraws', () => {
    expect(needsSealedBids(at(afterDutch, SEALED_AT), AFTER_SEALED)).toBe(true);
    expect(needsSealedBids(afterDutch, SEALED_AT)).toBe(false);
    const b2 = sealedBid(afterDutch, B2, 960_000, '2026-11-24T16:47:00+02:00');
    const b3 = { ...sealedBid(afterDutch, B3, 970_000, '2026-11-24T16:48:00+02:00'), amount: -1 };
    const late = { bidderId: B3, amount: 999_999, date: '2026-11-24T16:55:50+02:00' }; // after the stage: ignored
    const state = at(at(afterDutch, SEALED_AT), AFTER_SEALED, [b2, b3, late]);
    expect(state.sealed).toEqual([{ ...b2, stage: 'sealedbid' }]);
    expect(state.ended).toBeUndefined();
    expect(publicDocument(state, AFTER_SEALED).results).toMatchObject([
      { bidderNumber: 2, amount: 960_000, sealedbidWinner: true },
      { bidderNumber: 1, amount: 900_000, dutchWinner: true },
    ]);
    // Idempotent: applying again changes nothing.
    expect(at(state, AFTER_SEALED, [b2, b3, late])).toBe(state);
  });

  it('ends the auction when fewer than 2 results remain after the sealed bids', () => {
    const state = at(afterDutch, AFTER_SEALED, []);
    expect(state.ended).toEqual({ at: '2026-11-24T16:55:50+02:00', reason: 'too-few-sealed-results' });
    expect(results(state)).toEqual({
      bids: [
        {
          id: B1,
          value: { amount: 900_000, currency: 'UAH', valueAddedTaxIncluded: true },
          date: '2026-11-24T10:52:00+02:00',
        },
        { id: B2 },
        { id: B3 },
      ],
    });
  });

  it('breaks a tie of sealed bids by the earlier one', () => {
    const early = sealedBid(afterDutch, B3, 960_000, '2026-11-24T16:46:00+02:00');
    const later = sealedBid(afterDutch, B2, 960_000, '2026-11-24T16:47:00+02:00');
    const state = at(afterDutch, AFTER_SEALED, [later, early]);
    expect(publicDocument(state, AFTER_SEALED).results.find((r) => r.sealedbidWinner)?.bidderNumber).toBe(3);
  });
});

describe('dgfInsider room: the best bid and the announcement', () => {
  const sealed = [
    { bidderId: B2, amount: 960_000, date: '2026-11-24T16:47:00+02:00' },
    { bidderId: B3, amount: 955_000, date: '2026-11-24T16:48:00+02:00' },
  ];
  const inBest = at(afterDutch, BEST_AT, sealed);

  it('lets only the Dutch winner bid, at least 1 % of the initial value above the sealed maximum', () => {
    expect(currentStage(inBest, BEST_AT).type).toBe('bestbid');
    expect(refusal(inBest, B2, 990_000, BEST_AT)).toBe("bidder_id don't match with dutchWinner.bidder_id");
    expect(refusal(inBest, B1, 900_000, BEST_AT)).toBe("Bid value can't be less or equal current amount");
    expect(refusal(inBest, B1, 969_999.99, BEST_AT)).toBe(
      'Your bid should be greater than the one made by the sealed bid winner at least for one step (1% of the primary lot value).',
    );
    expect(bidderDocument(inBest, B1, undefined, BEST_AT).me.mayBid).toBe(true);
    expect(bidderDocument(inBest, B2, undefined, BEST_AT).me.mayBid).toBe(false);
  });

  it('tells the Dutch winner, before the best bid starts, that they will bid in it (a page may pass into it first)', () => {
    const beforeBest = at(afterDutch, AFTER_SEALED, sealed);
    expect(currentStage(beforeBest, AFTER_SEALED).type).toBe('pre-bestbid');
    expect(bidderDocument(beforeBest, B1, undefined, AFTER_SEALED).me).toMatchObject({
      mayBid: false,
      mayBidNext: true,
    });
    expect(bidderDocument(beforeBest, B2, undefined, AFTER_SEALED).me).toMatchObject({
      mayBid: false,
      mayBidNext: false,
    });
    expect(bidderDocument(inBest, B1, undefined, BEST_AT).me.mayBidNext).toBe(false);
  });

  it('keeps the latest best bid, hidden until its stage ends; -1 returns to the Dutch amount', () => {
    const best = accepted(inBest, B1, 970_000, BEST_AT);
    expect(JSON.stringify(publicDocument(best, BEST_AT).results)).not.toContain('970000');
    const back = accepted(best, B1, -1, plus(BEST_AT, 10));
    expect(back.bids.map((b) => [b.stage, b.amount])).toEqual([
      ['dutch_10', 900_000],
      ['bestbid', 900_000],
    ]);
    const again = accepted(back, B1, 980_000, plus(BEST_AT, 20));
    const done = at(again, END);
    expect(done.ended).toEqual({ at: END, reason: 'finished' });
    expect(results(done).bids).toEqual([
      { id: B1, value: { amount: 980_000, currency: 'UAH', valueAddedTaxIncluded: true }, date: plus(BEST_AT, 20) },
      { id: B2, value: { amount: 960_000, currency: 'UAH', valueAddedTaxIncluded: true }, date: sealed[0].date },
      { id: B3, value: { amount: 955_000, currency: 'UAH', valueAddedTaxIncluded: true }, date: sealed[1].date },
    ]);
    expect(publicDocument(done, END).results[0]).toMatchObject({ amount: 980_000, dutchWinner: true });
  });

  it('refuses a best bid after the stage planned end, before any timer ended the auction', () => {
    expect(refusal(inBest, B1, 990_000, plus(END, 1))).toBe('Not allowed to post bid on current (announcement) phase');
  });

  it('labels bidders "Bidder #N" until the names are revealed after the results', () => {
    const done = at(inBest, END);
    expect(publicDocument(done, END).bidders.map((b) => b.label)).toEqual(['Bidder #1', 'Bidder #2', 'Bidder #3']);
    expect(revealNames(inBest, END)).toBe(inBest); // not before the end
    const revealed = revealNames(done, plus(END, 5));
    expect(revealNames(revealed, plus(END, 9))).toBe(revealed);
    const doc = publicDocument(revealed, plus(END, 5));
    expect(doc.namesRevealed).toBe(true);
    expect(doc.bidders[0]).toEqual({ bidderNumber: 1, label: room.bidders[0].name, bidderId: B1 });
    expect(doc.results[0]).toMatchObject({ bidderNumber: 2, bidderId: B2 });
  });
});

describe('dgfInsider room: an accelerated auction end to end', () => {
  it('runs every stage in about 17.5 s at accelerator 1440 and writes them all into the audit document', () => {
    let state = planRoom(insiderAuction({ accelerator: 1440 }), PLANNED_AT);
    const stage = (name: string) => state.plan.find((s) => s.name === name)!;
    // A quarter into the stage (a pause lasts 20 s / 1440 ≈ 14 ms).
    const inside = (name: string) =>
      plus(stage(name).start, (micros(stage(name).end!) - micros(stage(name).start)) / 4e6);
    const journal: BidEntry[] = [];
    const bid = (bidderId: string, amount: number, now: string) => {
      const outcome = placeBid(advance(state, now, [...sealed.values()]), { bidderId, amount }, now);
      journal.push(outcome.entry);
      if (outcome.kind === 'state') state = outcome.state;
      if (outcome.kind === 'sealed') sealed.set(bidderId, outcome.sealed);
      return outcome.kind;
    };
    const sealed = new Map<string, SealedBid>();
    expect(bid(B2, 970_000, inside('dutch_3'))).toBe('state');
    expect(bid(B1, 980_000, inside('sealedbid'))).toBe('sealed');
    expect(bid(B3, 975_000, inside('sealedbid'))).toBe('sealed');
    expect(bid(B3, 985_000, plus(inside('sealedbid'), 0.1))).toBe('sealed'); // revised
    expect(bid(B1, 999_000, inside('pre-bestbid'))).toBe('refused');
    expect(bid(B2, 990_000, inside('bestbid'))).toBe('refused'); // below 985,000 + 10,000
    expect(bid(B2, 995_000, inside('bestbid'))).toBe('state');
    const end = state.plan.at(-1)!.start;
    state = advance(state, end, [...sealed.values()]);
    expect((micros(end) - micros(state.startDate)) / 1e6).toBeLessThan(18);
    expect(results(state).bids.map((b) => [b.id, b.value?.amount])).toEqual([
      [B1, 980_000],
      [B2, 995_000],
      [B3, 985_000],
    ]);
    const audit = auditDocument(state, journal) as {
      timeline: {
        stages: unknown[];
        bids: BidEntry[];
        sealedbid: unknown[];
        results: { bids: { bidderId: string }[] };
      };
    };
    expect(audit.timeline.stages).toHaveLength(87);
    expect(audit.timeline.bids.map((b) => [b.stage, b.outcome])).toEqual([
      ['dutch_3', 'accepted'],
      ['sealedbid', 'sealed'],
      ['sealedbid', 'sealed'],
      ['sealedbid', 'sealed'],
      ['pre-bestbid', 'refused'],
      ['bestbid', 'refused'],
      ['bestbid', 'accepted'],
    ]);
    expect(audit.timeline.sealedbid).toHaveLength(2);
    expect(audit.timeline.bids[1]).toMatchObject({ outcome: 'sealed', amount: 980_000 });
    const early = auditDocument(planRoom(insiderAuction(), PLANNED_AT), journal) as typeof audit;
    expect(early.timeline.bids[1]).not.toHaveProperty('amount'); // the sealed stage never closed in that room
    expect(audit.timeline.results.bids.map((b) => b.bidderId)).toEqual([B2, B3, B1]);
  });
});
