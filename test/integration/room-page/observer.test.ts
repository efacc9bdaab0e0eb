import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { compareRooms, RoomClient, type RoomUpdate } from '../../../client/room-client.ts';
import { localEventApi } from '../../../lib/local/room-server.ts';
import { stageOf } from '../room/room-helpers.ts';
import { AHEAD, english, landleaseRoom, startSoon, useRoomBrowser } from './browser.ts';

/**
 * The room page's observers watch through the broadcast (AppSync Events' protocol; here its stand-in,
 * lib/local/event-api.ts): the page subscribes to the auction's channel, reads the room once over the room's socket
 * (the service keeps no last event) and applies every change published after, in order. Seen failing first: with the
 * page observing over the room socket, the page opened no broadcast connection and the stand-in had no subscriber.
 */
const { service, api, clock, pages, browser, connect } = useRoomBrowser();

/** Every version the page showed, in order (the shell's `data-version`, recorded as the page sets it). */
const RECORD_VERSIONS = () => {
  const shown: string[] = [];
  (window as unknown as { shownVersions: string[] }).shownVersions = shown;
  document.addEventListener('DOMContentLoaded', () => {
    const root = document.getElementById('room');
    if (!root) return;
    new MutationObserver(() => {
      const v = root.dataset.version;
      if (v && shown.at(-1) !== v) shown.push(v);
    }).observe(root, { attributes: true, attributeFilter: ['data-version'] });
  });
};

interface Watched {
  page: Page;
  /** Every WebSocket the page opened, and the text frames each received. */
  sockets: { url: string; frames: string[]; closed: boolean }[];
  errors: string[];
}

/** An observer's page (a profile of its own, no session) with its sockets and frames recorded. */
async function watchPage(url: string): Promise<Watched> {
  const context = await browser().newContext({ viewport: { width: 400, height: 900 }, locale: 'en-GB' });
  const page = await context.newPage();
  pages.push({ page, foreign: [], errors: [] });
  const watched: Watched = { page, sockets: [], errors: [] };
  page.on('websocket', (ws) => {
    const socket = { url: ws.url(), frames: [] as string[], closed: false };
    watched.sockets.push(socket);
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') socket.frames.push(f.payload);
    });
    ws.on('close', () => {
      socket.closed = true;
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error') watched.errors.push(m.text());
  });
  page.on('pageerror', (e) => watched.errors.push(e.message));
  await page.addInitScript(RECORD_VERSIONS);
  await page.goto(url);
  return watched;
}

/** The room messages a page got from the broadcast (each `data` event of its subscription). */
const broadcastRooms = (w: Watched): RoomUpdate[] =>
  w.sockets
    .filter((s) => s.url.includes('/event/realtime'))
    .flatMap((s) => s.frames.map((f) => JSON.parse(f)))
    .filter((m) => m.type === 'data')
    .map((m) => JSON.parse(m.event));

/** A document as everyone sees it: without the bidder's own part and the instant it was sent. */
const publicPart = ({ document, ...rest }: RoomUpdate) => {
  const { me: _me, serverTime: _time, ...shown } = document as RoomUpdate['document'] & { serverTime?: string };
  return { ...rest, document: shown };
};

describe('an observer on the room page, through the broadcast', { timeout: 240_000 }, () => {
  it('follows a whole auction change by change and ends with the document a bidder has', async () => {
    const published: number[] = [];
    const a = await landleaseRoom({ api, clock, service }, 60, AHEAD);
    const stop = localEventApi()!.onPublish((channel, event) => {
      if (channel === `/rooms/${a.id}`) published.push(JSON.parse(event).document.version);
    });
    try {
      const observer = await watchPage(a.auction.auctionUrl);
      const [bidder1, bidder2] = await Promise.all(a.links.map((l) => connect(RoomClient.url(service.url, a.id, l))));
      await english(observer.page);
      expect(await observer.page.textContent('#role')).toBe('An observer');
      expect(localEventApi()!.subscriptions()).toBeGreaterThan(0);
      const first = Number(await observer.page.getAttribute('#room', 'data-version'));
      // Everyone in first, however slow the machine; then the room opens (round 1 lasts seconds at 60 times).
      await startSoon(clock, a.auction);

      // Round 1: bidder 1 takes the round's amount; round 2: bidder 2 one step more; round 3: nobody, the end.
      const round1 = stageOf(await bidder1.roomWhere((r) => stageOf(r)?.name === 'round_1'));
      expect(await bidder1.ask({ action: 'bid', amount: round1.amount }, 'bid')).toMatchObject({ outcome: 'accepted' });
      const round2 = stageOf(await bidder2.roomWhere((r) => stageOf(r)?.name === 'round_2'));
      expect(await bidder2.ask({ action: 'bid', amount: round2.amount }, 'bid')).toMatchObject({ outcome: 'accepted' });
      const end = await bidder1.roomWhere((r) => r.results === 'posted' && !!r.document.namesRevealed, 120_000);
      await observer.page.waitForSelector(`#room[data-ended="revealed"][data-version="${end.document.version}"]`, {
        timeout: 60_000,
      });

      // Every change since the page's first document: published, one version step each (a write that
      // applies a boundary and a bid, or the end and the names, is one step: room.ts `oneStep`), and shown in order.
      const shown = (await observer.page.evaluate(() => (window as any).shownVersions as string[])).map(Number);
      expect(shown[0]).toBe(first);
      // (A version is published again when what changes without one does: the results posted, the audit filed.)
      const after = [...new Set(published.filter((v) => v > first))];
      expect(after.length).toBeGreaterThan(3);
      expect(after).toEqual(Array.from({ length: end.document.version - first }, (_, i) => first + 1 + i));
      expect(shown.slice(1)).toEqual(after);

      // The last document the broadcast brought is the bidder's, but for the bidder's own part.
      const furthest = (rooms: RoomUpdate[]) => [...rooms].sort(compareRooms).at(-1)!;
      const bidderRooms = bidder1.messages.filter((m): m is RoomUpdate => m.type === 'room');
      expect(publicPart(furthest(broadcastRooms(observer)))).toEqual(publicPart(furthest(bidderRooms)));
      expect(await observer.page.textContent('#results tbody')).toContain('101');

      // The page's sockets: the broadcast, and the room's socket only to read the room (as an observer), then closed.
      const [events, ...reads] = observer.sockets;
      expect(events.url).toBe(`${service.url.replace('http', 'ws')}/event/realtime`);
      expect(reads.length).toBeGreaterThan(0);
      for (const read of reads) {
        expect(read.url).toBe(`${service.url.replace('http', 'ws')}/room?auction_id=${a.id}`);
        expect(read.closed).toBe(true);
        expect(read.frames.map((f) => JSON.parse(f).type)).toEqual(['room']);
      }
      expect(observer.errors).toEqual([]);
      for (const c of [bidder1, bidder2]) c.close();
    } finally {
      stop();
    }
  });

  it('reads the room again past a gap: a change it never got is not skipped', async () => {
    // Planned minutes ahead: nothing of the room changes while the test makes and heals its gap.
    const a = await landleaseRoom({ api, clock, service }, 60, AHEAD);
    const observer = await watchPage(a.auction.auctionUrl);
    await english(observer.page);
    await observer.page.waitForFunction(() => document.querySelectorAll('#stages li').length > 0);
    const version = Number(await observer.page.getAttribute('#room', 'data-version'));
    const reads = observer.sockets.filter((s) => s.url.includes('/room?')).length;
    // A publish "lost": the room's document two versions on, straight to the channel (what the room would publish
    // after a change whose own publish failed). The page must not show it as the next one, but read the room.
    const now = await RoomClient.open(RoomClient.url(service.url, a.id));
    const { document: current } = await now.ask({ action: 'resume' }, 'room');
    now.close();
    localEventApi()!.publish(`/rooms/${a.id}`, [
      JSON.stringify({ type: 'room', document: { ...current, version: version + 2, title: 'not the room' } }),
    ]);
    await expect
      .poll(() => observer.sockets.filter((s) => s.url.includes('/room?')).length, { timeout: 30_000 })
      .toBe(reads + 1);
    // The read found the room at its own version: the document past the gap is dropped, never shown, and read once.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(observer.sockets.filter((s) => s.url.includes('/room?')).length).toBe(reads + 1);
    expect(await observer.page.textContent('#title')).not.toBe('not the room');
    expect(Number(await observer.page.getAttribute('#room', 'data-version'))).toBeLessThan(version + 2);
  });
});
