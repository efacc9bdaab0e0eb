import { afterEach, describe, expect, it } from 'vitest';
import { activeBid, AUCTIONS, rectifyingAuction } from '../../support/auctions.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { linkOf } from '../room/room-helpers.ts';
import {
  AHEAD,
  atEnd,
  atStage,
  confirmShown,
  enterAsBidder,
  english,
  openPage,
  type RoomPage,
  settledAnswer,
  startSoon,
  useRoomBrowser,
} from './browser.ts';
import { flakyProxy, type FlakyProxy } from './flaky-proxy.ts';

/**
 * The room page on a bad network: every connection of two bidders' and an observer's browsers goes through a proxy
 * that cuts one at random every 0.3–1.5 s while a landlease auction runs. The pages reconnect by themselves; every
 * bid a page reported taken is in the room's audit, none twice; and after the end every page shows the same results,
 * winner and stages as a fresh observer reads.
 */
const { service, api, clock, pages, browser } = useRoomBrowser();
let proxy: FlakyProxy | undefined;
afterEach(async () => {
  await proxy?.close();
});

const ROUNDS = 6;

/**
 * What a page shows of the outcome, for comparing pages: results rows (without the marks that differ by viewer, such
 * as "you lead"), the winner line, the stages.
 */
const shown = (p: RoomPage) =>
  p.page.evaluate(() => ({
    results: [...document.querySelectorAll<HTMLTableRowElement>('#results tbody tr')].map((tr) =>
      [...tr.cells].map((td) => td.firstChild?.textContent ?? '').join(' | '),
    ),
    winner: document.getElementById('winner')?.textContent,
    stages: [...document.querySelectorAll('#stages li')].map((li) => li.textContent),
  }));

describe('the room page with connections cut at random', { timeout: 240_000 }, () => {
  it('loses no accepted bid, doubles none, and every page ends on the same document', async () => {
    // Accelerated 20 times: a round lasts 9 s, time for a page to reconnect and bid in it.
    const a = await rectifyingAuction(api, { procurementMethodDetails: 'quick, accelerator=20' });
    await clock.passTo(a.auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const b1 = { ...(await activeBid(api, a.id, 1, 'broker2')), as: 'broker2' };
    const b2 = { ...(await activeBid(api, a.id, 2, 'broker')), as: 'broker' };
    await clock.passTo(a.auction.tenderPeriod.endDate);
    await service.bot('chronograph');
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const auction = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
    await clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) - AHEAD).toISOString());
    await service.bot('room');
    proxy = await flakyProxy(service.url, 24);
    const via = (url: string) => url.replace(service.url, proxy!.url);
    const links = [await linkOf(api, AUCTIONS, a.id, b1), await linkOf(api, AUCTIONS, a.id, b2)].map(via);

    const bidders = await Promise.all(links.map((link) => enterAsBidder(browser(), proxy!.url, link)));
    const observer = await openPage(browser(), proxy.url, via(auction.auctionUrl));
    await english(observer.page);
    pages.push(...bidders, observer);
    await startSoon(clock, auction);
    proxy.chaos(true);
    // Each page says when it is reconnecting (a transient state, caught as it appears).
    const sawReconnecting = Promise.all(
      pages.map((p) => p.page.waitForSelector('#connection[data-state="reconnecting"]', { timeout: 120_000 })),
    );

    // The bidders take turns, each accepting its round's amount; what the page reports is recorded.
    const reported: { amount: number; answer: string }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const page = bidders[(round - 1) % 2].page;
      await atStage(page, `round_${round}`, 90_000);
      await page.evaluate(() => {
        document.getElementById('bid-answer')!.textContent = '';
      });
      await page.click('#bid-accept');
      if (await confirmShown(page)) await page.click('#confirm-yes');
      const answer = await settledAnswer(page, 60_000);
      // "Bid accepted: UAH 101,000.00" (or confirmed after a reconnect): the amount the page says was taken.
      const amount = Number(/([\d,]+\.\d{2})/.exec(answer)?.[1].replaceAll(',', '') ?? Number.NaN);
      reported.push({ amount, answer });
      if (!/^Bid (accepted|confirmed)/.test(answer)) break;
    }
    const taken = reported.filter((r) => /^Bid (accepted|confirmed)/.test(r.answer)).map((r) => r.amount);
    expect(taken.length, JSON.stringify(reported)).toBeGreaterThanOrEqual(3);

    // The end (no bid in the next round): the chaos stops, and every page settles on the end.
    for (const p of pages) await atEnd(p.page, 120_000, true);
    proxy.chaos(false);
    expect(proxy.cuts).toBeGreaterThanOrEqual(10);
    await sawReconnecting;
    await Promise.all(
      pages.map((p) => p.page.waitForSelector('#connection[data-state="online"]', { timeout: 30_000 })),
    );

    // The same final document everywhere: each page, and a fresh observer of the room.
    const fresh = await RoomClient.open(RoomClient.url(service.url, a.id));
    const { document: room } = await fresh.ask({ action: 'resume' }, 'room');
    fresh.close();
    const [first, ...others] = await Promise.all(pages.map(shown));
    for (const other of others) expect(other).toEqual(first);
    expect(first.results).toHaveLength(room.results.length);
    expect(first.stages).toHaveLength(room.stages.length);

    // No accepted bid lost, none doubled: the room's audit has every amount a page reported taken, each once.
    let audit: any;
    for (let i = 0; i < 60 && !audit; i++) {
      const documents = (await api.get(`${AUCTIONS}/${a.id}/documents`)).body.data ?? [];
      const file = documents.find((d: any) => d.title === `audit_${a.id}.json`);
      if (file)
        audit = await (
          await fetch(new URL(file.url, service.url), {
            headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
          })
        ).json();
      else await new Promise((r) => setTimeout(r, 500));
    }
    const accepted = audit.timeline.bids.filter((b: any) => b.outcome === 'accepted').map((b: any) => b.amount);
    expect(new Set(accepted).size).toBe(accepted.length);
    expect(accepted).toEqual(expect.arrayContaining(taken));
    expect(accepted).toEqual(taken); // every bid the room took was reported to its bidder, in order
    for (const p of pages) expect(p.foreign).toEqual([]);
  });
});
