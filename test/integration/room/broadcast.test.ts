import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { type Broadcast, EVENTS_SUBPROTOCOL, RoomClient, type RoomUpdate } from '../../../client/room-client.ts';
import { setLocal } from '../../../functions/platform/config.ts';
import {
  BUFFERED_BYTES,
  EVENT_BYTES,
  INIT_TIMEOUT_MS,
  LOCAL_EVENTS_API_KEY,
  MESSAGE_BYTES,
  SUBSCRIPTIONS_PER_CONNECTION,
} from '../../../lib/local/event-api.ts';
import { localEventApi } from '../../../lib/local/room-server.ts';
import { hex32 } from '../../support/builders.ts';
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

/** The broadcast over TLS, as AWS serves it (the gateway's TLS port), and the host Amplify's client names. */
const secure = () => ({
  url: `${service.tls.url.replace(/^https/, 'wss')}/event/realtime`,
  host: new URL(service.tls.url).host,
});

/**
 * A raw connection to the broadcast with the given authorization headers (none: no `header-` subprotocol), and what
 * it receives; over TLS when `url` is the `wss://` one, trusting the local certificate only when given `ca`.
 */
async function raw(
  headers: Record<string, string> | undefined,
  url = broadcast().url,
  options: WebSocket.ClientOptions = {},
) {
  const header = headers && Buffer.from(JSON.stringify(headers)).toString('base64url');
  const ws = new WebSocket(url, [EVENTS_SUBPROTOCOL, ...(header ? [`header-${header}`] : [])], options);
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
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return { ws, got, next, closed, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

/** Waits (50 ms steps, `seconds` at most) until `done` holds; says what it saw when it never does. */
async function until(done: () => boolean, seconds: number, saw: () => unknown) {
  for (let i = 0; i < seconds * 20 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!done()) throw new Error(`not in ${seconds} s: ${JSON.stringify(saw())}`);
}

/** The first of `promise` and `ms` passing (then `undefined`). */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);

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

  describe("over TLS, as AWS serves it: what AWS Amplify's Events client opens", () => {
    const auth = () => ({ host: secure().host, 'x-api-key': LOCAL_EVENTS_API_KEY });
    const trusted = () => ({ ca: service.tls.certificate });

    it("answers the documented handshake at wss://…/event/realtime and tells a room's changes; the page names it", async () => {
      const a = await insiderInRoom();
      // TLS with the local certificate: a client that does not trust it is refused the handshake.
      const untrusted = new WebSocket(secure().url, [EVENTS_SUBPROTOCOL]);
      const refusal = await new Promise<Error>((resolve) => untrusted.once('error', resolve));
      expect(refusal.message).toMatch(/self[- ]signed|certificate/i);

      const c = await raw(auth(), secure().url, { ca: service.tls.certificate });
      c.send({ type: 'connection_init' });
      expect(await c.next('connection_ack')).toEqual({ type: 'connection_ack', connectionTimeoutMs: 300_000 });
      // A keep-alive at once: the client's watch on the connection starts at the ack.
      expect(await c.next('ka')).toEqual({ type: 'ka' });
      expect(c.got.map((m) => m.type)).toEqual(['connection_ack', 'ka']);
      // As Amplify's `events.connect('rooms/<id>')` subscribes: a uuid, the path as given (no leading /), the headers.
      const id = randomUUID();
      c.send({ type: 'subscribe', id, channel: `rooms/${a.id}`, authorization: auth() });
      expect(await c.next('subscribe_success')).toEqual({ type: 'subscribe_success', id });
      // The room's own changes (its stages, as the clock runs) come as `data`, each a room document, in order.
      const told = () =>
        c.got.flatMap((m) => (m.type === 'data' && m.id === id ? [JSON.parse(m.event)] : [])) as RoomUpdate[];
      await until(
        () => told().length >= 3,
        90,
        () => c.got.map((m) => m.type),
      );
      const versions = told().map((m) => m.document.version);
      expect(told().every((m) => m.type === 'room' && m.document.me === undefined)).toBe(true);
      expect(versions).toEqual([...versions].sort((x, y) => x - y));
      expect(new Set(versions).size).toBe(versions.length);
      c.ws.close();

      // The page names where AWS's clients reach it (it watches on its own host itself).
      const page = await (await fetch(`${service.url}/insider-auctions/${a.id}`)).text();
      expect(page).toContain(` data-events-tls="${secure().url}"`);
    });

    it('refuses what AWS documents it refuses, over TLS as without', async () => {
      // No key, or a wrong one, in the `header-` subprotocol: the connection is not acknowledged.
      for (const headers of [undefined, { ...auth(), 'x-api-key': 'da2-wrong' }]) {
        const refused = await raw(headers, secure().url, trusted());
        refused.send({ type: 'connection_init' });
        expect(await refused.next('connection_error')).toMatchObject({
          errors: [{ errorType: 'UnauthorizedException' }],
        });
        expect(await within(refused.closed, 10_000)).toMatchObject({ code: 1008 });
      }
      const c = await raw(auth(), secure().url, trusted());
      c.send({ type: 'connection_init' });
      await c.next('connection_ack');
      const refuse = async (message: Record<string, unknown>) => {
        c.got.length = 0;
        c.send({ type: 'subscribe', authorization: auth(), ...message });
        const answer = await c.next('subscribe_error');
        expect(answer.id).toBe(message.id);
        return answer.errors[0].errorType as string;
      };
      // A subscription's id is unique on its connection ("a unique ID").
      c.send({ type: 'subscribe', id: 'one', channel: '/rooms/abc', authorization: auth() });
      await c.next('subscribe_success');
      expect(await refuse({ id: 'one', channel: '/rooms/def' })).toBe('BadRequestException');
      // Only a defined namespace's channels; at most five segments.
      expect(await refuse({ id: 'n', channel: '/default/abc' })).toBe('BadRequestException');
      expect(await refuse({ id: 'deep', channel: '/rooms/a/b/c/d/e' })).toBe('BadRequestException');
      // A subscription's own authorization is checked too: the key, not only the connection's.
      expect(await refuse({ id: 'k', channel: '/rooms/abc', authorization: { ...auth(), 'x-api-key': 'no' } })).toBe(
        'UnauthorizedException',
      );
      // Whichever form of the path, one channel: a publish to /rooms/abc reaches `rooms/abc`'s subscriber.
      c.send({ type: 'subscribe', id: 'bare', channel: 'rooms/abc', authorization: auth() });
      await c.next('subscribe_success');
      c.got.length = 0;
      localEventApi()!.publish('/rooms/abc', ['{"n":2}']);
      await until(
        () => c.got.filter((m) => m.type === 'data').length === 2,
        10,
        () => c.got,
      );
      expect(new Set(c.got.map((m) => m.id))).toEqual(new Set(['one', 'bare']));
      c.ws.close();
    });
  });

  describe('bounds each connection as AWS does', () => {
    const host = () => new URL(service.url).host;
    const auth = () => ({ host: host(), 'x-api-key': LOCAL_EVENTS_API_KEY });
    const connected = async () => {
      const c = await raw(auth());
      c.send({ type: 'connection_init' });
      await c.next('connection_ack');
      return c;
    };

    it('refuses a subscription past 100 on one connection, 20,000 asked, and the service keeps answering', async () => {
      expect(SUBSCRIPTIONS_PER_CONNECTION).toBe(100);
      const events = localEventApi()!;
      const before = events.subscriptions();
      const lots = await api.get('/api/0.1/lots');
      expect(lots.status).toBe(200);
      const c = await connected();
      const channel = `/rooms/${hex32()}`;
      const asked = 20_000;
      // Sent in slices, as a page's loop would, while the API is asked too.
      const meanwhile: Promise<number>[] = [];
      for (let i = 0; i < asked; i += 1000) {
        for (let j = i; j < i + 1000; j++) c.send({ type: 'subscribe', id: `s${j}`, channel, authorization: auth() });
        if (i % 5000 === 0) meanwhile.push(api.get('/api/0.1/lots').then((r) => r.status));
        await new Promise((r) => setImmediate(r));
      }
      const answered = () => c.got.filter((m) => m.type === 'subscribe_success' || m.type === 'subscribe_error');
      await until(
        () => answered().length === asked,
        60,
        () => answered().length,
      );
      expect(await Promise.all(meanwhile)).toEqual(meanwhile.map(() => 200));
      const [success, refused] = [answered().filter((m) => m.type === 'subscribe_success'), answered().slice(100)];
      expect(success.map((m) => m.id)).toEqual(Array.from({ length: 100 }, (_, i) => `s${i}`));
      // Each refusal in the protocol's shape, for its own id; the connection stays open.
      expect(refused).toHaveLength(asked - 100);
      expect(refused[0]).toEqual({
        type: 'subscribe_error',
        id: 's100',
        errors: [{ errorType: 'MaxSubscriptionsReachedError', message: 'At most 100 subscriptions a connection' }],
      });
      expect(
        refused.every((m) => m.type === 'subscribe_error' && m.errors[0].errorType === 'MaxSubscriptionsReachedError'),
      ).toBe(true);
      expect(events.subscriptions() - before).toBe(100);
      // A publish to the channel is 100 messages to it, not 20,000; the API still answers.
      events.publish(channel, ['{"n":1}']);
      await until(
        () => c.got.filter((m) => m.type === 'data').length === 100,
        10,
        () => c.got.length,
      );
      expect((await api.get('/api/0.1/lots')).status).toBe(200);
      // An unsubscribe makes room for one more.
      c.got.length = 0;
      c.send({ type: 'unsubscribe', id: 's0' });
      expect(await c.next('unsubscribe_success')).toEqual({ type: 'unsubscribe_success', id: 's0' });
      c.send({ type: 'subscribe', id: 'again', channel, authorization: auth() });
      expect(await c.next('subscribe_success')).toEqual({ type: 'subscribe_success', id: 'again' });
      c.ws.close();
      await c.closed;
      await until(
        () => events.subscriptions() === before,
        5,
        () => events.subscriptions(),
      );
    });

    it('closes a connection that sends a message over the bound (1009), unread', async () => {
      const c = await connected();
      c.send({ type: 'subscribe', id: 'big', channel: '/rooms/abc', pad: 'x'.repeat(MESSAGE_BYTES) });
      expect(await within(c.closed, 10_000)).toMatchObject({ code: 1009 });
      expect(c.got.filter((m) => m.type !== 'connection_ack' && m.type !== 'ka')).toEqual([]);
      // One just under it is read (and answered).
      const d = await connected();
      d.got.length = 0;
      d.ws.send(JSON.stringify({ type: 'subscribe', id: 'near', pad: 'x'.repeat(MESSAGE_BYTES - 100) }));
      expect(await d.next('subscribe_error')).toMatchObject({ id: 'near' });
      // JSON that is no object is a message of no known type, and the server goes on.
      d.got.length = 0;
      d.ws.send('null');
      expect(await d.next('error')).toMatchObject({ errors: [{ message: 'Unknown message type' }] });
      d.ws.close();
    });

    it('closes a connection that never sends connection_init, after the bound (the local runtime sets it)', async () => {
      expect(INIT_TIMEOUT_MS).toBe(30_000);
      setLocal({ eventsInitTimeoutMs: 500 });
      try {
        const silent = await raw(auth());
        const initialized = await raw(auth());
        initialized.send({ type: 'connection_init' });
        await initialized.next('connection_ack');
        const closed = await within(silent.closed, 10_000);
        expect(closed).toEqual({ code: 1008, reason: 'No connection_init' });
        expect(silent.got).toEqual([
          {
            type: 'connection_error',
            errors: [{ errorType: 'BadRequestException', message: 'No connection_init in time' }],
          },
        ]);
        // One that sent it stays.
        expect(initialized.ws.readyState).toBe(WebSocket.OPEN);
        initialized.ws.close();
      } finally {
        setLocal({ eventsInitTimeoutMs: undefined });
      }
    });

    it('lets a slow observer go once what it has not taken passes the bound, not the server grow', async () => {
      const events = localEventApi()!;
      const before = events.subscriptions();
      const c = await connected();
      const channel = `/rooms/${hex32()}`;
      c.send({ type: 'subscribe', id: 'slow', channel, authorization: auth() });
      await c.next('subscribe_success');
      // It stops reading (its socket paused: the kernel's buffers fill, then the server's).
      (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const event = JSON.stringify({ pad: 'x'.repeat(EVENT_BYTES - 100) });
      let published = 0;
      while (events.subscriptions() > before && published < 1000) {
        events.publish(channel, [event]);
        published++;
        await new Promise((r) => setImmediate(r));
      }
      expect(events.subscriptions()).toBe(before);
      // What was published before it was let go: the bound and the kernel's buffers, far from the 1,000 events.
      expect(published * EVENT_BYTES).toBeGreaterThan(BUFFERED_BYTES);
      expect(published).toBeLessThan(1000);
      (c.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      expect(await within(c.closed, 10_000)).toBeDefined();
    });
  });
});
