import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { RoomClient } from '../../../client/room-client.ts';
import { AUCTIONS } from '../../support/auctions.ts';
import {
  atEnd,
  atStage,
  enterAsBidder,
  landleaseRoom,
  openPage,
  typeAmount,
  useRoomBrowser,
  type LandleaseArgs,
} from './browser.ts';

/**
 * What a bidder reads on a phone (360×640), in both languages: the terms whole and "I agree" in the first screen, the
 * amount the page proposes taken as shown, plurals that agree with the number, and nothing of a stage left after the end.
 */
const ctx = useRoomBrowser();
const { service, api, pages, browser, clock } = ctx;
const phone = { width: 360, height: 640 };
const plainSpaces = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');
const room = (...args: LandleaseArgs) => landleaseRoom(ctx, ...args);

/** The words (runs between plain spaces and "·") of the terms' facts that the browser broke over two lines. */
const brokenWords = (page: Page) =>
  page.evaluate(() => {
    const broken: string[] = [];
    for (const el of document.querySelectorAll('.facts dt, .facts dd')) {
      const node = el.firstChild;
      if (!node || node.nodeType !== Node.TEXT_NODE) continue;
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[^ ·]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });

describe('the room page on a phone', { timeout: 240_000 }, () => {
  it('the terms fit 360×640 in uk-UA and en: no word broken, "I agree" in the first screen', async () => {
    const { links } = await room(10, 120_000);
    for (const locale of ['uk-UA', 'en-GB']) {
      const terms = await openPage(browser(), service.url, links[0], { locale, viewport: phone });
      pages.push(terms);
      const { page } = terms;
      expect(await page.textContent('#terms-value')).toMatch(/000,00/);
      expect(await brokenWords(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
      // Seen without scrolling, and not covered by anything: the button itself is what a tap there reaches.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const box = (await page.locator('#agree').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(phone.height);
      expect(
        await page.evaluate(
          ([x, y]) => document.elementFromPoint(x, y)?.id,
          [box.x + box.width / 2, box.y + box.height / 2],
        ),
      ).toBe('agree');
    }
  });

  it('round 1 on a phone: every form the page shows is taken by its locale, plurals agree, nothing of it stays after the end', async () => {
    // Accelerated 4 times: a round lasts 45 s (time for every step below under load, the rest skipped once read);
    // nobody bids, so round 1 is the last.
    const { id, links } = await room(4);
    const [en, uk] = await Promise.all([
      enterAsBidder(browser(), service.url, links[0], { viewport: phone }),
      enterAsBidder(browser(), service.url, links[1], { locale: 'uk-UA', viewport: phone }),
    ]);
    pages.push(en, uk);
    await Promise.all([atStage(en.page, 'round_1'), atStage(uk.page, 'round_1')]);
    const text = async (p: Page, selector: string) => plainSpaces(await p.textContent(selector));

    // English: the proposed amount is written as en-GB writes it, and submits as shown.
    expect(await en.page.inputValue('#bid-amount')).toBe('101,000.00');
    await en.page.focus('#bid-amount');
    await en.page.keyboard.press('Enter');
    await en.page.waitForSelector('#confirm:not([hidden])');
    expect(await text(en.page, '#confirm-text')).toContain('UAH 101,000.00');
    await en.page.click('#confirm-no');
    // A comma between thousands, as the page itself writes them, is a thousands separator in English.
    expect(await typeAmount(en.page, '102,000')).toBe(true);
    expect(await text(en.page, '#confirm-text')).toContain('UAH 102,000.00');
    await en.page.click('#confirm-no');
    expect(await typeAmount(en.page, '102,000.50')).toBe(false); // not a multiple of the step: refused by the page
    expect(await text(en.page, '#bid-answer')).toContain('multiple of the step');
    // What is still two ways to read stays refused: "102.000" (three decimals or thousands?), "102,00".
    expect(await typeAmount(en.page, '102.000')).toBe(false);
    expect(await text(en.page, '#bid-answer')).toContain('can be read two ways');
    expect(await typeAmount(en.page, '102,00')).toBe(false);
    expect(await text(en.page, '#bid-answer')).toContain('can be read two ways');
    // 260 000 is 2.57 times the least amount (101 000): said as 2.5 (to a tenth, rounded down), never 2.
    expect(await typeAmount(en.page, '260,000')).toBe(true);
    await en.page.click('#confirm-yes');
    expect(await text(en.page, '#confirm-text')).toContain('is 2.5 times the least acceptable amount');
    await en.page.click('#confirm-no');

    // Ukrainian: the proposed amount as uk-UA writes it, submitted as shown; plurals agree with the number.
    expect(plainSpaces(await uk.page.inputValue('#bid-amount'))).toBe('101 000,00');
    await uk.page.focus('#bid-amount');
    await uk.page.keyboard.press('Enter');
    await uk.page.waitForSelector('#confirm:not([hidden])');
    expect(await text(uk.page, '#confirm-text')).toContain('101 000,00 грн');
    await uk.page.click('#confirm-no');
    expect(await typeAmount(uk.page, '203 000')).toBe(true); // 2.01 times
    await uk.page.click('#confirm-yes');
    expect(await text(uk.page, '#confirm-text')).toContain('у 2 рази більше');
    await uk.page.click('#confirm-no');
    expect(await typeAmount(uk.page, '260 000')).toBe(true);
    await uk.page.click('#confirm-yes');
    expect(await text(uk.page, '#confirm-text')).toContain('у 2,5 раза більше');
    await uk.page.click('#confirm-no');
    expect(await typeAmount(uk.page, '1 010 000')).toBe(true);
    await uk.page.click('#confirm-yes');
    expect(await text(uk.page, '#confirm-text')).toContain('у 10 разів більше');
    await uk.page.click('#confirm-no');

    // Each page holds a refusal of its own when the round (and with it the auction) ends.
    expect(await typeAmount(en.page, '50,000')).toBe(false);
    expect(await text(en.page, '#bid-answer')).toContain('Too low: at least UAH 101,000.00');
    expect(await typeAmount(uk.page, '50 000')).toBe(false);
    expect(await text(uk.page, '#bid-answer')).toContain('Сума замала');
    // Read: the rest of the round is skipped on the service clock (the room and the pages follow it).
    const c = await RoomClient.open(RoomClient.url(service.url, id, links[0]));
    const { document: planned } = await c.ask({ action: 'resume' }, 'room');
    c.close();
    const end = Date.parse(planned.stages.find((s) => s.type === 'pre-announcement')!.start);
    await clock.passTo(new Date(end - 2000).toISOString());
    for (const p of [en.page, uk.page]) {
      await atEnd(p, 120_000);
      await p.waitForSelector('#ended:not([hidden])');
      // The ended room shows the end and the winner, and no message of a stage that is over: no "Your bid" card.
      expect(await text(p, '#bid-answer')).toBe('');
      expect(await p.isVisible('#bid-rule')).toBe(false);
      expect(await p.isVisible('#confirm')).toBe(false);
      expect(await p.isVisible('#bidding')).toBe(false);
    }
    // Round 1 drew no raise: no winner on either page, and none in the API (both bids at the starting value are
    // invalid, the auction unsuccessful: GEB's ModuleAuctionBringsResultAction), once the room posted its results.
    await en.page.waitForFunction(() =>
      document.getElementById('ended')?.textContent?.includes('The results were sent.'),
    );
    expect(await text(en.page, '#winner')).toBe('No winner');
    expect(await text(en.page, '#leader')).toBe('no bid yet');
    expect(await text(uk.page, '#winner')).toBe('Переможця немає');
    expect(await text(uk.page, '#leader')).toBe('ставок ще немає');
    const auction = (await api.get(`${AUCTIONS}/${id}`)).body.data;
    expect(auction.status).toBe('unsuccessful');
    expect(auction.awards ?? []).toEqual([]);
  });
});
