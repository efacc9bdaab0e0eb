import { describe, expect, it } from 'vitest';
import type { WebSocketRoute } from 'playwright-core';
import { atEnd, english, landleaseRoom, openPage, useRoomBrowser } from './browser.ts';

/**
 * The room's messages to a page come from more than one sender (each change's fan-out, the answer to `resume`, a bot
 * run beside a timer), so one built earlier may arrive later. The page must never go back to an older document: here
 * the page's room socket passes through a route that, right after the end, hands the page the first document it had.
 */
const ctx = useRoomBrowser();
const { service, clock, pages, browser } = ctx;

describe('the room page and messages out of order', { timeout: 120_000 }, () => {
  it('keeps the end when an older document arrives after it', async () => {
    // Planned a minute ahead: the page connects before the start and keeps the room's first document.
    const { auction, links } = await landleaseRoom(ctx, 60, 60_000);
    const bidder = await openPage(browser(), service.url, links[0]);
    pages.push(bidder);
    const { page } = bidder;
    let first: string | undefined;
    let staleSent: () => void = () => {};
    const stale = new Promise<void>((resolve) => {
      staleSent = resolve;
    });
    await page.routeWebSocket(/\/room\?/, (ws: WebSocketRoute) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        ws.send(message);
        const parsed = JSON.parse(String(message));
        if (parsed.type !== 'room') return;
        first ??= String(message);
        if (parsed.document.ended && first !== String(message)) {
          ws.send(first);
          staleSent();
        }
      });
    });
    await page.focus('#agree');
    await page.keyboard.press('Enter');
    await english(page);
    const before = Number(await page.getAttribute('#room', 'data-version'));
    expect(await page.getAttribute('#room', 'data-ended')).toBe('');

    // The clock past the only round (nobody bids): the room bot takes the room up and ends it.
    await clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) + 30_000).toISOString());
    await service.bot('room');
    await stale;
    // The older document came last: the page still shows the end, at the end's version, for good.
    await atEnd(page, 30_000);
    const shown = page.waitForFunction((v) => document.getElementById('room')?.dataset.version === v, String(before), {
      timeout: 3_000,
    });
    await expect(shown).rejects.toThrow(/Timeout/);
    expect(Number(await page.getAttribute('#room', 'data-version'))).toBeGreaterThan(before);
    expect(await page.getAttribute('#room', 'data-ended')).toBe('revealed');
  });
});
