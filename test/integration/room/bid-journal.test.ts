import { describe, expect, it } from 'vitest';
import { JOURNALED_REFUSALS } from '../../../functions/room/room.ts';
import { AUCTIONS } from '../../support/auctions.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { atStage, landleaseInRoom, useRoom } from './room-helpers.ts';

/**
 * What the room's journal (and so the audit document) keeps: a bid named by its client judged once, whichever of its
 * copies sent at the same time arrives first; and of a bidder's refused bids the first JOURNALED_REFUSALS, the rest
 * counted. Read from the audit document the room files on the auction at its end.
 */
const { service, api, clock, connect } = useRoom();

describe("the room's bid journal", { timeout: 120_000 }, () => {
  it('judges concurrent copies of a named bid once, and bounds refusals with a count', async () => {
    const a = await landleaseInRoom(api, clock, service, 20);
    const bidder1 = RoomClient.url(service.url, a.id, a.links[0]);
    const bidder2 = RoomClient.url(service.url, a.id, a.links[1]);
    const [first, second, other] = await Promise.all([connect(bidder1), connect(bidder1), connect(bidder2)]);
    const round = await atStage(first, 'round_1');

    // The same named bid, three copies at once over two connections of the bidder: one judgement, one answer.
    const bid = { action: 'bid', amount: round.amount, bidId: 'dup-bid-0001' } as const;
    const answers = await Promise.all([first.ask(bid, 'bid'), second.ask(bid, 'bid'), first.ask(bid, 'bid')]);
    for (const answer of answers)
      expect(answer).toEqual({ type: 'bid', outcome: 'accepted', amount: round.amount, bidId: 'dup-bid-0001' });

    // The other bidder sends junk past the journal's bound, from three connections (each within its own allowance).
    const extra = await Promise.all([connect(bidder2), connect(bidder2)]);
    const junk = JOURNALED_REFUSALS + 7;
    await Promise.all(
      [other, ...extra].map(async (c, i) => {
        for (let n = i; n < junk; n += 3)
          expect(await c.ask({ action: 'bid', amount: 1 + n }, 'bid')).toMatchObject({ outcome: 'refused' });
      }),
    );

    // Round 2 passes without a bid: the room ends, posts its results and files the audit.
    await first.roomWhere((r) => r.results === 'posted', 90_000);
    const audit = await auditOf(a.id);
    const bids = audit.timeline.bids;
    const ofBidder1 = bids.filter((b: any) => b.bidderId === a.b1.id);
    expect(ofBidder1).toEqual([expect.objectContaining({ outcome: 'accepted', amount: round.amount })]);
    const refused = bids.filter((b: any) => b.bidderId === a.b2.id && b.outcome === 'refused');
    expect(refused).toHaveLength(JOURNALED_REFUSALS);
    expect(audit.timeline.refusals_not_journaled).toEqual([{ bidder: a.b2.id, bid_number: 2, count: 7 }]);
  });
});

/** The audit document the room attached to the auction, once it is there. */
async function auditOf(auctionId: string) {
  let audit: any;
  await expect
    .poll(
      async () => {
        const documents = (await api.get(`${AUCTIONS}/${auctionId}/documents`)).body.data;
        audit = documents.find((d: any) => d.title === `audit_${auctionId}.json`);
        return audit;
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBeTruthy();
  const file = await fetch(new URL(audit.url, service.url), {
    headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
  });
  return file.json();
}
