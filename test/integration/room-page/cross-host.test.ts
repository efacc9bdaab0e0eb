import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../../functions/runtime/config.ts';
import { clockOf } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { insiderInRoom } from '../room/room-helpers.ts';
import { enterAsBidder, english, launch, openPage, type RoomPage } from './browser.ts';
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
let browser: Browser;
beforeAll(async () => {
  host.serve(service.url);
  socket = `${service.url.replace('http://127.0.0.1', 'ws://localhost')}/room`;
  process.env.AGORA_ROOM_SOCKET = socket;
  resetConfig();
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await host.close();
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
      // Nothing of another host but the room's socket; nothing the policy refused.
      expect(p.foreign.length).toBeGreaterThan(0);
      for (const url of p.foreign) expect(url.startsWith(`${socket}?auction_id=${a.id}`), url).toBe(true);
      expect(cspViolations(p)).toEqual([]);
    }
    expect(bidder.foreign.some((url) => new URL(url).searchParams.has('token'))).toBe(true);
    expect(host.refusedUpgrades).toBe(0);
  });

  it('the command-line client finds the socket the page names, without AGORA_ROOM_URL', async () => {
    const a = await insiderInRoom(api, clock, service);
    const shown = await room('show', a.link);
    expect(shown.code, shown.err).toBe(0);
    expect(JSON.parse(shown.out.trim().split('\n').at(-1)!)).toMatchObject({ me: { label: 'Bidder #1' } });
    expect(host.refusedUpgrades).toBe(0);
  });

  it('names the socket in the shell escaped, and allows exactly its origin; unset, only its own host', async () => {
    const page = () => fetch(`${host.url}/texas-auctions/${'0'.repeat(32)}`);
    const policy = (connect: string) =>
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src ${connect}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
    try {
      process.env.AGORA_ROOM_SOCKET = `wss://rooms.example.org:8443/live/a'b&c"<d>`;
      resetConfig();
      const odd = await page();
      expect(odd.headers.get('content-security-policy')).toBe(policy("'self' wss://rooms.example.org:8443"));
      expect(await odd.text()).toContain(' data-socket="wss://rooms.example.org:8443/live/a&#39;b&#38;c%22%3Cd%3E">');

      delete process.env.AGORA_ROOM_SOCKET;
      resetConfig();
      const plain = await page();
      expect(plain.headers.get('content-security-policy')).toBe(policy("'self'"));
      expect(await plain.text()).not.toContain('data-socket');
    } finally {
      process.env.AGORA_ROOM_SOCKET = socket;
      resetConfig();
    }
  });
});
