import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeStream, startChangeStream } from '../../../lib/local/change-stream.ts';
import { setFaults } from '../../support/faults.ts';
import { client } from '../../support/http.ts';
import { partition } from '../reliability/fuzz-support.ts';
import { lotIn, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { arrivalOrder, startReceiver, useRetrySweep } from '../../support/webhooks.ts';

const service = useService({ changeStream: true });
const api = client(() => service.url);
const BASE = '/api/0.1/subscriptions';
const OBJECTS = 50;
const PATCHES = 4;
const SUBSCRIPTIONS = 8;

let stream: ChangeStream;
beforeAll(async () => {
  stream = await startChangeStream({ endpoint: process.env.DYNAMODB_ENDPOINT!, table: process.env.TABLE_NAME! });
});
afterAll(() => stream?.stop());
// A first attempt that failed (a slow answer on a loaded machine) is retried from its queue: the order must hold then too.
useRetrySweep(service);

async function until(done: () => boolean, what: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How the subscription's cursors stand (their last attempts kept), so a failure says what was sent when. */
async function howSent(s: { id: string }, outOfOrder: [string, number[]][]): Promise<string> {
  if (!outOfOrder.length) return '';
  return ` cursors: ${await partition(`SUBSCRIPTION#${s.id}`)}`;
}

describe('webhook order', () => {
  it('sends each object its changes in seq order on every subscription while writers change 50 objects at once', async () => {
    const receivers = await Promise.all(Array.from({ length: SUBSCRIPTIONS }, () => startReceiver()));
    try {
      const subscriptions: { id: string; token: string }[] = [];
      for (const r of receivers) {
        const made = await api.post(BASE, { url: r.url, events: ['lot.*'] });
        expect(made.status).toBe(201);
        subscriptions.push({ id: made.body.data.id, token: made.body.access.token });
      }
      // Writers: every object created and made pending, then PATCHed again and again, all objects at once.
      await Promise.all(
        Array.from({ length: OBJECTS }, async (_, n) => {
          const lot = await lotIn(api, 'pending');
          for (let i = 0; i < PATCHES; i++)
            expect((await patchAs(api, lot, 'owner', { description: `change ${n}.${i}` })).status).toBe(200);
        }),
      );
      const expected = OBJECTS * (2 + PATCHES);
      for (const r of receivers)
        await until(() => new Set(r.received.map((w) => w.id)).size >= expected, `${expected} webhooks`);
      for (const [n, r] of receivers.entries()) {
        const order = arrivalOrder(r.received);
        expect(order.size).toBe(OBJECTS);
        const outOfOrder = [...order].filter(([, seqs]) => seqs.some((s, i) => i > 0 && s <= seqs[i - 1]!));
        expect(
          outOfOrder,
          JSON.stringify(outOfOrder.slice(0, 3)) + (await howSent(subscriptions[n]!, outOfOrder)),
        ).toEqual([]);
        for (const seqs of order.values()) expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
        // Retries included: an attempt again repeats its seq, never goes back to an older one.
        for (const id of order.keys()) {
          const all = r.received.filter((w) => w.body.data.id === id).map((w) => w.body.data.seq);
          expect(all).toEqual([...all].sort((a, b) => a - b));
        }
      }
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  }, 300_000);

  it('keeps seq order behind a failure while writes land slowly and a batch holds several changes of one object', async () => {
    // Each receiver fails its first webhook: its cursor waits there while writers go on, a batch holding several
    // changes of one object; a share of the writes is held back up to 400 ms, so one append's items land out of order
    // for a Query, and the sweep (every second) reads the lane meanwhile.
    const receivers = await Promise.all(
      Array.from({ length: 4 }, () => {
        let n = 0;
        return startReceiver(() => (++n === 1 ? { status: 503 } : { status: 204 }));
      }),
    );
    try {
      for (const r of receivers) expect((await api.post(BASE, { url: r.url, events: ['lot.*'] })).status).toBe(201);
      // The first change fails at each receiver; then the pipe stops while writers go on, and comes back: a batch then
      // holds several changes of one object.
      const first = await lotIn(api, 'pending');
      for (const r of receivers) await until(() => r.received.length >= 1, 'the first webhook');
      await stream.stop();
      await Promise.all(
        Array.from({ length: 20 }, async (_, n) => {
          const lot = await lotIn(api, 'pending');
          for (let i = 0; i < PATCHES; i++)
            expect((await patchAs(api, lot, 'owner', { description: `slow ${n}.${i}` })).status).toBe(200);
        }),
      );
      await setFaults(service.url, { slowWrites: { share: 0.5, maxMs: 400 }, seed: 7 });
      stream = await startChangeStream({ endpoint: process.env.DYNAMODB_ENDPOINT!, table: process.env.TABLE_NAME! });
      const expected = 20 * (2 + PATCHES) + 2;
      for (const r of receivers)
        await until(() => new Set(r.received.map((w) => w.id)).size >= expected, `${expected} webhooks`);
      for (const r of receivers)
        for (const [id, seqs] of arrivalOrder(r.received))
          expect(seqs).toEqual(id === first.id ? [1, 2] : [1, 2, 3, 4, 5, 6]);
    } finally {
      await setFaults(service.url, {});
      await Promise.all(receivers.map((r) => r.close()));
    }
  }, 300_000);
});
