import { describe, expect, it } from 'vitest';
import {
  advance,
  auditDocument,
  currentStage,
  nextTransitionAt,
  placeBid,
  planRoom,
  publicDocument,
  type RoomState,
  results,
  revealNames,
  stagesOf,
} from '../../../functions/domain/room/engine.ts';
import { bidders, landleaseAuction, micros, PLANNED_AT, plus } from './builders.ts';

const room = planRoom(landleaseAuction(), PLANNED_AT);
const [B1, B2, B3] = room.bidders.map((b) => b.bidId);

function accepted(state: RoomState, bidderId: string, amount: number, now: string): RoomState {
  const outcome = placeBid(advance(state, now, []), { bidderId, amount }, now);
  if (outcome.kind !== 'state') throw new Error(`expected an accepted bid, got ${JSON.stringify(outcome)}`);
  return outcome.state;
}

const refusal = (state: RoomState, bidderId: string, amount: number, now: string) => {
  const outcome = placeBid(advance(state, now, []), { bidderId, amount }, now);
  return outcome.kind === 'refused' ? outcome.refusal.message : `not refused: ${outcome.kind}`;
};

const shape = (state: RoomState) => stagesOf(state).map((s) => [s.name, s.start, s.amount]);

describe('landlease room: English rounds', () => {
  it('plans a 10 s pause, then a round at value + minimalStep planned for 180 s', () => {
    expect(shape(room)).toEqual([
      ['pause', '2026-11-24T10:00:00+02:00', undefined],
      ['round_1', '2026-11-24T10:00:10+02:00', 1100],
      ['pre-announcement', '2026-11-24T10:03:10+02:00', undefined],
    ]);
    expect(room.deadline).toBe('2026-11-24T17:00:00+02:00');
    expect(nextTransitionAt(room)).toBe('2026-11-24T10:00:10+02:00');
  });

  it('starts a room planned after its start when it is planned, so no round passes unseen', () => {
    const late = planRoom(landleaseAuction(), '2026-11-24T10:07:00+02:00');
    expect(late.startDate).toBe('2026-11-24T10:07:00+02:00');
    expect(shape(late)[1]).toEqual(['round_1', '2026-11-24T10:07:10+02:00', 1100]);
  });

  it('closes the round at a bid and opens a pause and a new round at bid + minimalStep', () => {
    const state = accepted(room, B1, 1100, '2026-11-24T10:01:00+02:00');
    expect(shape(state)).toEqual([
      ['pause', '2026-11-24T10:00:00+02:00', undefined],
      ['round_1', '2026-11-24T10:00:10+02:00', 1100],
      ['pause', '2026-11-24T10:01:00+02:00', undefined],
      ['round_2', '2026-11-24T10:01:10+02:00', 1200],
      ['pre-announcement', '2026-11-24T10:04:10+02:00', undefined],
    ]);
    expect(stagesOf(state)[1].end).toBe('2026-11-24T10:01:00+02:00');
    expect(currentStage(state, '2026-11-24T10:01:05+02:00').type).toBe('pause');
    expect(nextTransitionAt(state)).toBe('2026-11-24T10:01:10+02:00');
  });

  it("refuses with the original's messages", () => {
    const state = accepted(room, B1, 1100, '2026-11-24T10:01:00+02:00');
    expect(refusal(state, B2, 1200, '2026-11-24T10:01:05+02:00')).toBe('Current stage does not allow bidding');
    expect(refusal(state, B2, 1150, '2026-11-24T10:02:00+02:00')).toBe('Too low value');
    expect(refusal(state, B2, 1250, '2026-11-24T10:02:00+02:00')).toBe(
      'Value should be a multiplier of a minimalStep amount (100)',
    );
    expect(refusal(state, B2, 0, '2026-11-24T10:02:00+02:00')).toBe('Bid amount is required');
    expect(refusal(state, 'stranger', 1200, '2026-11-24T10:02:00+02:00')).toBe('Bad bidder!');
    expect(refusal(room, B1, 1100, '2026-11-24T09:59:00+02:00')).toBe('Current stage does not allow bidding');
  });

  it('accepts any multiple of the minimal step above the round amount, and the round amount itself', () => {
    const state = accepted(room, B2, 1400, '2026-11-24T10:02:00+02:00');
    expect(stagesOf(state)[3]).toMatchObject({ name: 'round_2', amount: 1500 });
    const odd = planRoom(
      landleaseAuction({ value: { amount: 1050, currency: 'UAH', valueAddedTaxIncluded: false } }),
      PLANNED_AT,
    );
    expect(refusal(odd, B1, 1250, '2026-11-24T10:01:00+02:00')).toBe(
      'Value should be a multiplier of a minimalStep amount (100)',
    );
    expect(accepted(odd, B1, 1150, '2026-11-24T10:01:00+02:00').bids[0].amount).toBe(1150);
    expect(accepted(odd, B1, 1200, '2026-11-24T10:01:00+02:00').bids[0].amount).toBe(1200);
  });

  it('lets the leader bid again, as the original did', () => {
    const first = accepted(room, B1, 1100, '2026-11-24T10:01:00+02:00');
    expect(accepted(first, B1, 1200, '2026-11-24T10:02:00+02:00').bids).toHaveLength(2);
  });

  it('refuses a bid after the round planned end even when no timer ended the auction', () => {
    expect(refusal(room, B1, 1100, '2026-11-24T10:03:10+02:00')).toBe('Current stage does not allow bidding');
    expect(currentStage(room, '2026-11-24T10:03:10+02:00').type).toBe('pre-announcement');
  });

  it('ends after a round without a bid; a bidder who never bid gets the starting value', () => {
    const two = accepted(accepted(room, B1, 1100, '2026-11-24T10:01:00+02:00'), B2, 1400, '2026-11-24T10:02:00+02:00');
    expect(advance(two, '2026-11-24T10:05:09+02:00', []).ended).toBeUndefined();
    const done = advance(two, '2026-11-24T10:05:10+02:00', []);
    expect(done.ended).toEqual({ at: '2026-11-24T10:05:10+02:00', reason: 'no-bid-in-round' });
    expect(nextTransitionAt(done)).toBeUndefined();
    expect(advance(done, '2026-11-24T10:09:00+02:00', [])).toBe(done);
    const value = { currency: 'UAH', valueAddedTaxIncluded: false };
    expect(results(done)).toEqual({
      bids: [
        { id: B1, value: { ...value, amount: 1100 }, date: '2026-11-24T10:01:00+02:00' },
        { id: B2, value: { ...value, amount: 1400 }, date: '2026-11-24T10:02:00+02:00' },
        { id: B3, value: { ...value, amount: 1000 } },
      ],
    });
    // pre-announcement until the results are posted, then the announcement with the names.
    expect(currentStage(done, '2026-11-24T10:06:00+02:00').type).toBe('pre-announcement');
    const revealed = revealNames(done, '2026-11-24T10:06:00+02:00');
    expect(stagesOf(revealed).at(-1)).toMatchObject({ type: 'announcement', start: '2026-11-24T10:06:00+02:00' });
    expect(currentStage(revealed, '2026-11-24T10:06:00+02:00').type).toBe('announcement');
    expect(publicDocument(revealed, '2026-11-24T10:06:00+02:00').bidders[1]).toMatchObject({
      label: room.bidders[1].name,
      bidderId: B2,
    });
    expect(publicDocument(done, '2026-11-24T10:05:10+02:00').results.map((r) => [r.bidderNumber, r.amount])).toEqual([
      [2, 1400],
      [1, 1100],
    ]);
  });

  it('never runs a round past 17:00 Kyiv on the auction day', () => {
    const late = planRoom(landleaseAuction({ startDate: '2026-11-24T16:58:00+02:00' }), PLANNED_AT);
    expect(shape(late).at(-1)).toEqual(['pre-announcement', '2026-11-24T17:00:00+02:00', undefined]);
    expect(advance(late, '2026-11-24T17:00:00+02:00', []).ended?.reason).toBe('deadline');
    const bid = accepted(late, B1, 1100, '2026-11-24T16:59:55+02:00');
    expect(shape(bid).slice(-2)).toEqual([
      ['pause', '2026-11-24T16:59:55+02:00', undefined],
      ['pre-announcement', '2026-11-24T17:00:00+02:00', undefined],
    ]);
    const summer = planRoom(landleaseAuction({ startDate: '2026-06-15T16:58:00+03:00' }), PLANNED_AT);
    expect(summer.deadline).toBe('2026-06-15T17:00:00+03:00');
    const tooLate = planRoom(landleaseAuction({ startDate: '2026-11-24T17:30:00+02:00' }), PLANNED_AT);
    expect(shape(tooLate).map((s) => s[0])).toEqual(['pause', 'pre-announcement']);
  });

  it('divides the durations by the accelerator; the sandbox deadline is 30 minutes after the start, divided too', () => {
    const fast = planRoom(landleaseAuction({ accelerator: 60, startDate: '2026-11-24T19:00:00+02:00' }), PLANNED_AT);
    const [pause, round, end] = stagesOf(fast).map((s) => micros(s.start));
    expect((round - pause) / 1e6).toBeCloseTo(10 / 60, 5);
    expect((end - round) / 1e6).toBeCloseTo(3, 5);
    expect(fast.deadline).toBe(plus('2026-11-24T19:00:00+02:00', 30));
  });

  it('keeps the public document to the latest 120 stages however many rounds ran', () => {
    let state = room;
    for (let i = 0; i < 100; i += 1)
      state = accepted(state, [B1, B2][i % 2], 1100 + 100 * i, plus('2026-11-24T10:00:10+02:00', 20 * i));
    const doc = publicDocument(state, plus('2026-11-24T10:00:10+02:00', 2000));
    expect(doc.stages).toHaveLength(120);
    expect(doc.stagesFrom).toBe(2 * 101 + 1 - 120);
    expect(doc.stages[0].index).toBe(doc.stagesFrom);
    expect(doc.currentStage).toBe(2 * 100 + 1); // round_101
  });

  it("names the bidders by their bids' own bidNumber, as the original did", () => {
    const numbered = bidders(3).map((b, i) => ({ ...b, bidNumber: [7, 3, 5][i] }));
    const state = planRoom(landleaseAuction({ bidders: numbered }), PLANNED_AT);
    const doc = publicDocument(
      accepted(state, numbered[0].bidId, 1100, '2026-11-24T10:01:00+02:00'),
      '2026-11-24T10:01:00+02:00',
    );
    expect(doc.bidders.map((b) => b.label)).toEqual(['Bidder #3', 'Bidder #5', 'Bidder #7']);
    expect(doc.results).toMatchObject([{ bidderNumber: 7, amount: 1100 }]);
    const clash = bidders(2).map((b) => ({ ...b, bidNumber: 1 }));
    expect(planRoom(landleaseAuction({ bidders: clash }), PLANNED_AT).bidders.map((b) => b.number)).toEqual([1, 2]);
  });

  it('writes every stage and every accepted and refused bid into the audit document', () => {
    const refusedBid = placeBid(room, { bidderId: B2, amount: 1050 }, '2026-11-24T10:00:20+02:00');
    const bid = placeBid(room, { bidderId: B1, amount: 1100 }, '2026-11-24T10:01:00+02:00');
    if (bid.kind !== 'state') throw new Error('expected a bid');
    const done = advance(bid.state, '2026-11-24T10:05:00+02:00', []);
    const audit = auditDocument(done, [bid.entry, refusedBid.entry]) as {
      timeline: { stages: unknown[]; bids: { outcome: string; message?: string; bid_number: number }[] };
    };
    expect(audit.timeline.stages).toHaveLength(5);
    expect(audit.timeline.bids).toMatchObject([
      { outcome: 'refused', message: 'Too low value', bid_number: 2 },
      { outcome: 'accepted', bid_number: 1 },
    ]);
  });
});
