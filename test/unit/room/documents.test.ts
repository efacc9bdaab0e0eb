import { describe, expect, it } from 'vitest';
import {
  advance,
  bidderDocument,
  documentTexts,
  placeBid,
  planRoom,
  publicDocument,
  type RoomState,
  revealNames,
  type SealedBid,
} from '../../../functions/domain/room/engine.ts';
import { bidders, insiderAuction, landleaseAuction, PLANNED_AT, plus } from './builders.ts';

/** API Gateway WebSocket: a message is at most 128 KB. */
const MESSAGE_LIMIT = 128 * 1024;
const bytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;

/** The largest insider room: 80 steps, 100 bidders with the longest names in 4-byte characters, every stage run. */
function largestInsiderRoom(): { state: RoomState; end: string } {
  const names = bidders(100).map((b, i) => ({ ...b, name: `${'😀'.repeat(300)}${i}` }));
  const auction = insiderAuction({
    bidders: names,
    title: 'Право вимоги '.repeat(400),
    procuringEntityName: '"Банк" \\ \u0001'.repeat(300),
    value: { amount: 123_456_789.99, currency: 'UAH', valueAddedTaxIncluded: true },
  });
  const room = planRoom(auction, PLANNED_AT);
  const ids = room.bidders.map((b) => b.bidId);
  const dutchAt = '2026-11-24T16:42:00.123456+02:00'; // the last step
  const dutch = placeBid(advance(room, dutchAt, []), { bidderId: ids[0], amount: room.plan[81].amount! }, dutchAt);
  if (dutch.kind !== 'state') throw new Error('the Dutch bid was refused');
  const sealed: SealedBid[] = ids.slice(1).map((bidderId, i) => ({
    bidderId,
    amount: 123_456_789.99 + i + 0.01,
    date: plus('2026-11-24T16:46:00.654321+02:00', i),
  }));
  const bestAt = '2026-11-24T16:58:00.999999+02:00';
  const inBest = advance(dutch.state, bestAt, sealed);
  const best = placeBid(inBest, { bidderId: ids[0], amount: 200_000_000 }, bestAt);
  if (best.kind !== 'state') throw new Error(`the best bid was refused: ${JSON.stringify(best)}`);
  const end = '2026-11-24T17:01:10+02:00';
  return { state: revealNames(advance(best.state, end, sealed), end), end };
}

describe('room documents', () => {
  it('fits the public document of an 80-step insider auction with 100 bidders in one WebSocket message', () => {
    const { state, end } = largestInsiderRoom();
    const doc = publicDocument(state, end);
    expect(doc.stages).toHaveLength(87);
    expect(doc.results).toHaveLength(100);
    expect(doc.namesRevealed).toBe(true);
    const size = bytes(doc);
    const bidderSize = bytes(bidderDocument(state, state.bidders[0].bidId, undefined, end));
    // Room for the message envelope the service wraps it in.
    expect(size).toBeLessThan(MESSAGE_LIMIT - 4 * 1024);
    expect(bidderSize).toBeLessThan(MESSAGE_LIMIT - 4 * 1024);
    console.info(`largest insider public document: ${size} bytes, bidder document: ${bidderSize} bytes`);
  });

  it('caps display texts by code points and drops control characters', () => {
    const { state } = largestInsiderRoom();
    expect(Array.from(state.bidders[0].name)).toHaveLength(200);
    expect(state.bidders[0].name.endsWith('…')).toBe(true);
    expect(state.procuringEntityName?.includes(String.fromCharCode(1))).toBe(false);
    expect(JSON.stringify(state.bidders).includes('\\ud83d')).toBe(false); // no surrogate cut in half
  });

  it("gives the fan-out each document's exact JSON: the public text built once, a bidder's with their own part added", () => {
    const { state, end } = largestInsiderRoom();
    const sealed = new Map(
      state.bidders.slice(1).map((b, i) => [b.bidId, { bidderId: b.bidId, amount: 1_000 + i, date: end }]),
    );
    const lease = planRoom(landleaseAuction({ bidders: bidders(4) }), PLANNED_AT);
    const at = '2026-11-24T10:00:20+02:00';
    const bid = placeBid(advance(lease, at, []), { bidderId: lease.bidders[1].bidId, amount: 1100 }, at);
    if (bid.kind !== 'state') throw new Error('the bid was refused');
    for (const [room, now] of [
      [state, end],
      [bid.state, plus(at, 11)],
    ] as const) {
      const texts = documentTexts(room, now);
      expect(texts.public).toBe(JSON.stringify(publicDocument(room, now)));
      for (const { bidId } of [...room.bidders, { bidId: 'not-a-bidder' }]) {
        const own = sealed.get(bidId);
        expect(texts.bidder(bidId, own)).toBe(JSON.stringify(bidderDocument(room, bidId, own, now)));
      }
    }
  });
});
