import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { type Broadcast, EVENTS_SUBPROTOCOL, RoomClient, type RoomUpdate } from '../../../client/room-client.ts';
import { EVENT_BYTES, LOCAL_EVENTS_API_KEY } from '../../../lib/local/event-api.ts';
import { localEventApi } from '../../../lib/local/room-server.ts';
import { atStage, linkOf, stageOf, useRoom } from './room-helpers.ts';

/**
 * The observers' broadcast (AppSync Events; locally its stand-in, lib/local/event-api.ts): an observer subscribed to
 * the auction's channel is told every change of the room, while what is private (a sealed bid, a bidder's own part)
 * never reaches any public channel: the tests see every event published, on every channel.
 */
const { service, api, clock, connect, open } = useRoom();
const broadcast = (): Broadcast => ({
  url: `${service.url.replace(/^http/, 'ws')}/event/realtime`,
  apiKey: LOCAL_EVENTS_API_KEY,
});

async function insiderInRoom() {
  const a = await tenderingInsider(api, { procurementMethodDetails: 'quick, accelerator=60' });
  const b1 = { ...(await insiderBid(api, a.id, 'broker2')), as: 'broker2' };
  const b2 = { ...(await insiderBid(api, a.id, 'broker')), as: 'broker' };
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const { startDate } = (await api.get(`${INSIDER}/${a.id}`)).body.data.auctionPeriod;
  await clock.passTo(new Date(Date.parse(startDate) - 3000).toISOString());
  await service.bot('room');
  const links = [await linkOf(api, INSIDER, a.id, b1), await linkOf(api, INSIDER, a.id, b2)];
  return { ...a, b1, b2, links };
}

/** A raw connection to the broadcast with the given authorization headers, and what it receives. */
async function raw(headers: Record<string, string>) {
  const header = Buffer.from(JSON.stringify(headers)).toString('base64url');
  const ws = new WebSocket(broadcast().url, [EVENTS_SUBPROTOCOL, `header-${header}`]);
  const got: any[] = [];
  ws.on('message', (d) => got.push(JSON.parse(d.toString())));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = async (type: string) => {
    for (let i = 0; i < 100; i++) {
      const found = got.find((m) => m.type === type);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${type}: ${JSON.stringify(got)}`);
  };
  return { ws, got, next, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

describe('the observers broadcast', { timeout: 180_000 }, () => {
  afterEach(() => clock.reset());

  it('tells an observer every change of a whole auction; a sealed bid never reaches a public channel', async () => {
    const a = await insiderInRoom();
    const published: { channel: string; event: string }[] = [];
    const stop = localEventApi()!.onPublish((channel, event) => published.push({ channel, event }));
    try {
      const watcher = await RoomClient.observe(broadcast(), a.id);
      open.push(watcher);
      const [bidder1, bidder2, socketObserver] = await Promise.all([
        connect(RoomClient.url(service.url, a.id, a.links[0])),
        connect(RoomClient.url(service.url, a.id, a.links[1])),
        connect(RoomClient.url(service.url, a.id)),
      ]);
      const first = socketObserver.room!.document.version;

      // Dutch: bidder 1 takes a step.
      await atStage(watcher, 'dutch_2');
      let dutch: any;
      for (let i = 0; i < 5 && dutch?.outcome !== 'accepted'; i++)
        dutch = await bidder1.ask({ action: 'bid', amount: stageOf(bidder1.room).amount }, 'bid');
      expect(dutch).toMatchObject({ outcome: 'accepted' });
      const afterDutch = await watcher.roomWhere((r) => r.document.results.some((x: any) => x.dutchWinner));
      const preSealed = afterDutch.document.stages.find((x) => x.type === 'pre-sealedbid')!;
      await clock.passTo(new Date(Date.parse(preSealed.start) - 2000).toISOString());

      // Sealed bids: bidder 2's bid is theirs alone while the stage lasts.
      await atStage(bidder2, 'sealedbid');
      const sealedAmount = dutch.amount + 3000.37;
      const from = bidder2.messages.length;
      expect(await bidder2.ask({ action: 'bid', amount: sealedAmount }, 'bid')).toMatchObject({ outcome: 'sealed' });
      await bidder2.next((m) => m.type === 'room' && m.document.me?.ownBid?.amount === sealedAmount, from);
      const sealedOver = await watcher.roomWhere((r) => !['pre-sealedbid', 'sealedbid'].includes(stageOf(r).type));

      await atStage(bidder1, 'bestbid');
      expect(await bidder1.ask({ action: 'bid', amount: sealedAmount + 2000 }, 'bid')).toMatchObject({
        outcome: 'accepted',
      });
      const end = await watcher.roomWhere((r) => r.results === 'posted' && r.document.namesRevealed);
      await socketObserver.roomWhere((r) => r.document.version === end.document.version && r.results === 'posted');

      // Every change: the versions the socket observer was told since it joined, and the same final document.
      const versions = (c: RoomClient) =>
        new Set(
          c.messages
            .flatMap((m) => (m.type === 'room' ? [(m as RoomUpdate).document.version] : []))
            .filter((v) => v > first),
        );
      expect([...versions(watcher)].sort()).toEqual([...versions(socketObserver)].sort());
      expect(versions(watcher).size).toBeGreaterThan(5);
      expect(watcher.room).toEqual(socketObserver.room);

      // Nothing private on any channel: only this room's channel, only the public document (no bidder's own part),
      // and the sealed amount in none of the events published before the sealed bids closed.
      expect(new Set(published.map((p) => p.channel))).toEqual(new Set([`/rooms/${a.id}`]));
      for (const { event } of published) {
        const message = JSON.parse(event);
        expect(message.type).toBe('room');
        expect(message.document.me).toBeUndefined();
        if (message.document.version < sealedOver.document.version) expect(event).not.toContain(String(sealedAmount));
      }
      expect(published.some((p) => JSON.parse(p.event).document.version >= sealedOver.document.version)).toBe(true);
      // One publish per change: each version published once.
      const publishedVersions = published.map((p) => JSON.parse(p.event).document.version);
      expect(publishedVersions.length).toBe(new Set(publishedVersions).size);
    } finally {
      stop();
    }
  });

  it('speaks AppSync Events: the API key connects and subscribes, never publishes; limits and channels enforced', async () => {
    const host = new URL(service.url).host;
    const refused = await raw({ host, 'x-api-key': 'da2-wrong' });
    refused.send({ type: 'connection_init' });
    expect(await refused.next('connection_error')).toMatchObject({ errors: [{ errorType: 'UnauthorizedException' }] });

    const c = await raw({ host, 'x-api-key': LOCAL_EVENTS_API_KEY });
    c.send({ type: 'connection_init' });
    expect(await c.next('connection_ack')).toMatchObject({ connectionTimeoutMs: 300_000 });
    const auth = { host, 'x-api-key': LOCAL_EVENTS_API_KEY };
    c.send({ type: 'subscribe', id: 's1', channel: '/rooms/abc', authorization: { ...auth, 'x-api-key': 'no' } });
    expect(await c.next('subscribe_error')).toMatchObject({
      id: 's1',
      errors: [{ errorType: 'UnauthorizedException' }],
    });
    c.got.length = 0;
    c.send({ type: 'subscribe', id: 's2', channel: '/other/abc', authorization: auth });
    expect(await c.next('subscribe_error')).toMatchObject({ id: 's2', errors: [{ errorType: 'BadRequestException' }] });
    c.got.length = 0;
    c.send({ type: 'subscribe', id: 's3', channel: '/rooms/*', authorization: auth });
    expect(await c.next('subscribe_success')).toEqual({ type: 'subscribe_success', id: 's3' });
    c.send({ type: 'publish', id: 'p1', channel: '/rooms/abc', events: ['{"type":"room"}'], authorization: auth });
    expect(await c.next('publish_error')).toMatchObject({ id: 'p1', errors: [{ errorType: 'UnauthorizedException' }] });

    // The publisher's side (IAM, in process): at most 5 events, each at most 240 KB and JSON; a wildcard sees them.
    const events = localEventApi()!;
    expect(() => events.publish('/rooms/abc', Array(6).fill('{}'))).toThrow(/BadRequestException/);
    const result = events.publish('/rooms/abc', ['{"n":1}', `"${'x'.repeat(EVENT_BYTES)}"`, 'not json']);
    expect(result.successful.map((s) => s.index)).toEqual([0]);
    expect(result.failed.map((f) => f.index)).toEqual([1, 2]);
    expect(await c.next('data')).toEqual({ type: 'data', id: 's3', event: '{"n":1}' });
    c.send({ type: 'unsubscribe', id: 's3' });
    expect(await c.next('unsubscribe_success')).toEqual({ type: 'unsubscribe_success', id: 's3' });
    c.ws.close();
    refused.ws.close();
  });
});
