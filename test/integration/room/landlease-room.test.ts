import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUCTIONS } from '../../support/auctions.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { atStage, landleaseInRoom, stageOf, useRoom } from './room-helpers.ts';

const { service, api, clock, connect } = useRoom();

const inRoom = () => landleaseInRoom(api, clock, service);
const ROOT = resolve(import.meta.dirname, '../../..');

/** `npm run -s room -- show <link>`: the room as the command line prints it (its last line). */
const shownByCli = (link: string): Promise<any> =>
  new Promise((done, fail) =>
    execFile(
      'npx',
      ['tsx', 'bin/room.ts', 'show', link],
      { cwd: ROOT, env: { ...process.env, AGORA_URL: service.url }, timeout: 60_000 },
      (error, out, err) => (error ? fail(new Error(err)) : done(JSON.parse(out.trim().split('\n').at(-1)!))),
    ),
  );

/** Bids the current round's amount (plus `extra` steps) as soon as the round `name` opens. */
async function bidInRound(c: RoomClient, name: string, extra = 0) {
  const round = await atStage(c, name);
  return c.ask({ action: 'bid', amount: round.amount + extra * 1000 }, 'bid');
}

describe('landlease auction room over WebSocket', { timeout: 120_000 }, () => {
  it('runs two bidders and an observer through three English rounds to the award', async () => {
    const a = await inRoom();
    expect(a.links[0]).toMatch(
      new RegExp(`^${service.url}/texas-auctions/${a.id}/login\\?bidder_id=${a.b1.id}&hash=[0-9a-f]{40}$`),
    );
    const [bidder1, bidder2, observer] = await Promise.all([
      connect(RoomClient.url(service.url, a.id, a.links[0])),
      connect(RoomClient.url(service.url, a.id, a.links[1])),
      connect(RoomClient.url(service.url, a.id)),
    ]);
    expect(await bidder1.ask({ action: 'bid', amount: 101000 }, 'bid')).toMatchObject({
      outcome: 'refused',
      message: 'Current stage does not allow bidding',
    });

    // Round 1 at value + step; each accepted bid opens a new round at the bid + step.
    expect(await bidInRound(bidder1, 'round_1')).toMatchObject({ outcome: 'accepted', amount: 101000 });
    const round2 = await atStage(bidder2, 'round_2');
    expect(round2.amount).toBe(102000);
    expect(await bidder2.ask({ action: 'bid', amount: 101500 }, 'bid')).toMatchObject({
      outcome: 'refused',
      message: 'Too low value',
    });
    expect(await bidder2.ask({ action: 'bid', amount: 103500 }, 'bid')).toMatchObject({ outcome: 'refused' });
    expect(await bidder2.ask({ action: 'bid', amount: 104000 }, 'bid')).toMatchObject({ outcome: 'accepted' });
    expect(await bidInRound(bidder1, 'round_3')).toMatchObject({ outcome: 'accepted', amount: 105000 });
    expect(stageOf(await observer.roomWhere((r) => stageOf(r)?.name === 'round_4')).amount).toBe(106000);

    // Round 4 passes without a bid: the auction ends, the results are posted and the names revealed.
    const end = await observer.roomWhere((r) => r.results === 'posted' && r.document.namesRevealed);
    expect(end.document.results.map((r: any) => [r.bidderId, r.amount])).toEqual([
      [a.b1.id, 105000],
      [a.b2.id, 104000],
    ]);
    const auction = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
    expect(auction.status).toBe('active.qualification');
    const awards = (await api.get(`${AUCTIONS}/${a.id}/awards`)).body.data;
    expect(awards).toEqual([
      expect.objectContaining({
        bid_id: a.b1.id,
        status: 'pending',
        value: expect.objectContaining({ amount: 105000 }),
      }),
    ]);
  });

  it('ends with no winner after a round 1 with no raise, as the API does: both bids invalid, the auction unsuccessful', async () => {
    const a = await inRoom();
    const [bidder1, observer] = await Promise.all([
      connect(RoomClient.url(service.url, a.id, a.links[0])),
      connect(RoomClient.url(service.url, a.id)),
    ]);
    await atStage(observer, 'round_1');
    const end = await observer.roomWhere((r) => r.results === 'posted' && r.document.namesRevealed);
    // What the page renders from: the end's reason, and no result to name as the winner or the leader.
    expect(end.document.ended?.reason).toBe('no-bid-in-round');
    expect(end.document.results).toEqual([]);
    const mine = await bidder1.roomWhere((r) => r.results === 'posted');
    expect(mine.document.results).toEqual([]);
    // The API holds the same outcome (GEB ModuleAuctionBringsResultAction: a bid left at the starting value is
    // invalid; no active bid left, the auction is unsuccessful): no award to anyone.
    const auction = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
    // `npm run room` says the same of the room.
    expect(await shownByCli(auction.auctionUrl)).toMatchObject({ results: [], ended: 'no-bid-in-round', posted: true });
    expect(auction.status).toBe('unsuccessful');
    expect(auction.awards ?? []).toEqual([]);
    expect((await api.get(`${AUCTIONS}/${a.id}/awards`)).body.data).toEqual([]);
    expect(auction.bids.map((b: any) => [b.id, b.status]).sort()).toEqual(
      [
        [a.b1.id, 'invalid'],
        [a.b2.id, 'invalid'],
      ].sort(),
    );
  });

  it('awards the one bidder who raised: the other, left at the starting value, is invalid as the page shows it without a bid', async () => {
    const a = await inRoom();
    const [bidder1, observer] = await Promise.all([
      connect(RoomClient.url(service.url, a.id, a.links[0])),
      connect(RoomClient.url(service.url, a.id)),
    ]);
    expect(await bidInRound(bidder1, 'round_1')).toMatchObject({ outcome: 'accepted', amount: 101000 });
    const end = await observer.roomWhere((r) => r.results === 'posted' && r.document.namesRevealed);
    expect(end.document.results.map((r: any) => [r.bidderId, r.amount])).toEqual([[a.b1.id, 101000]]);
    const auction = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
    expect(auction.status).toBe('active.qualification');
    expect(auction.awards).toEqual([
      expect.objectContaining({
        bid_id: a.b1.id,
        status: 'pending',
        value: expect.objectContaining({ amount: 101000 }),
      }),
    ]);
    expect(auction.bids.find((b: any) => b.id === a.b2.id).status).toBe('invalid');
  });

  it('closes the room of a cancelled auction: every connection is told, bids are refused, nothing is posted', async () => {
    const a = await inRoom();
    const [bidder1, observer] = await Promise.all([
      connect(RoomClient.url(service.url, a.id, a.links[0])),
      connect(RoomClient.url(service.url, a.id)),
    ]);
    const url = `${AUCTIONS}/${a.id}`;
    const created = await api.post(`${url}/cancellations`, { reason: 'Рішення органу' }, { token: a.token });
    expect(created.status).toBe(201);
    const cancelled = await api.patch(
      `${url}/cancellations/${created.body.data.id}`,
      { status: 'active' },
      { token: a.token },
    );
    expect(cancelled.status).toBe(200);
    await service.bot('room');
    expect((await observer.roomWhere((r) => r.closed === true)).closed).toBe(true);
    await bidder1.roomWhere((r) => r.closed === true);
    expect(await bidder1.ask({ action: 'bid', amount: 101000 }, 'bid')).toMatchObject({
      outcome: 'refused',
      message: 'The auction was cancelled',
    });
    expect((await api.get(url)).body.data.status).toBe('cancelled');
  });
});
