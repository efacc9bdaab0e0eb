import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FEED_SETTLE_MS } from '../../../functions/runtime/config.ts';
import { rootLogger } from '../../../functions/runtime/observability.ts';
import { aLot } from '../../support/builders.ts';
import { type Answer, client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { setFaults as setFaultsOf } from '../../support/faults.ts';
import { useChangeStream } from '../../support/webhooks.ts';

/**
 * The feeds' guarantee (issue 33, store/feeds.ts): a client that follows `next_page` forward while writers create
 * and change lots sees every lot's final state, on the dateModified feed and on `feed=changes` (there, every change
 * of a lot after its earlier ones). The writers' DynamoDB writes are held back at random between their
 * stamp (`dateModified`) and their commit (the fault injector's `slowWrites`), as a stalled Lambda would; the
 * service runs with the deployed settle window. Without the window the crawler reads past rows that commit behind it.
 */
const service = useService({ feedSettleMs: FEED_SETTLE_MS, changeStream: true });
/** The change feed reads the journal, which the table's stream feeds (no settle window: positions, not time). */
const journal = useChangeStream();
const api = client(() => service.url);
beforeAll(() => rootLogger.setLogLevel('CRITICAL'));
afterAll(() => rootLogger.setLogLevel('WARN'));
afterEach(() => setFaults({}));

const setFaults = (config: Record<string, unknown>) => setFaultsOf(service.url, config);

const SEED = Number(process.env.FUZZ_SEED) || 20261126;
const WRITERS = 8;
const WRITING_MS = 1000;
const SLOW = { share: 0.4, maxMs: 400 };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a request again while it answers 503 (nothing stored, says the answer); any other failure fails the run. */
async function stored(send: () => Promise<Answer>, figures: { retried: number }): Promise<Answer> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const res = await send();
    if (res.status !== 503) {
      if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      return res;
    }
    figures.retried++;
  }
  throw new Error('503 ten times');
}

/** One writer: creates lots, publishes each (`pending`: it enters the feed) and changes its title twice. */
async function writer(until: number, lots: Set<string>, figures: { retried: number }) {
  while (Date.now() < until) {
    const created = await stored(() => api.post('/api/0.1/lots', aLot({ title: 'crawled' })), figures);
    const { id } = created.body.data;
    const token = created.body.access.token;
    lots.add(id);
    const patch = (data: unknown) => stored(() => api.patch(`/api/0.1/lots/${id}`, data, { token }), figures);
    await patch({ status: 'pending' });
    await patch({ title: 'crawled, changed' });
    await patch({ title: 'crawled, changed again' });
  }
}

/**
 * Follows a feed forward from its start, keeping the newest `dateModified` it saw of each lot; on the change feed
 * it also counts a lot's change that came after a later one of it (`revision` not above the last seen).
 */
async function crawl(start: string, done: () => boolean, settleMs: number) {
  const seen = new Map<string, string>();
  const revisions = new Map<string, number>();
  const figures = { rows: 0, outOfOrder: 0 };
  let next = start;
  let settledAt: number | undefined;
  for (;;) {
    const res = await api.get(next);
    expect(res.status).toBe(200);
    for (const row of res.body.data) {
      seen.set(row.id, row.dateModified);
      figures.rows++;
      if (row.revision !== undefined) {
        if (row.revision <= (revisions.get(row.id) ?? 0)) figures.outOfOrder++;
        revisions.set(row.id, row.revision);
      }
    }
    next = res.body.next_page.path;
    if (res.body.data.length > 0) continue;
    // Caught up: once the writers are done (and the journal has taken every change) and the settle window has passed
    // since, one more empty page ends it.
    if (done()) {
      settledAt ??= Date.now() + settleMs;
      if (Date.now() > settledAt) return { seen, ...figures };
    }
    await pause(20);
  }
}

/** The lots whose final state (its GET's `dateModified`) a crawler never saw. */
function missedBy(seen: Map<string, string>, finals: Map<string, string>) {
  return [...finals].filter(([id, dateModified]) => seen.get(id) !== dateModified).map(([id]) => id);
}

describe('forward crawlers of the lots feeds (dateModified and feed=changes)', () => {
  it.each([1, 2, 3])('see the final state of every lot while slowed writers race them (run %i)', async (run) => {
    const faults = await setFaults({ slowWrites: SLOW, seed: SEED + run });
    expect(faults.config.slowWrites).toEqual(SLOW);
    const lots = new Set<string>();
    const figures = { retried: 0 };
    let writing = true;
    let journaled = false;
    const crawlers = Promise.all([
      crawl('/api/0.1/lots?limit=100', () => !writing, FEED_SETTLE_MS + 200),
      crawl('/api/0.1/lots?feed=changes&limit=100', () => journaled, 0),
    ]);
    const until = Date.now() + WRITING_MS;
    const [written] = await Promise.allSettled([
      Promise.all(Array.from({ length: WRITERS }, () => writer(until, lots, figures))),
    ]);
    writing = false;
    await journal.drained();
    journaled = true;
    const [byDate, byChange] = await crawlers; // ended before this test does, whatever the writers met
    if (written.status === 'rejected') throw written.reason;
    const { stats } = (await (await fetch(`${service.url}/_local/faults`)).json()).data;
    await setFaults({});

    const finals = new Map<string, string>();
    for (const id of lots) finals.set(id, (await api.get(`/api/0.1/lots/${id}`)).body.data.dateModified);
    const missed = missedBy(byDate.seen, finals);
    const missedChanges = missedBy(byChange.seen, finals);
    console.info(
      `feed crawler run ${run}: ${lots.size} lots, ${stats.injected.slow} slowed writes, ${figures.retried} answered 503; ` +
        `dateModified feed ${byDate.rows} rows, ${missed.length} missed; ` +
        `feed=changes ${byChange.rows} rows, ${missedChanges.length} missed, ${byChange.outOfOrder} out of order`,
    );
    expect(stats.injected.slow).toBeGreaterThan(0);
    expect(lots.size).toBeGreaterThanOrEqual(WRITERS);
    expect(missed).toEqual([]);
    expect(missedChanges).toEqual([]);
    expect(byChange.outOfOrder).toBe(0);
    // Every lot's publication and two title changes: at least three changes each on the change feed.
    expect(byChange.rows).toBeGreaterThanOrEqual(3 * lots.size);
  });
});

describe('a write that would reach DynamoDB later than the budget', () => {
  it('is not sent: 503, the change not stored, and the answer says to send it again', async () => {
    const { id, token } = await lotIn(api, 'pending', { title: 'before' });
    // Every write held back up to 1.6 s: past the 1 s budget about a third of the time.
    await setFaults({ slowWrites: { share: 1, maxMs: 1600 }, seed: SEED });
    const outcomes: number[] = [];
    let title = 'before';
    for (let i = 0; i < 6; i++) {
      const res = await api.patch(`/api/0.1/lots/${id}`, { title: `late ${i}` }, { token });
      outcomes.push(res.status);
      if (res.status === 200) title = res.body.data.title;
      else
        expect(res.body.errors).toEqual([
          {
            location: 'body',
            name: 'data',
            description: 'Service temporarily unavailable: the change was not stored; send the request again',
          },
        ]);
      expect((await api.get(`/api/0.1/lots/${id}`)).body.data.title).toBe(title);
    }
    expect(new Set(outcomes)).toEqual(new Set([200, 503]));
  });
});
