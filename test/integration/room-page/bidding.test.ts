import { describe, expect, it } from 'vitest';
import type { Page, WebSocketRoute } from 'playwright-core';
import { INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { atStage as roomAt, linkOf } from '../room/room-helpers.ts';
import {
  AHEAD,
  atEnd,
  answerContains,
  atStage,
  clickBid,
  confirmShown,
  enterAsBidder,
  openPage,
  settledAnswer,
  startSoon,
  typeAmount,
  typeBid,
  landleaseRoom as landleaseRoomOf,
  type LandleaseArgs,
  useRoomBrowser,
} from './browser.ts';

/**
 * Bidding on the room page as real bidders do, in Chromium: amounts typed the way people write them (a Ukrainian
 * decimal comma, spaces between thousands), shown back before they are sent, and bounded by the room itself.
 */
const { service, api, clock, pages, browser, connect } = useRoomBrowser();

/** Spaces of any kind as one plain space (Intl writes no-break spaces between thousands). */
const plainSpaces = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');

/** The amount of a "Bid accepted: UAH 99,000.00" answer. */
const dutchAmountOf = (answer: string) => Number(/UAH\s([\d,.]+)/.exec(answer)![1].replaceAll(',', ''));

const landleaseRoom = (...args: LandleaseArgs) => landleaseRoomOf({ api, clock, service }, ...args);

/**
 * A route for a page's room socket that holds back every room document made in the best bid stage until released
 * (bid answers pass): how many it held, and the release, which hands them over in order.
 */
function holdBestBid() {
  const held: (() => void)[] = [];
  let holding = true;
  return {
    route: (page: Page) =>
      page.routeWebSocket(/\/room\?/, (ws: WebSocketRoute) => {
        const server = ws.connectToServer();
        ws.onMessage((message) => server.send(message));
        server.onMessage((message) => {
          const parsed = JSON.parse(String(message));
          const doc = parsed.type === 'room' ? parsed.document : undefined;
          if (holding && doc?.stages[doc.currentStage - doc.stagesFrom]?.type === 'bestbid')
            held.push(() => ws.send(message));
          else ws.send(message);
        });
      }),
    held: () => held.length,
    release: () => {
      holding = false;
      for (const send of held.splice(0)) send();
    },
  };
}

describe('bidding on the room page', { timeout: 180_000 }, () => {
  it('in a uk-UA page, "102000,00" bids 102 000,00 once shown back; ambiguous amounts are refused; far ones asked twice', async () => {
    // Accelerated 10 times: a round lasts 18 s.
    const { id, links } = await landleaseRoom(10);
    const bidder = await enterAsBidder(browser(), service.url, links[0], { locale: 'uk-UA' });
    pages.push(bidder);
    const { page } = bidder;
    await atStage(page, 'round_1');

    // Read two ways ("102 000" or 102 with three decimals?): refused by the page, nothing shown back, nothing sent.
    expect(await typeAmount(page, '102,000')).toBe(false);
    expect(await page.textContent('#bid-answer')).toContain('можна прочитати двояко');
    expect(await typeAmount(page, '102000,001')).toBe(false);
    expect(await page.textContent('#bid-answer')).toContain('Не більше двох знаків');
    expect(await typeAmount(page, '102 000 грн')).toBe(false);

    // More than twice the least acceptable amount (101 000): shown back, then asked a second time; cancelled.
    expect(await typeAmount(page, '1 020 000')).toBe(true);
    expect(plainSpaces(await page.textContent('#confirm-text'))).toContain('1 020 000,00 грн');
    await page.click('#confirm-yes');
    expect(plainSpaces(await page.textContent('#confirm-text'))).toContain(
      'у 10 разів більше за найменшу прийнятну суму (101 000,00 грн)',
    );
    await page.click('#confirm-no');
    expect(await page.isHidden('#confirm')).toBe(true);

    // The Ukrainian decimal comma: 102 000,00 is shown back as such, and that is the bid the room takes.
    expect(await typeAmount(page, '102000,00')).toBe(true);
    expect(plainSpaces(await page.textContent('#confirm-text'))).toContain('Ставка 102 000,00 грн');
    await page.click('#confirm-yes');
    expect(plainSpaces(await answerContains(page, 'Ставку прийнято'))).toContain('102 000,00 грн');
    expect(plainSpaces(await page.textContent('#results tbody tr:first-child'))).toContain('102 000,00 грн');

    // The room bounds amounts itself: 100 times the starting value, whatever a client sends.
    const forged = await connect(RoomClient.url(service.url, id, links[1]));
    expect(await forged.ask({ action: 'bid', amount: 1e15 }, 'bid')).toMatchObject({
      outcome: 'refused',
      code: 'too-high',
      message: "Bid value can't be more than 10000000.00 (100 times the starting value)",
    });
  });

  it('landlease: the next stage and the least acceptable amount ahead, "+ step" the room takes, who leads, who came first, every bidder', async () => {
    // 100 000 with a step of 3 000: round 1 asks 103 000, and "+ step" must propose 105 000 (a multiple), never 106 000.
    const step = { amount: 3000, currency: 'UAH', valueAddedTaxIncluded: true };
    const { auction, links } = await landleaseRoom(10, AHEAD, { minimalStep: step }, 3);
    const [en, uk, observer] = await Promise.all([
      enterAsBidder(browser(), service.url, links[0], { viewport: { width: 1280, height: 900 } }),
      enterAsBidder(browser(), service.url, links[1], { locale: 'uk-UA', viewport: { width: 360, height: 640 } }),
      openPage(browser(), service.url, auction.auctionUrl),
    ]);
    pages.push(en, uk, observer);
    await observer.page.waitForSelector('#room[data-version]');
    const text = async (p: Page, selector: string) => plainSpaces(await p.textContent(selector));

    // Each page in its browser's language: the role, the connection, the step.
    expect(await text(uk.page, '#role')).toBe('Учасник №2');
    expect(await text(uk.page, '#connection')).toBe('На зв’язку');
    expect(await text(en.page, '#role')).toBe('Bidder #1');
    expect(await text(observer.page, '#minimal-step')).toBe('UAH 3,000.00');

    // Before round 1: what comes next and when, and from which amount.
    await atStage(uk.page, 'pause');
    expect(await text(uk.page, '#countdown-line')).toMatch(
      /^(Початок о|Далі: Раунд 1 о) \d\d:\d\d:\d\d, через \d\d:\d\d$/,
    );
    expect(await text(uk.page, '#least-line')).toMatch(/від 103 000,00 грн/);
    expect(await text(observer.page, '#least')).toBe('from UAH 103,000.00');
    expect(await text(observer.page, '#leader')).toBe('no bid yet');

    // Round 1: the rule says the rule; "+ step" proposes 104 000, which the room takes.
    await startSoon(clock, auction);
    await atStage(en.page, 'round_1');
    expect(await text(en.page, '#bid-rule')).toBe(
      'Accept the round\'s amount (UAH 103,000.00) or bid more, a multiple of the step UAH 3,000.00: e.g. UAH 105,000.00 ("+ step").',
    );
    expect(await text(uk.page, '#bid-rule')).toContain('кратну кроку 3 000,00 грн: наприклад, 105 000,00 грн');
    expect(await text(en.page, '#least')).toBe('from UAH 103,000.00');
    await en.page.click('#bid-raise');
    expect(await en.page.inputValue('#bid-amount')).toBe('105,000.00');
    await en.page.click('#bid-raise');
    expect(await en.page.inputValue('#bid-amount')).toBe('108,000.00');
    await en.page.fill('#bid-amount', '105 000');
    expect(plainSpaces(await clickBid(en.page, '#bid-send'))).toBe('Bid accepted: UAH 105,000.00');
    // Switching the language switches every line, the answer to a bid too.
    await en.page.click('#lang');
    expect(await text(en.page, '#bid-answer')).toBe('Ставку прийнято: 105 000,00 грн');
    expect(await text(en.page, '#connection')).toBe('На зв’язку');
    await en.page.click('#lang');

    // Who leads, on every page, and "you" on the leader's own.
    await uk.page.waitForFunction(() => document.getElementById('leader')?.textContent?.includes('Учасник №1'));
    expect(await text(uk.page, '#leader')).toBe('Учасник №1 — 105 000,00 грн');
    expect(await text(en.page, '#leader')).toBe('Bidder #1 (you) — UAH 105,000.00');
    expect(await text(en.page, '#results tbody tr:first-child')).toContain('you lead');
    expect(await text(uk.page, '#results tbody tr:first-child')).toContain('лідер');
    expect(await text(observer.page, '#stages li:has(.bid)')).toContain('Bidder #1: UAH 105,000.00 at');

    // Round 2: both accept at the same instant; one is taken, the other is told who came first and what is next.
    await Promise.all([atStage(en.page, 'round_2'), atStage(uk.page, 'round_2')]);
    for (const p of [en.page, uk.page]) {
      await p.click('#bid-accept');
      expect(await confirmShown(p)).toBe(true);
    }
    // Both confirmed in the page at once (a click through the driver waits for the button, which the first accept can
    // hide on the other page before the second click lands under load: the page then cancels what it never sent).
    const confirm = () => document.getElementById('confirm-yes')!.click();
    await Promise.all([en.page.evaluate(confirm), uk.page.evaluate(confirm)]);
    const answers = await Promise.all([
      settledAnswer(en.page),
      uk.page
        .waitForFunction(() => !/^(Ставку надіслано|$)/.test(document.getElementById('bid-answer')?.textContent ?? ''))
        .then(() => uk.page.textContent('#bid-answer')),
    ]);
    const took = answers.map((a) => /^(Bid accepted|Ставку прийнято)/.test(a ?? ''));
    expect(took.filter(Boolean)).toHaveLength(1);
    const loser = took[0] ? uk : en;
    const unsent = took[0]
      ? 'Етап змінився: ставку не надіслано, перевірте суму'
      : 'The stage changed: the bid was not sent, check the amount';
    await loser.page.waitForFunction(
      (u) =>
        /раніше|first/.test(document.getElementById('bid-answer')?.textContent ?? '') ||
        document.getElementById('bid-answer')?.textContent === u,
      unsent,
    );
    // Sent at once, the later accept is refused by the room and told who came first; cancelled by the page because the
    // round closed before its confirmation landed, it says nothing was sent. Either way one bid, and words of why.
    const lost = await text(loser.page, '#bid-answer');
    if (lost !== unsent)
      expect(lost).toMatch(
        took[0]
          ? /^Учасник №1 запропонував 108 000,00 грн раніше: раунд закрито\. Наступний раунд о \d\d:\d\d:\d\d, ставки від 111 000,00 грн\.$/
          : /^Bidder #2 bid UAH 108,000\.00 first: the round is closed\. The next round at \d\d:\d\d:\d\d, bids from UAH 111,000\.00\.$/,
      );

    // Nobody bids in round 3: the end. Every bidder is in the results, the one who never bid too; no countdown.
    await atEnd(observer.page, 60_000, true);
    const rows = await observer.page.$$eval('#results tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows).toHaveLength(3);
    expect(rows[2]).toContain('no bid');
    for (const p of [en, uk, observer]) {
      await atEnd(p.page, 30_000, true);
      expect(await p.page.isHidden('#countdown-line')).toBe(true);
      expect(await p.page.isHidden('#least-line')).toBe(true);
      expect(await p.page.isHidden('#ended')).toBe(false);
    }
  });

  it('keeps the price and the buttons in view on a phone through 20 updates: the page never jumps', async () => {
    const { id, links } = await landleaseRoom(10, 12_000, {}, 3);
    const phone = await enterAsBidder(browser(), service.url, links[1], {
      locale: 'uk-UA',
      viewport: { width: 360, height: 640 },
    });
    pages.push(phone);
    // At every new document: how far the page is scrolled, and whether the price and the controls are in view.
    await phone.page.evaluate(() => {
      const samples: unknown[] = [];
      (window as any).samples = samples;
      const inView = (id: string) => {
        const el = document.getElementById(id);
        if (!el || el.offsetParent === null) return true; // not shown in this stage
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      };
      new MutationObserver(() =>
        samples.push({
          y: window.scrollY,
          shown: ['stage-name', 'leader', 'least', 'countdown', 'bid-accept', 'bid-raise', 'bid-send'].every(inView),
        }),
      ).observe(document.getElementById('room')!, { attributes: true, attributeFilter: ['data-version'] });
    });
    // Two other bidders take turns, a bid a round, over the socket: each bid is a new document (and a round).
    const bidders = [
      await connect(RoomClient.url(service.url, id, links[0])),
      await connect(RoomClient.url(service.url, id, links[2])),
    ];
    for (let round = 1; round <= 12; round++) {
      const c = bidders[round % 2];
      const stage = await roomAt(c, `round_${round}`);
      expect(await c.ask({ action: 'bid', amount: stage.amount }, 'bid')).toMatchObject({ outcome: 'accepted' });
    }
    await phone.page.waitForFunction(() => (window as any).samples.length >= 20, undefined, { timeout: 30_000 });
    const samples = await phone.page.evaluate(() => (window as any).samples as { y: number; shown: boolean }[]);
    expect(samples.filter((s) => s.y !== 0 || !s.shown)).toEqual([]);
    expect(await phone.page.locator('#stages li').count()).toBeGreaterThan(20);
  });

  it('dgfInsider: nobody reads a least amount for a stage they may not bid in, a sealed bid shown to all is no longer "only you", the Dutch amount is kept, not withdrawn; both languages', async () => {
    // Accelerated 15 times: the sealed stage lasts 40 s and the best bid 20 s, time to read each page in both languages.
    const a = await tenderingInsider(api, { procurementMethodDetails: 'quick, accelerator=15' });
    const b1 = { ...(await insiderBid(api, a.id, 'broker2')), as: 'broker2' };
    const b2 = { ...(await insiderBid(api, a.id, 'broker')), as: 'broker' };
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const auction = (await api.get(`${INSIDER}/${a.id}`)).body.data;
    await clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) - AHEAD).toISOString());
    await service.bot('room');
    const links = [await linkOf(api, INSIDER, a.id, b1), await linkOf(api, INSIDER, a.id, b2)];
    // The Dutch winner reads English first, the other bidder Ukrainian; each page is read in the other language too.
    const [winner, other] = await Promise.all([
      enterAsBidder(browser(), service.url, links[0]),
      enterAsBidder(browser(), service.url, links[1], { locale: 'uk-UA' }),
    ]);
    pages.push(winner, other);
    const text = async (p: Page, selector: string) => plainSpaces(await p.textContent(selector));
    /** `read` on the page as it is, then again in its other language, and back. */
    const inBoth = async (p: Page, read: () => Promise<void>, other: () => Promise<void>) => {
      await read();
      await p.click('#lang');
      await other();
      await p.click('#lang');
    };

    await startSoon(clock, auction);
    await atStage(winner.page, 'dutch');
    let dutch = '';
    for (let i = 0; i < 5 && !dutch.startsWith('Bid accepted'); i++) dutch = await clickBid(winner.page, '#bid-accept');
    expect(dutch).toMatch(/^Bid accepted/);
    const c = await RoomClient.open(RoomClient.url(service.url, a.id, links[1]));
    const { document: room } = await c.ask({ action: 'resume' }, 'room');
    c.close();
    const startOf = (type: string) => Date.parse(room.stages.find((s) => s.type === type)!.start);
    await clock.passTo(new Date(startOf('pre-sealedbid') - 2000).toISOString());

    // The sealed bids: the Dutch winner may not bid, so is shown no least amount (the other bidder is).
    await Promise.all([atStage(winner.page, 'sealedbid'), atStage(other.page, 'sealedbid')]);
    await other.page.waitForSelector('#least-line:not([hidden])');
    expect(await winner.page.isHidden('#least-line')).toBe(true);
    expect(await winner.page.isHidden('#bid-form')).toBe(true);
    const sealedAmount = (dutchAmountOf(dutch) + 3000).toFixed(0);
    expect(await typeAmount(other.page, sealedAmount)).toBe(true);
    await other.page.click('#confirm-yes');
    await answerContains(other.page, 'Закриту ставку прийнято (бачите лише ви)');
    // Read: the rest of the sealed stage is skipped on the service clock (the room and the pages follow it).
    await clock.passTo(new Date(startOf('pre-bestbid') - 2000).toISOString());

    // The best bid: the sealed bids are announced (the other bidder's amount leads, shown to everyone), and only the
    // Dutch winner may bid: the other is shown no least amount, and its answer no longer says only it sees the bid.
    await Promise.all([atStage(winner.page, 'bestbid'), atStage(other.page, 'bestbid')]);
    await winner.page.waitForFunction(() => !document.getElementById('least-line')!.hidden);
    await other.page.waitForFunction(() => document.getElementById('leader')?.textContent?.includes('ви'));
    expect(await other.page.isHidden('#least-line')).toBe(true);
    await inBoth(
      other.page,
      async () => {
        expect(await text(other.page, '#bid-answer')).not.toContain('бачите лише ви');
        expect(await text(other.page, '#bid-answer')).toContain('її бачать усі');
      },
      async () => {
        expect(await text(other.page, '#bid-answer')).not.toContain('only you see it');
        expect(await text(other.page, '#bid-answer')).toContain('everyone sees it');
      },
    );
    // The Dutch winner's button that keeps the Dutch amount says so, in the rule too; pressed, the amount stands.
    await inBoth(
      winner.page,
      async () => {
        expect(await text(winner.page, '#bid-withdraw')).toBe('Keep the Dutch amount');
        expect(await text(winner.page, '#bid-rule')).toContain('"Keep the Dutch amount"');
        expect(await text(winner.page, '#bid-rule')).not.toContain('Withdraw');
      },
      async () => {
        expect(await text(winner.page, '#bid-withdraw')).toBe('Лишити суму голландського етапу');
        expect(await text(winner.page, '#bid-rule')).not.toContain('Відкликати');
      },
    );
    expect(plainSpaces(await clickBid(winner.page, '#bid-withdraw'))).toBe(
      `Your Dutch amount stands: ${plainSpaces(/UAH\s[\d,.]+/.exec(dutch)![0])}`,
    );

    // The end: no "Your bid" card is left on either page, in either language.
    await clock.passTo(new Date(startOf('announcement') - 2000).toISOString());
    for (const p of [winner.page, other.page]) {
      await atEnd(p, 60_000);
      await inBoth(
        p,
        async () => expect(await p.isHidden('#bidding')).toBe(true),
        async () => expect(await p.isHidden('#bidding')).toBe(true),
      );
    }
  });

  it('dgfInsider: the step price, the Dutch winner and skipped steps, what the winner waits for, the best-bid rule, both languages', async () => {
    const a = await tenderingInsider(api, { procurementMethodDetails: 'quick, accelerator=60' });
    const b1 = { ...(await insiderBid(api, a.id, 'broker2')), as: 'broker2' };
    const b2 = { ...(await insiderBid(api, a.id, 'broker')), as: 'broker' };
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const auction = (await api.get(`${INSIDER}/${a.id}`)).body.data;
    await clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) - AHEAD).toISOString());
    await service.bot('room');
    const links = [await linkOf(api, INSIDER, a.id, b1), await linkOf(api, INSIDER, a.id, b2)];
    // The Dutch winner's page is handed no document of the best bid until released: it must open the stage by its own
    // clock, from the document before (as when that stage's document is late).
    const bestBid = holdBestBid();
    const [en, uk] = await Promise.all([
      enterAsBidder(browser(), service.url, links[0], { beforeEntering: bestBid.route }),
      enterAsBidder(browser(), service.url, links[1], { locale: 'uk-UA' }),
    ]);
    pages.push(en, uk);
    const text = async (p: Page, selector: string) => plainSpaces(await p.textContent(selector));
    const value = auction.value.amount as number;
    const step = Math.round(value) / 100; // 1 % of the starting value
    const fmt = (n: number) =>
      plainSpaces(new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'UAH' }).format(n));

    // The insider's minimal step is 1 % of the starting value; a Dutch step shows its price.
    expect(await text(en.page, '#minimal-step')).toBe(fmt(step));
    await startSoon(clock, auction);
    await atStage(en.page, 'dutch');
    expect(await text(en.page, '#least-label')).toBe('Step price:');
    let dutch = '';
    for (let i = 0; i < 5 && !dutch.startsWith('Bid accepted'); i++) dutch = await clickBid(en.page, '#bid-accept');
    expect(dutch).toMatch(/^Bid accepted/);
    const dutchAmount = Number(/UAH\s([\d,.]+)/.exec(dutch)![1].replaceAll(',', ''));

    // The Dutch winner marked; the steps after it shown as skipped, not held.
    await uk.page.waitForFunction(() =>
      document.getElementById('results')?.textContent?.includes('переможець голландського етапу'),
    );
    expect(await en.page.locator('#stages li.skipped').count()).toBeGreaterThan(70);
    expect(await text(en.page, '#stages li:has(.bid)')).toContain(`Bidder #1: ${fmt(dutchAmount)} at`);

    // The sealed stage: the Dutch winner is told what comes next and when; the other bids from above the Dutch amount.
    const { RoomClient: Client } = await import('../../../client/room-client.ts');
    const c = await Client.open(Client.url(service.url, a.id, links[1]));
    const { document: room } = await c.ask({ action: 'resume' }, 'room');
    c.close();
    const preSealed = room.stages.find((s) => s.type === 'pre-sealedbid')!;
    await clock.passTo(new Date(Date.parse(preSealed.start) - 2000).toISOString());
    await atStage(en.page, 'sealedbid');
    expect(await text(en.page, '#bid-rule')).toMatch(
      new RegExp(
        `^You won the Dutch part \\(${fmt(dutchAmount).replace(/[.]/g, '\\.')}\\)\\. The other bidders place sealed bids now; at \\d\\d:\\d\\d:\\d\\d you may raise your bid\\.$`,
      ),
    );
    await atStage(uk.page, 'sealedbid');
    const [whole, cents] = (dutchAmount + 0.01).toFixed(2).split('.');
    expect(await text(uk.page, '#least')).toBe(`від ${whole.replace(/\B(?=(\d{3})+$)/g, ' ')},${cents} грн`);
    expect(await typeAmount(uk.page, String(dutchAmount + 3000))).toBe(true);
    await uk.page.click('#confirm-yes');
    await answerContains(uk.page, 'Закриту ставку прийнято');
    // The bidder's own row shows the sealed bid, to them alone: never "без ставки" under "Ваша остання ставка".
    await uk.page.waitForFunction(() =>
      document.querySelector('#results tr.mine')?.textContent?.includes('бачите лише ви'),
    );
    const ownRow = await text(uk.page, '#results tr.mine');
    expect(ownRow).not.toContain('без ставки');
    expect(ownRow).toMatch(/Учасник №2 ви закрита, бачите лише ви\s*[\d ]+,\d\d грн/);

    // The best bid: its least amount is the best sealed bid plus 1 % of the starting value, said so.
    await atStage(en.page, 'bestbid');
    const least = dutchAmount + 3000 + step;
    // The stage shows before its amounts are drawn (a loaded machine draws them a moment later): waited for.
    await en.page
      .waitForFunction(
        (want) => document.querySelector('#least')?.textContent?.replace(/\s+/g, ' ') === want,
        `from ${fmt(least)}`,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    expect(await text(en.page, '#least')).toBe(`from ${fmt(least)}`);
    expect(await text(en.page, '#bid-rule')).toContain(
      `bid from ${fmt(least)} (the best sealed bid plus 1 % of the starting value, ${fmt(step)})`,
    );
    expect(await text(uk.page, '#bid-rule')).toMatch(
      /^Кращу ставку робить лише переможець голландського етапу\. Результати о \d\d:\d\d:\d\d\.$/,
    );
    expect(await typeAmount(en.page, String(least - 0.01))).toBe(false);
    expect(await text(en.page, '#bid-answer')).toBe(`Too low: at least ${fmt(least)}`);
    expect(plainSpaces(await typeBid(en.page, least))).toBe(`Bid accepted: ${fmt(least)}`);
    expect(bestBid.held()).toBeGreaterThan(0);
    bestBid.release();

    // The end: the sealed winner and the Dutch winner marked; no countdown.
    await atEnd(en.page, 60_000, true);
    expect(await text(en.page, '#results')).toContain('best sealed bid');
    expect(await en.page.isHidden('#countdown-line')).toBe(true);
  });
});
