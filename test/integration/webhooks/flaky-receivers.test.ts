import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstant } from '../../../functions/domain/kernel/time.ts';
import { type ChangeStream, startChangeStream } from '../../../lib/local/change-stream.ts';
import { client } from '../../support/http.ts';
import { lotIn, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { type Received, startReceiver, useRetrySweep } from '../../support/webhooks.ts';

/**
 * Waiting is not failing (issue 52): receivers that err now and then, beside 16 writers, get every change exactly
 * once, in order, and soon. One fails every second call; one fails its first 3 calls and then recovers. The retry
 * sweep runs every second, as under `npm start`. What the changes waited is printed (never asserted: a time depends on
 * the machine; docs/bench.md keeps the figures).
 */
const service = useService({ changeStream: true });
const api = client(() => service.url);
const WRITERS = 16;
const PATCHES = 3;

let stream: ChangeStream;
beforeAll(async () => {
  stream = await startChangeStream({ endpoint: process.env.DYNAMODB_ENDPOINT!, table: process.env.TABLE_NAME! });
});
afterAll(() => stream?.stop());
useRetrySweep(service);

async function until(done: () => boolean, what: string, ms = 180_000) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The webhooks a receiver accepted (answered 2xx), each with what it waited since its change, in arrival order. */
function accepted(received: readonly { w: Received; ok: boolean }[]) {
  return received.filter((r) => r.ok).map((r) => r.w);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

describe('webhooks to receivers that err now and then', () => {
  it('deliver every change exactly once and in order, to one failing every second call and one failing 3 then recovering', async () => {
    const answered: Record<string, { w: Received; ok: boolean }[]> = { alternating: [], recovering: [] };
    let calls = { alternating: 0, recovering: 0 };
    const alternating = await startReceiver((w) => {
      const ok = ++calls.alternating % 2 === 0;
      answered.alternating!.push({ w, ok });
      return { status: ok ? 204 : 500 };
    });
    const recovering = await startReceiver((w) => {
      const ok = ++calls.recovering > 3;
      answered.recovering!.push({ w, ok });
      return { status: ok ? 204 : 503 };
    });
    try {
      for (const r of [alternating, recovering])
        expect((await api.post('/api/0.1/subscriptions', { url: r.url, events: ['lot.*'] })).status).toBe(201);
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, n) => {
          const lot = await lotIn(api, 'pending');
          for (let i = 0; i < PATCHES; i++)
            expect((await patchAs(api, lot, 'owner', { description: `flaky ${n}.${i}` })).status).toBe(200);
        }),
      );
      const expected = WRITERS * (2 + PATCHES);
      for (const name of ['alternating', 'recovering'] as const)
        await until(() => new Set(accepted(answered[name]!).map((w) => w.id)).size >= expected, `${name}: ${expected}`);
      calls = { alternating: 0, recovering: 0 };
      for (const name of ['alternating', 'recovering'] as const) {
        const ok = accepted(answered[name]!);
        // Exactly once: each change accepted once (a change sent again after a 2xx would show here).
        expect(ok.length, name).toBe(expected);
        expect(new Set(ok.map((w) => w.id)).size, name).toBe(expected);
        // In order per object, retries included.
        const byObject = new Map<string, number[]>();
        for (const w of ok) byObject.set(w.body.data.id, [...(byObject.get(w.body.data.id) ?? []), w.body.data.seq]);
        for (const seqs of byObject.values()) expect(seqs, name).toEqual([1, 2, 3, 4, 5]);
        const waited = ok
          .map((w) => w.arrivedAt - (parseInstant(w.body.data.dateModified) ?? 0) / 1000)
          .sort((a, b) => a - b);
        console.info(
          `flaky receiver (${name}) beside ${WRITERS} writers: ${expected} changes, each accepted once, in order; ` +
            `change -> accepted p50 ${Math.round(percentile(waited, 0.5)!)} ms, p99 ${Math.round(percentile(waited, 0.99)!)} ms, ` +
            `${answered[name]!.length} calls`,
        );
      }
    } finally {
      await Promise.all([alternating.close(), recovering.close()]);
    }
  }, 300_000);
});
