import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rootLogger } from '../../../functions/runtime/observability.ts';
import { aLot } from '../../support/builders.ts';
import { type Answer, client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { setFaults as setFaultsOf } from '../../support/faults.ts';
import { useChangeStream } from '../../support/webhooks.ts';

/**
 * The feeds' guarantee (issues 33 and 52): a client that follows `next_page` forward while writers create and change
 * lots sees every lot's final state, on the dateModified feed and on `feed=changes` (there, every change of a lot
 * after its earlier ones). The writers' DynamoDB writes are held back at random between their stamp (`dateModified`)
 * and their commit (the fault injector's `slowWrites`), as a stalled Lambda would. The feeds read the journal
 * (domain/journal): no settle window, nothing waits for time; a crawler is caught up once the journal has taken every
 * change (the local pipe drained) and a page then comes back empty.
 */
const service = useService({ changeStream: true });
const journal = useChangeStream();
const api = client(() => service.url);
beforeAll(() => rootLogger.setLogLevel('CRITICAL'));
afterAll(() => rootLogger.setLogLevel('WARN'));
afterEach(() => setFaults({}));

const setFaults = (config: Record<string, unknown>) => setFaultsOf(service.url, config);

const SEED = Number(process.env.FUZZ_SEED) || 20261126;
const WRITERS = 24;
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
  const figures = { rows: 0, outOfOrder: 0, duplicates: 0 };
  const changes = new Set<string>();
  let next = start;
  let settledAt: number | undefined;
  for (;;) {
    const res = await api.get(next);
    // A read whose answers DynamoDB lost again and again (the lost-answers run) answers 503: the page is asked again.
    if (res.status === 503) {
      await pause(20);
      continue;
    }
    expect(res.status).toBe(200);
    for (const row of res.body.data) {
      seen.set(row.id, row.dateModified);
      figures.rows++;
      if (row.revision !== undefined) {
        const change = `${row.id}@${row.revision}`;
        if (changes.has(change)) figures.duplicates++;
        changes.add(change);
        if (row.revision <= (revisions.get(row.id) ?? 0)) figures.outOfOrder++;
        revisions.set(row.id, row.revision);
      }
    }
    next = res.body.next_page.path;
    if (res.body.data.length > 0) continue;
    // Caught up: once the writers are done and the journal has taken every change, one more empty page ends it.
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
  it.each([
    ['quiet', {}],
    ['slowed writes, run 1', { slowWrites: SLOW, seed: SEED + 1 }],
    ['slowed writes, run 2', { slowWrites: SLOW, seed: SEED + 2 }],
    ['lost answers', { lostAnswers: 0.1, seed: SEED + 3 }],
  ])(`see the final state of every lot while ${WRITERS} writers race them (%s)`, async (_, config) => {
    const faults = await setFaults(config);
    expect(faults.config).toMatchObject(config);
    const lots = new Set<string>();
    const figures = { retried: 0 };
    let journaled = false;
    const crawlers = Promise.all([
      crawl('/api/0.1/lots?limit=100', () => journaled, 0),
      crawl('/api/0.1/lots?feed=changes&limit=100', () => journaled, 0),
    ]);
    const until = Date.now() + WRITING_MS;
    const [written] = await Promise.allSettled([
      Promise.all(Array.from({ length: WRITERS }, () => writer(until, lots, figures))),
    ]);

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
      `feed crawler (${_}): ${lots.size} lots by ${WRITERS} writers, ${stats.injected.slow} slowed writes, ` +
        `${stats.injected.lost} answers lost, ${figures.retried} answered 503; ` +
        `dateModified feed ${byDate.rows} rows, ${missed.length} missed; ` +
        `feed=changes ${byChange.rows} rows, ${missedChanges.length} missed, ${byChange.duplicates} twice, ` +
        `${byChange.outOfOrder} out of order`,
    );
    if ('slowWrites' in config) expect(stats.injected.slow).toBeGreaterThan(0);
    if ('lostAnswers' in config) expect(stats.injected.lost).toBeGreaterThan(0);
    expect(lots.size).toBeGreaterThanOrEqual(WRITERS);
    expect(missed).toEqual([]);
    expect(missedChanges).toEqual([]);
    expect(byChange.outOfOrder).toBe(0);
    expect(byChange.duplicates).toBe(0);
    // Every lot's publication and two title changes: at least three changes each on the change feed.
    expect(byChange.rows).toBeGreaterThanOrEqual(3 * lots.size);
  });
});

describe('a write that reaches DynamoDB late', () => {
  it('is stored and listed: no time budget refuses it (the feeds follow the journal, not the clock)', async () => {
    const { id, token } = await lotIn(api, 'pending', { title: 'before' });
    // Every write held back up to 1.6 s: past the 1 s budget the feeds once needed, about a third of the time.
    await setFaults({ slowWrites: { share: 1, maxMs: 1600 }, seed: SEED });
    for (let i = 0; i < 4; i++) {
      const res = await api.patch(`/api/0.1/lots/${id}`, { title: `late ${i}` }, { token });
      expect(res.status).toBe(200);
    }
    await setFaults({});
    await journal.drained();
    const final = (await api.get(`/api/0.1/lots/${id}`)).body.data;
    expect(final.title).toBe('late 3');
    const { seen } = await crawl('/api/0.1/lots?limit=100', () => true, 0);
    expect(seen.get(id)).toBe(final.dateModified);
  });
});
