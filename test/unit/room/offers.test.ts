import { describe, expect, it } from 'vitest';
import {
  advance,
  type BidOutcome,
  placeBid,
  planRoom,
  publicDocument,
  type RoomState,
  type SealedBid,
} from '../../../functions/domain/room/engine.ts';
import { insiderAuction, landleaseAuction, PLANNED_AT } from './builders.ts';

/**
 * The offer the public document carries (what a bid may be now, or next in a pause) is what the judge accepts: its
 * `from` is taken and a cent less is not, only multiples of `multipleOf` above it, and nothing above `upTo`, which
 * bounds every stage at 100 times the starting value.
 */
const bid = (state: RoomState, bidderId: string, amount: number, now: string): BidOutcome =>
  placeBid(advance(state, now, []), { bidderId, amount }, now);
const taken = (o: BidOutcome) => o.kind !== 'refused';
const code = (o: BidOutcome) => (o.kind === 'refused' ? o.refusal.code : o.kind);

describe('room offers', () => {
  it('landlease: the round amount or a multiple of the step above it, said ahead in the pause', () => {
    // 100 500 with a step of 2 000: the round asks 102 500; 104 000 is the next amount the judge takes, 104 500 is not.
    const room = planRoom(
      landleaseAuction({
        value: { amount: 100_500, currency: 'UAH', valueAddedTaxIncluded: true },
        minimalStep: { amount: 2000 },
      }),
      PLANNED_AT,
    );
    const [b1] = room.bidders.map((b) => b.bidId);
    const pause = '2026-11-24T10:00:05+02:00';
    expect(publicDocument(room, pause).offer).toEqual({
      stage: 'round_1',
      from: 102_500,
      upTo: 10_050_000,
      multipleOf: 2000,
    });
    expect(publicDocument(room, pause).step).toBe(2000);
    const round = '2026-11-24T10:00:20+02:00';
    expect(publicDocument(advance(room, round, []), round).offer?.stage).toBe('round_1');
    expect(taken(bid(room, b1, 102_500, round))).toBe(true);
    expect(code(bid(room, b1, 102_499.99, round))).toBe('too-low');
    expect(taken(bid(room, b1, 104_000, round))).toBe(true);
    expect(code(bid(room, b1, 104_500, round))).toBe('not-multiple');
    expect(taken(bid(room, b1, 10_050_000, round))).toBe(true);
    expect(code(bid(room, b1, 10_052_000, round))).toBe('too-high');
    expect(code(bid(room, b1, 1e15, round))).toBe('too-high');
  });

  it('dgfInsider: the Dutch step exactly, above the Dutch amount sealed, 1 % of the value above the best sealed bid', () => {
    const room = planRoom(insiderAuction(), PLANNED_AT);
    const [b1, b2, b3] = room.bidders.map((b) => b.bidId);
    expect(publicDocument(room, '2026-11-24T10:00:10+02:00').offer).toEqual({
      stage: 'dutch_0',
      from: 1_000_000,
      upTo: 1_000_000,
    });
    expect(publicDocument(room, '2026-11-24T10:00:10+02:00').step).toBe(10_000);
    const dutchAt = '2026-11-24T10:52:00+02:00';
    const dutch = publicDocument(advance(room, dutchAt, []), dutchAt).offer;
    expect(dutch).toEqual({ stage: 'dutch_10', from: 900_000, upTo: 900_000 });
    const won = bid(room, b1, 900_000, dutchAt);
    if (won.kind !== 'state') throw new Error(code(won));
    // The Dutch part is over at once: the offer is the sealed stage's, ahead.
    expect(publicDocument(won.state, dutchAt).offer).toEqual({
      stage: 'sealedbid',
      from: 900_000.01,
      upTo: 100_000_000,
    });
    const sealedAt = '2026-11-24T16:50:00+02:00';
    expect(code(bid(won.state, b2, 900_000, sealedAt))).toBe('amount');
    expect(code(bid(won.state, b2, 900_000.01, sealedAt))).toBe('sealed');
    expect(code(bid(won.state, b2, 100_000_000.01, sealedAt))).toBe('too-high');
    const sealed: SealedBid[] = [{ bidderId: b3, amount: 950_000, date: sealedAt }];
    const bestAt = '2026-11-24T16:58:00+02:00';
    const inBest = advance(won.state, bestAt, sealed);
    expect(publicDocument(inBest, bestAt).offer).toEqual({ stage: 'bestbid', from: 960_000, upTo: 100_000_000 });
    expect(code(bid(inBest, b1, 959_999.99, bestAt))).toBe('below-best-step');
    expect(taken(bid(inBest, b1, 960_000, bestAt))).toBe(true);
    expect(
      publicDocument(advance(inBest, '2026-11-24T17:02:00+02:00', sealed), '2026-11-24T17:02:00+02:00').offer,
    ).toBeUndefined();
  });
});
