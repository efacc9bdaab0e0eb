import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  activeBid,
  AUCTIONS,
  INSIDER,
  insiderBid,
  rectifyingAuction,
  tenderingInsider,
} from '../../support/auctions.ts';
import { linkOf } from '../room/room-helpers.ts';
import {
  AHEAD,
  atEnd,
  atStage,
  clickBid,
  enterAsBidder,
  english,
  fitsWidth,
  openPage,
  type RoomPage,
  startSoon,
  typeBid,
  useRoomBrowser,
} from './browser.ts';

/**
 * Where a page's screenshot goes: `docs/` (the README shows them) when `ROOM_SCREENSHOTS=1` asks to renew them, a
 * temporary folder otherwise, so a test run never changes the checkout.
 */
const screenshotPath = (name: string) =>
  process.env.ROOM_SCREENSHOTS === '1' ? join('docs', name) : join(tmpdir(), `agora-${process.pid}-${name}`);

/**
 * The page's screenshots: desktop (1280 px) and phone (360 px), in English and in Ukrainian (`<name>.png`,
 * `<name>-uk.png`, `<name>-phone.png`, `<name>-phone-uk.png`), the whole page each; the page is left as it was.
 */
async function screenshots(page: Page, name: string) {
  const viewport = page.viewportSize()!;
  for (const [suffix, size] of [
    ['', { width: 1280, height: 900 }],
    ['-phone', { width: 360, height: 640 }],
  ] as const) {
    await page.setViewportSize(size);
    for (const lang of ['en', 'uk']) {
      if ((await page.getAttribute('html', 'lang')) !== lang) await page.click('#lang');
      await page.screenshot({
        path: screenshotPath(`${name}${suffix}${lang === 'uk' ? '-uk' : ''}.png`),
        fullPage: true,
      });
    }
  }
  await page.setViewportSize(viewport);
  if ((await page.getAttribute('html', 'lang')) !== 'en') await page.click('#lang');
}

/**
 * The room page in Debian's Chromium, as people use it: two bidders follow their participation links, agree to the
 * terms and bid by clicking and typing; an observer opens the auction link. Each auction runs accelerated (60x) to its
 * end, and the observer's page shows the winner by name. A screenshot of each type's page goes to docs/.
 */
const { service, api, clock, pages, browser } = useRoomBrowser();

const nameOf = async (base: string, auctionId: string, bid: { id: string; token: string; as: string }) =>
  (await api.get(`${base}/${auctionId}/bids/${bid.id}`, { token: bid.token, as: bid.as })).body.data.tenderers[0]
    .name as string;

/** Nothing asked of another origin, nothing refused by the Content-Security-Policy, no script error. */
const selfContained = (p: RoomPage) => {
  expect(p.foreign).toEqual([]);
  expect(p.errors.filter((e) => !/WebSocket/.test(e))).toEqual([]);
};

describe('the auction room page in a browser', { timeout: 180_000 }, () => {
  it('runs a dgfInsider (2.3) auction: Dutch accept, a sealed bid typed in, the best bid, the winner shown', async () => {
    const a = await tenderingInsider(api, { procurementMethodDetails: 'quick, accelerator=60' });
    const b1 = { ...(await insiderBid(api, a.id, 'broker2')), as: 'broker2' };
    const b2 = { ...(await insiderBid(api, a.id, 'broker')), as: 'broker' };
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const auction = (await api.get(`${INSIDER}/${a.id}`)).body.data;
    await clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) - AHEAD).toISOString());
    await service.bot('room');
    const links = [await linkOf(api, INSIDER, a.id, b1), await linkOf(api, INSIDER, a.id, b2)];
    expect(auction.auctionUrl).toBe(`${service.url}/insider-auctions/${a.id}`);

    const [bidder1, bidder2, observer] = await Promise.all([
      enterAsBidder(browser(), service.url, links[0]),
      enterAsBidder(browser(), service.url, links[1]),
      openPage(browser(), service.url, auction.auctionUrl),
    ]);
    pages.push(bidder1, bidder2, observer);
    await english(observer.page);
    expect(await bidder1.page.textContent('#role')).toBe('Bidder #1');
    expect(await observer.page.textContent('#role')).toBe('An observer');
    expect(await observer.page.isHidden('#bidding')).toBe(true);
    expect(await observer.page.textContent('#auction-id')).toBe(a.id);

    // A second tab of bidder 1 is the same bidder, not a third one.
    const secondTab = await bidder1.page.context().newPage();
    await secondTab.goto(`${service.url}/insider-auctions/${a.id}`);
    await english(secondTab);
    expect(await secondTab.textContent('#role')).toBe('Bidder #1');
    await secondTab.close();

    // Dutch: bidder 1 presses "Accept" (a step that ends under the click is refused in words: then the next one).
    await startSoon(clock, auction);
    await atStage(bidder1.page, 'dutch');
    expect(await bidder1.page.textContent('#bid-rule')).toContain('Accept');
    let dutch = '';
    for (let i = 0; i < 5 && !dutch.startsWith('Bid accepted'); i++)
      dutch = await clickBid(bidder1.page, '#bid-accept');
    expect(dutch).toMatch(/^Bid accepted/);
    // Every stage is listed, the current one marked.
    expect(await bidder1.page.locator('#stages li').count()).toBeGreaterThan(80);
    expect(await bidder1.page.locator('#stages li[aria-current="step"]').count()).toBe(1);

    // The rest of the Dutch part is skipped with the service clock (the page follows the server's time).
    const preSealed = await roomStageStart(links[1], a.id, 'pre-sealedbid');
    await clock.passTo(new Date(Date.parse(preSealed.start) - 2000).toISOString());

    // Sealed: bidder 2 types an amount above the Dutch one and presses Enter; bidder 1 (the Dutch winner) is refused.
    await atStage(bidder2.page, 'sealedbid');
    const dutchWon = preSealed.dutchAmount;
    expect(await typeBid(bidder2.page, dutchWon + 3000)).toMatch(/^Sealed bid accepted/);
    expect(await bidder1.page.isHidden('#bid-amount')).toBe(true);

    // Best bid: bidder 1 types at least 1 % above the sealed maximum.
    await atStage(bidder1.page, 'bestbid');
    expect(await typeBid(bidder1.page, dutchWon + 3000 + 2000)).toMatch(/^Bid accepted/);

    // The end: the observer's page shows the winner by name, once the results reached the auction.
    await atEnd(observer.page, 60_000, true);
    const winner = await nameOf(INSIDER, a.id, b1);
    expect(await observer.page.textContent('#winner')).toContain(`Winner: ${winner}`);
    await atEnd(bidder1.page, 30_000, true);
    await screenshots(bidder1.page, 'room-insider');
    for (const p of [bidder1, bidder2, observer]) selfContained(p);
    expect(await fitsWidth(observer.page, 360)).toBe(true);
    expect(await fitsWidth(bidder1.page, 360)).toBe(true);
  });

  it('runs a landlease (2.5) auction: accept, a raise by a step, the round with no bid ends it', async () => {
    const a = await rectifyingAuction(api, { procurementMethodDetails: 'quick, accelerator=60' });
    await clock.passTo(a.auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const b1 = { ...(await activeBid(api, a.id, 1, 'broker2')), as: 'broker2' };
    const b2 = { ...(await activeBid(api, a.id, 2, 'broker')), as: 'broker' };
    await clock.passTo(a.auction.tenderPeriod.endDate);
    await service.bot('chronograph');
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const auction = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
    // Planned well ahead, so that three browsers are in when the first (3 s) round opens.
    const startDate = Date.parse(auction.auctionPeriod.startDate);
    await clock.passTo(new Date(startDate - AHEAD).toISOString());
    await service.bot('room');
    const links = [await linkOf(api, AUCTIONS, a.id, b1), await linkOf(api, AUCTIONS, a.id, b2)];

    const [bidder1, bidder2, observer] = await Promise.all([
      enterAsBidder(browser(), service.url, links[0]),
      enterAsBidder(browser(), service.url, links[1]),
      openPage(browser(), service.url, auction.auctionUrl),
    ]);
    pages.push(bidder1, bidder2, observer);
    await english(observer.page);
    // Before the rounds a bid is refused in words.
    expect(await bidder1.page.isHidden('#bid-accept')).toBe(true);

    // Round 1: bidder 1 accepts the round's amount; round 2: bidder 2 raises by one step and sends.
    await startSoon(clock, auction);
    await atStage(bidder1.page, 'round_1');
    expect(await clickBid(bidder1.page, '#bid-accept')).toMatch(/^Bid accepted/);
    await atStage(bidder2.page, 'round_2');
    await bidder2.page.click('#bid-raise');
    expect(await clickBid(bidder2.page, '#bid-send')).toMatch(/^Bid accepted/);
    // A raise that is not a whole number of steps is refused in words.
    await atStage(bidder1.page, 'round_3');
    const round3 = Number((await bidder1.page.inputValue('#bid-amount')).replace(/,/g, ''));
    expect(await typeBid(bidder1.page, round3 + 500)).toMatch(/multiple|step/i);

    // Nobody bids in round 3: the auction ends; the observer sees the winner (bidder 2) by name.
    await atEnd(observer.page, 60_000, true);
    const winner = await nameOf(AUCTIONS, a.id, b2);
    expect(await observer.page.textContent('#winner')).toContain(`Winner: ${winner}`);
    await atEnd(bidder2.page, 30_000, true);
    await screenshots(bidder2.page, 'room-landlease');
    for (const p of [bidder1, bidder2, observer]) selfContained(p);
    expect(await fitsWidth(bidder2.page, 360)).toBe(true);
  });
});

/** A stage of the room as its public document gives it (read over the room's WebSocket, as the page does). */
async function roomStageStart(link: string, auctionId: string, type: string) {
  const { RoomClient } = await import('../../../client/room-client.ts');
  const c = await RoomClient.open(RoomClient.url(service.url, auctionId, link));
  try {
    const { document } = await c.ask({ action: 'resume' }, 'room');
    const stage = document.stages.find((s) => s.type === type)!;
    const dutch = document.results.find((r) => r.dutchWinner)!;
    return { start: stage.start, dutchAmount: dutch.amount };
  } finally {
    c.close();
  }
}
