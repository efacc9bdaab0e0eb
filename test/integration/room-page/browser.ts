import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { RoomClient } from '../../../client/room-client.ts';
import { activeBid, AUCTIONS, type Clock, rectifyingAuction } from '../../support/auctions.ts';
import { linkOf, useRoom } from '../room/room-helpers.ts';

/**
 * The room page tests' browser: Debian's Chromium (CHROMIUM or /usr/bin/chromium) driven by playwright-core, as a
 * person would use it. Without Chromium the tests fail, never skip. Every page records what it asked of other origins
 * and what the Content-Security-Policy refused, so a test can say the page needed nothing but the room.
 */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path))
    throw new Error(
      'Chromium is not installed: the room page tests drive it. Install it (apt-get install -y chromium) or set CHROMIUM.',
    );
  return path;
}

export const launch = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });

/**
 * A room page test's service (useRoom) and one browser for the file: `browser()` once launched, and `pages` whose
 * profiles close after each test.
 */
export function useRoomBrowser() {
  const room = useRoom();
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  const pages: RoomPage[] = [];
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.page.context().close();
  });
  return { ...room, browser: () => browser!, pages };
}

export interface RoomPage {
  page: Page;
  /** Requests to anything but the service's own origin (http or ws). */
  foreign: string[];
  /** Console errors (a CSP violation is one). */
  errors: string[];
}

/** A new browser profile (its own cookies) opening `url`, in English unless told, 400 px wide unless told. */
export async function openPage(
  browser: Browser,
  serviceUrl: string,
  url: string,
  { locale = 'en-GB', viewport = { width: 400, height: 900 } } = {},
): Promise<RoomPage> {
  const context = await browser.newContext({ viewport, locale, hasTouch: viewport.width < 400 });
  const page = await context.newPage();
  const own = new URL(serviceUrl).host;
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).host !== own) foreign.push(r.url());
  });
  page.on('websocket', (ws) => {
    if (new URL(ws.url()).host !== own) foreign.push(ws.url());
    watchSocket(page, ws);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, foreign, errors };
}

/**
 * The participation link, followed as a bidder does: the terms, "I agree" (by keyboard), then the room page;
 * `beforeEntering` runs on the terms page (to route the room's socket, say).
 */
export async function enterAsBidder(
  browser: Browser,
  serviceUrl: string,
  link: string,
  options: Parameters<typeof openPage>[3] & { beforeEntering?: (page: Page) => Promise<unknown> } = {},
): Promise<RoomPage> {
  const room = await openPage(browser, serviceUrl, link, options);
  await options.beforeEntering?.(room.page);
  await room.page.focus('#agree');
  await room.page.keyboard.press('Enter');
  await room.page.waitForSelector('#room');
  if ((options.locale ?? 'en-GB').startsWith('uk')) await room.page.waitForSelector('#room[data-version]');
  else await english(room.page);
  return room;
}

/** Switches the page to English (it opens in Ukrainian) and waits for the room document. */
export async function english(page: Page): Promise<void> {
  await page.waitForSelector('#room[data-version]', { timeout: 30_000 });
  if ((await page.textContent('#lang'))?.trim() === 'EN') await page.click('#lang');
}

/** Waits until the page shows the stage named `name` (or of that type). */
export async function atStage(page: Page, name: string, timeout = 60_000): Promise<void> {
  await shows(page, `#stage-name[data-stage="${name}"], #stage-name[data-type="${name}"]`, `stage ${name}`, timeout);
}

/** Waits until the page shows the room ended (the names revealed, or not yet unless `revealed`). */
export async function atEnd(page: Page, timeout = 60_000, revealed = false): Promise<void> {
  const selector = revealed
    ? '#room[data-ended="revealed"]'
    : '#room[data-ended="revealed"], #room[data-ended="ended"]';
  await shows(page, selector, revealed ? 'the end, names revealed' : 'the end', timeout);
}

/** Waits for `selector`; when it never shows, fails with what the page, its sockets and the room itself said. */
async function shows(page: Page, selector: string, what: string, timeout: number): Promise<void> {
  try {
    await page.waitForSelector(selector, { timeout });
  } catch (error) {
    throw new Error(
      `the page never showed ${what} (${(error as Error).message.split('\n')[0]})\n${await diagnosis(page)}`,
    );
  }
}

// ---- what a wait that failed saw

/** What each page's room sockets did: opened, closed, and the room documents received (in short), with their times. */
const socketLogs = new WeakMap<Page, string[]>();
const stamp = () => new Date().toISOString().slice(11, 23);

function watchSocket(page: Page, ws: import('playwright-core').WebSocket) {
  const log = socketLogs.get(page) ?? [];
  socketLogs.set(page, log);
  const path = new URL(ws.url()).pathname;
  const note = (line: string) => {
    log.push(`${stamp()} ${path} ${line}`);
    if (log.length > 60) log.splice(0, log.length - 60);
  };
  note('opening');
  ws.on('framereceived', ({ payload }) => {
    try {
      const message = JSON.parse(String(payload));
      note(message.type === 'room' ? `room ${summary(message)}` : `${message.type}`);
    } catch {
      note(`frame ${String(payload).slice(0, 80)}`);
    }
  });
  ws.on('socketerror', (e) => note(`error ${e}`));
  ws.on('close', () => note('closed'));
}

/** A room message in a few words: its version, the stage it names, whether it ended, the results. */
const summary = (message: any) => {
  const d = message.document ?? {};
  const stage = d.stages?.[d.currentStage - d.stagesFrom];
  return JSON.stringify({
    version: d.version,
    stage: stage?.name,
    ended: d.ended?.reason,
    revealed: d.namesRevealed,
    results: message.results,
    closed: message.closed,
    serverTime: d.serverTime,
  });
};

/**
 * What the page shows (stage, version, end, connection), what its sockets did, and the room as the service has it
 * (the auction's status, a fresh observer's room document, the room server's connections, the service clock).
 */
async function diagnosis(page: Page): Promise<string> {
  const lines: string[] = [];
  const shown = await page
    .evaluate(() => {
      const root = document.getElementById('room');
      const stage = document.getElementById('stage-name');
      const connection = document.getElementById('connection');
      return {
        stage: stage?.dataset.stage,
        version: root?.dataset.version,
        ended: root?.dataset.ended,
        connection: `${connection?.dataset.state}: ${connection?.textContent}`,
        endedText: document.getElementById('ended')?.textContent,
        auction: document.getElementById('auction-id')?.textContent,
      };
    })
    .catch((e: Error) => ({ error: e.message, auction: undefined }));
  lines.push(`at ${stamp()} the page showed ${JSON.stringify(shown)}`);
  lines.push(`its sockets: ${(socketLogs.get(page) ?? []).join('; ') || 'none'}`);
  const origin = new URL(page.url()).origin;
  const id = shown.auction || new URL(page.url()).searchParams.get('auction_id');
  const get = async (path: string) => {
    try {
      const res = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(10_000) });
      return { status: res.status, body: await res.json() };
    } catch (e) {
      return { status: 0, body: (e as Error).message };
    }
  };
  lines.push(`the room server: ${JSON.stringify((await get('/_local/room')).body)}`);
  lines.push(`the service clock: ${JSON.stringify((await get('/_local/clock')).body)}`);
  if (id) {
    for (const api of ['2.5', '2.3']) {
      const { status, body } = await get(`/api/${api}/auctions/${id}`);
      if (status !== 200) continue;
      const { status: s, auctionPeriod, dateModified } = body.data;
      lines.push(`the auction (${api}): ${JSON.stringify({ status: s, auctionPeriod, dateModified })}`);
    }
    try {
      const observer = await RoomClient.open(RoomClient.url(origin, id));
      try {
        lines.push(`the room now: ${summary(await observer.ask({ action: 'resume' }, 'room', 10_000))}`);
      } finally {
        observer.close();
      }
    } catch (e) {
      lines.push(`the room could not be read: ${JSON.stringify(e)}`);
    }
  }
  return lines.join('\n');
}

/** Waits until the page's bid answer contains `text`, and returns it. */
export async function answerContains(page: Page, text: string, timeout = 20_000): Promise<string> {
  await page.waitForFunction((t) => document.getElementById('bid-answer')?.textContent?.includes(t), text, { timeout });
  return (await page.textContent('#bid-answer')) ?? '';
}

/** The bid answer once it is no longer "sent…". */
export async function settledAnswer(page: Page, timeout = 20_000): Promise<string> {
  await page.waitForFunction(
    () => {
      const text = document.getElementById('bid-answer')?.textContent ?? '';
      return text !== '' && !/^Bid (sent|queued)/.test(text);
    },
    undefined,
    { timeout },
  );
  return (await page.textContent('#bid-answer')) ?? '';
}

/**
 * Types `text` into the bid field key by key and presses Enter, as a keyboard user does; returns once the page showed
 * the amount back for confirmation (true) or answered at once (false: a refusal of the page's own).
 */
export async function typeAmount(page: Page, text: string): Promise<boolean> {
  await page.fill('#bid-amount', '');
  await page.locator('#bid-amount').pressSequentially(text);
  await page.evaluate(() => {
    document.getElementById('bid-answer')!.textContent = '';
  });
  await page.keyboard.press('Enter');
  return confirmShown(page);
}

/** Waits until the page shows a bid back for confirmation (true) or answers (false). */
export async function confirmShown(page: Page): Promise<boolean> {
  await page.waitForFunction(
    () => !document.getElementById('confirm')!.hidden || document.getElementById('bid-answer')!.textContent !== '',
  );
  return page.isVisible('#confirm');
}

/** Types an amount, confirms it as shown back, and waits for the room's answer. */
export async function typeBid(page: Page, amount: number): Promise<string> {
  if (await typeAmount(page, String(amount))) await page.click('#confirm-yes');
  return settledAnswer(page);
}

/** Clicks a bid button, confirms the amount shown back (where one is), and waits for the room's answer. */
export async function clickBid(page: Page, button: string): Promise<string> {
  await page.evaluate(() => {
    document.getElementById('bid-answer')!.textContent = '';
  });
  await page.click(button);
  if (await confirmShown(page)) await page.click('#confirm-yes');
  return settledAnswer(page);
}

/** Whether the page fits `width` without a horizontal scroll bar. */
export async function fitsWidth(page: Page, width: number): Promise<boolean> {
  await page.setViewportSize({ width, height: 800 });
  return page.evaluate((w) => document.documentElement.scrollWidth <= w, width);
}

/**
 * How far ahead of its start a test plans a room whose first stage a page must see: its pages enter first, however
 * slow the machine, then `startSoon` moves the clock to the start (the room's timers follow it). Planned only seconds
 * ahead, a room under load ran its first stages before the pages were in ("the page never showed dutch_1").
 */
export const AHEAD = 600_000;

/** Moves the service clock to `before` ms ahead of the auction's start: the room opens then. */
export const startSoon = (
  clock: Pick<Clock, 'passTo'>,
  auction: { auctionPeriod: { startDate: string } },
  before = 2000,
) => clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) - before).toISOString());

/** What a room page test's service gives landleaseRoom. */
type RoomService = Pick<ReturnType<typeof useRoom>, 'api' | 'clock' | 'service'>;
export type LandleaseArgs = [n: number, lead?: number, overrides?: Record<string, unknown>, count?: number];

/**
 * A landlease auction (value 100 000, step 1 000, unless `overrides` say otherwise) with `count` active bidders
 * (numbered 1, 2, …), its room planned `lead` ms before its start, accelerated `n` times: its id, view and the
 * bidders' participation links.
 */
export async function landleaseRoom(
  { api, clock, service }: RoomService,
  ...[n, lead = 15_000, overrides = {}, count = 2]: LandleaseArgs
) {
  const a = await rectifyingAuction(api, { procurementMethodDetails: `quick, accelerator=${n}`, ...overrides });
  await clock.passTo(a.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  const brokers = ['broker2', 'broker', 'broker2'];
  const bids = [];
  for (let i = 0; i < count; i++) bids.push({ ...(await activeBid(api, a.id, i + 1, brokers[i])), as: brokers[i] });
  await clock.passTo(a.auction.tenderPeriod.endDate);
  await service.bot('chronograph');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const auction = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
  await clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) - lead).toISOString());
  await service.bot('room');
  const links = [];
  for (const b of bids) links.push(await linkOf(api, AUCTIONS, a.id, b));
  return { id: a.id, auction, links };
}
