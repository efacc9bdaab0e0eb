import { describe, expect, it } from 'vitest';
import { RoomClient } from '../../../client/room-client.ts';
import { atStage, landleaseInRoom, useRoom } from '../room/room-helpers.ts';

/**
 * A bid named by its client (protocol `bidId`), sent again as a page does after a reconnect: the room answers the
 * repeat with the first answer and takes the bid once. Without a name the repeat is judged again (and refused).
 */
const { service, api, clock, open } = useRoom();

describe('named bids over the room WebSocket', { timeout: 120_000 }, () => {
  it('answers a repeated bidId with its first answer and takes the bid once', async () => {
    // Accelerated 20 times (a round lasts 9 s); the first bidder's link.
    const a = await landleaseInRoom(api, clock, service, 20);
    const [link] = a.links;
    const first = await RoomClient.open(RoomClient.url(service.url, a.id, link));
    open.push(first);
    await first.ask({ action: 'resume' }, 'room');
    const round = await atStage(first, 'round_1');
    const bid = { action: 'bid', amount: round.amount, bidId: 'page-bid-0001' } as const;
    const answer = await first.ask(bid, 'bid');
    expect(answer).toMatchObject({ outcome: 'accepted', amount: round.amount, bidId: 'page-bid-0001' });

    // The page lost that answer with its connection: it reconnects and sends the same bid again.
    first.close();
    const again = await RoomClient.open(RoomClient.url(service.url, a.id, link));
    open.push(again);
    await again.ask({ action: 'resume' }, 'room');
    expect(await again.ask(bid, 'bid')).toEqual(answer);
    const { document } = await again.ask({ action: 'resume' }, 'room');
    expect(document.results.filter((r: any) => r.amount === round.amount)).toHaveLength(1);
    expect(document.me?.ownBid?.amount).toBe(round.amount);

    // Unnamed, the same amount is a new bid, judged on the room as it is now.
    expect(await again.ask({ action: 'bid', amount: round.amount }, 'bid')).toMatchObject({ outcome: 'refused' });
    // A name that is not one is refused by the protocol, never acted on.
    expect(await again.ask({ action: 'bid', amount: round.amount, bidId: 'x' }, 'error')).toMatchObject({
      errors: [{ name: 'bidId' }],
    });
  });
});
