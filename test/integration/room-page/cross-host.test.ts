import { execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../../functions/platform/config.ts';
import { LOCAL_EVENTS_API_KEY } from '../../../lib/local/event-api.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { clockOf } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { insiderInRoom } from '../room/room-helpers.ts';
import { AHEAD, enterAsBidder, english, landleaseRoom, launch, openPage, type RoomPage, startSoon } from './browser.ts';
import { pageHost } from './page-host.ts';

/**
 * The room page and its WebSocket on two hosts, as in AWS (the page on the HTTP API, the socket on the room stack's
 * WebSocket stage): here the page is served by a host that passes HTTP to the service and refuses every WebSocket
 * (page-host.ts, at 127.0.0.1), and the page is configured (AGORA_ROOM_SOCKET) with the gateway's own room under
 * another name (`ws://localhost:<port>/room`). Links lead to the page host (AGORA_AUCTION_SITE). A page that ignored
 * the configured socket would knock at the page host and never connect; a policy that did not allow the socket's
 * origin would be refused by the browser.
 */
const host = await pageHost();
process.env.AGORA_AUCTION_SITE = host.url; // read by the gateway as it starts
delete process.env.AGORA_ROOM_URL;
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
let socket: string;
let events: string;
let browser: Browser;
/** The broadcast as AWS has it for the page: on another host than the page's (here the socket's), with its key. */
const useEvents = (url: string | undefined) => {
  if (url) process.env.AGORA_ROOM_EVENTS = `${url} ${new URL(url).host} ${LOCAL_EVENTS_API_KEY}`;
  else delete process.env.AGORA_ROOM_EVENTS;
  resetConfig();
};
beforeAll(async () => {
  host.serve(service.url);
  socket = `${service.url.replace('http://127.0.0.1', 'ws://localhost')}/room`;
  events = `${service.url.replace('http://127.0.0.1', 'ws://localhost')}/event/realtime`;
  process.env.AGORA_ROOM_SOCKET = socket;
  useEvents(events);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await host.close();
  useEvents(undefined);
});
const pages: RoomPage[] = [];
afterEach(async () => {
  for (const p of pages.splice(0)) await p.page.context().close();
  await clock.reset();
});

const cspViolations = (p: RoomPage) => p.errors.filter((e) => /Content Security Policy|Refused to connect/i.test(e));

function room(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(
      'npx',
      ['tsx', 'bin/room.ts', ...args],
      { cwd: resolve(import.meta.dirname, '../../..'), env: process.env, timeout: 60_000 },
      (error, out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

describe('the room page with its WebSocket on another host', { timeout: 120_000 }, () => {
  it('an observer and a bidder (through the login) follow the room over the configured socket', async () => {
    const a = await insiderInRoom(api, clock, service);
    expect(a.auction.auctionUrl).toBe(`${host.url}/insider-auctions/${a.id}`);
    expect(a.link.startsWith(`${host.url}/insider-auctions/${a.id}/login?`)).toBe(true);

    const [observer, bidder] = await Promise.all([
      openPage(browser, host.url, a.auction.auctionUrl),
      enterAsBidder(browser, host.url, a.link),
    ]);
    pages.push(observer, bidder);
    await english(observer.page);
    expect(await observer.page.getAttribute('#room', 'data-socket')).toBe(socket);
    expect(await observer.page.textContent('#role')).toBe('An observer');
    // The bidder's session (a cookie of the page host) reached the socket's host as its token.
    expect(await bidder.page.textContent('#role')).toBe('Bidder #1');
    for (const p of [observer, bidder]) {
      expect(await p.page.textContent('#auction-id')).toBe(a.id);
      expect(await p.page.getAttribute('#connection', 'data-state')).toBe('online');
      expect(cspViolations(p)).toEqual([]);
    }
    // Nothing of another host but the room's socket (the bidder's, the observer's one read of the room) and the
    // broadcast (the observer's); nothing the policy refused.
    expect(await observer.page.getAttribute('#room', 'data-events')).toBe(events);
    expect(observer.foreign).toContain(events);
    expect(observer.foreign).toContain(`${socket}?auction_id=${a.id}`);
    for (const url of observer.foreign) expect([events, `${socket}?auction_id=${a.id}`]).toContain(url);
    expect(bidder.foreign.length).toBeGreaterThan(0);
    for (const url of bidder.foreign) expect(url.startsWith(`${socket}?auction_id=${a.id}&token=`), url).toBe(true);
    expect(host.refusedUpgrades).toBe(0);

    // The policy lets the page connect to the socket's and the broadcast's origin, and nothing else.
    const refused = await observer.page.evaluate(
      (port) =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.blockedURI), { once: true });
          try {
            new WebSocket(`ws://127.0.0.2:${port}/event/realtime`);
          } catch (error) {
            resolve(String(error));
          }
        }),
      new URL(service.url).port,
    );
    expect(refused).toMatch(/127\.0\.0\.2/);
  });

  it('the command-line observer follows a whole auction through the broadcast the page names', async () => {
    const a = await landleaseRoom({ api, clock, service }, 60, AHEAD);
    const bidder = await RoomClient.open(RoomClient.url(service.url, a.id, a.links[0]));
    // The observer first (a line once it has the room), then the bid: its change comes through the broadcast.
    const cli = spawn('npx', ['tsx', 'bin/room.ts', 'observe', a.auction.auctionUrl], {
      cwd: resolve(import.meta.dirname, '../../..'),
      env: process.env,
    });
    let out = '';
    let err = '';
    cli.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    cli.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
    });
    const exited = new Promise<number>((done) => cli.on('close', (code) => done(code ?? 1)));
    await expect.poll(() => out.includes('\n'), { timeout: 90_000 }).toBe(true);
    await startSoon(clock, a.auction); // the room opens once the observer has it, however slow its start
    const round1 = await bidder.roomWhere(
      (r) => r.document.stages[r.document.currentStage - r.document.stagesFrom]?.name === 'round_1',
    );
    const amount = round1.document.stages[round1.document.currentStage - round1.document.stagesFrom].amount!;
    expect(await bidder.ask({ action: 'bid', amount }, 'bid')).toMatchObject({ outcome: 'accepted' });
    const end = await bidder.roomWhere((r) => r.results === 'posted' && !!r.document.namesRevealed, 120_000);
    const code = await exited;
    bidder.close();
    expect(code, err).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // A line per change, in order, one version step each, the last the bidder's final document.
    const versions = lines.map((l) => l.version);
    expect(versions).toEqual([...new Set(versions)].sort((x, y) => x - y));
    expect(versions.length).toBeGreaterThan(2);
    expect(versions.at(-1)).toBe(end.document.version);
    expect(lines.at(-1)).toMatchObject({ posted: true, results: [{ amount }] });
    expect(host.refusedUpgrades).toBe(0);
  });

  it('the command-line client finds the socket the page names, without AGORA_ROOM_URL', async () => {
    const a = await insiderInRoom(api, clock, service);
    const shown = await room('show', a.link);
    expect(shown.code, shown.err).toBe(0);
    expect(JSON.parse(shown.out.trim().split('\n').at(-1)!)).toMatchObject({ me: { label: 'Bidder #1' } });
    expect(host.refusedUpgrades).toBe(0);
  });

  it('names the socket and the broadcast in the shell escaped, and allows exactly their origins; unset, only its own host', async () => {
    const page = () => fetch(`${host.url}/texas-auctions/${'0'.repeat(32)}`);
    const policy = (connect: string) =>
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src ${connect}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
    try {
      process.env.AGORA_ROOM_SOCKET = `wss://rooms.example.org:8443/live/a'b&c"<d>`;
      useEvents('wss://events.example.org/event/realtime');
      const odd = await page();
      expect(odd.headers.get('content-security-policy')).toBe(
        policy("'self' wss://rooms.example.org:8443 wss://events.example.org"),
      );
      expect(await odd.text()).toContain(
        ` data-socket="wss://rooms.example.org:8443/live/a&#39;b&#38;c%22%3Cd%3E" data-events="wss://events.example.org/event/realtime" data-events-host="events.example.org" data-events-key="${LOCAL_EVENTS_API_KEY}">`,
      );

      // Unset (as under `npm start`): the page's own host for both, the stand-in's key from the local runtime.
      delete process.env.AGORA_ROOM_SOCKET;
      useEvents(undefined);
      const plain = await page();
      expect(plain.headers.get('content-security-policy')).toBe(policy("'self'"));
      const text = await plain.text();
      expect(text).not.toContain('data-socket');
      expect(text).not.toContain('data-events=');
      expect(text).toContain(` data-events-key="${LOCAL_EVENTS_API_KEY}"`);
    } finally {
      process.env.AGORA_ROOM_SOCKET = socket;
      useEvents(events);
    }
  });
});
