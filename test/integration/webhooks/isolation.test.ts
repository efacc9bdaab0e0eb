import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeStream, startChangeStream } from '../../../lib/local/change-stream.ts';
import { parseInstant } from '../../../functions/domain/kernel/time.ts';
import { resetConfig } from '../../../functions/platform/config.ts';
import { documentClient, tableName } from '../../../functions/store/client.ts';
import { keys } from '../../../functions/store/table-design.ts';
import { client } from '../../support/http.ts';
import { lotIn, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { arrivalOrder, startReceiver, useRetrySweep } from '../../support/webhooks.ts';
import { partition } from '../reliability/fuzz-support.ts';

// The retry sweep's probe of the hanging receiver gives up after 3 s here (15 s in the service); first attempts: 2 s.
process.env.AGORA_WEBHOOK_TIMEOUT_MS = '3000';
resetConfig();
const service = useService({ changeStream: true });
const api = client(() => service.url);
const BASE = '/api/0.1/subscriptions';
const OBJECTS = 20;
const PATCHES = 3;
const REFUSING = 100; // one key's cap

let stream: ChangeStream;
beforeAll(async () => {
  stream = await startChangeStream({ endpoint: process.env.DYNAMODB_ENDPOINT!, table: process.env.TABLE_NAME! });
});
afterAll(async () => {
  await stream?.stop();
  delete process.env.AGORA_WEBHOOK_TIMEOUT_MS;
});
// On a loaded machine even a healthy receiver's first attempt may take more than its 2 s: then its queue sends it.
useRetrySweep(service);

async function until(done: () => boolean | Promise<boolean>, what: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An address nothing listens on: every connection is refused. */
async function refusingUrl() {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/hook`;
}

/** The work index of the webhooks' sweep: the subscriptions with a cursor on it (`<due>#<subscription>#<lane>`). */
async function workIndex(): Promise<string[]> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.work('webhooks') },
    }),
  );
  return [...new Set((page.Items ?? []).map((i) => String(i.GSI2SK).split('#')[1]!))];
}

const ms = (sorted: number[], p: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!);

/** How many items are stored under a partition key. */
const itemCount = async (pk: string) => (JSON.parse(await partition(pk)) as unknown[]).length;

/** A subscription's failed passes in a row over the `lots` lane (its cursor's). */
async function failures(id: string): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: { PK: `SUBSCRIPTION#${id}`, SK: 'CURSOR#lots' },
      ConsistentRead: true,
    }),
  );
  return Number(Item?.failedPasses ?? 0);
}

const increasing = (seqs: number[]) => seqs.every((s, i) => i === 0 || s > seqs[i - 1]!);

/** Writers change `objects` lots at once, each created, made pending and PATCHed `patches` times; PATCH times. */
async function writers(objects: number, patches: number, tag: string): Promise<number[]> {
  const patchMs: number[] = [];
  await Promise.all(
    Array.from({ length: objects }, async (_, n) => {
      const lot = await lotIn(api, 'pending');
      for (let i = 0; i < patches; i++) {
        const started = performance.now();
        expect((await patchAs(api, lot, 'owner', { description: `${tag} ${n}.${i}` })).status).toBe(200);
        patchMs.push(performance.now() - started);
      }
    }),
  );
  return patchMs;
}

describe('webhook isolation', () => {
  it('costs a healthy receiver nothing beside a hanging one and 100 refusing ones, which cost no item a change; the hanging one, back, gets all it missed in order; deleting leaves no work', async () => {
    let hangs = true;
    const healthy = await startReceiver();
    const hanging = await startReceiver(() => (hangs ? 'hang' : { status: 204 }));
    try {
      const refusing = await refusingUrl();
      const subscribe = async (url: string, as: string) => {
        const res = await api.post(BASE, { url, events: ['lot.*'] }, { as });
        expect(res.status).toBe(201);
        return { id: res.body.data.id as string, token: res.body.access.token as string, as };
      };
      const good = await subscribe(healthy.url, 'broker');
      const hung = await subscribe(hanging.url, 'broker');
      const refused = [];
      for (let i = 0; i < REFUSING; i++) refused.push(await subscribe(refusing, 'broker2'));
      const failing = [hung, ...refused];
      // A first change each fails (its cursor stops there and waits); the sweep's probes fail too (1 s, 5 s, 15 s
      // later): each cursor waits longer and longer, and what it is owed stays in the journal, nothing per change.
      await writers(1, 0, 'first');
      await until(async () => (await workIndex()).length === failing.length, 'the failing cursors waiting', 60_000);
      await service.setClockOffset(60_000);
      await until(
        async () => (await Promise.all(failing.map((s) => failures(s.id)))).every((n) => n >= 3),
        'all failing 3 times in a row',
      );
      const stored = await Promise.all(refused.map((s) => itemCount(`SUBSCRIPTION#${s.id}`)));

      // Writers change 20 objects at once: every change reaches the healthy receiver, once, in order per object.
      const before = healthy.received.length;
      const patchMs = await writers(OBJECTS, PATCHES, 'change');
      const expected = OBJECTS * (2 + PATCHES);
      await until(() => new Set(healthy.received.map((w) => w.id)).size >= before + expected, `${expected} webhooks`);
      await stream.drained();
      const theirs = healthy.received.slice(before);
      expect(theirs).toHaveLength(expected);
      for (const [, seqs] of arrivalOrder(theirs)) expect(increasing(seqs), String(seqs)).toBe(true);
      const goods = (await api.get(`${BASE}/${good.id}/deliveries`, { token: good.token })).body.data as any[];
      expect(goods.every((d) => d.state === 'delivered')).toBe(true);
      const latency = theirs
        .map((w) => w.arrivedAt - (parseInstant(w.body.data.dateModified) ?? 0) / 1000 + 60_000)
        .sort((a, b) => a - b);
      patchMs.sort((a, b) => a - b);
      console.log(
        `healthy receiver beside 101 failing: change -> delivered p50 ${ms(latency, 0.5)} ms, p99 ${ms(latency, 0.99)} ms; ` +
          `PATCH p50 ${ms(patchMs, 0.5)} ms, p99 ${ms(patchMs, 0.99)} ms`,
      );
      // The failing ones cost no item per change: a subscription is its root and its cursors, whatever it is owed.
      expect(await Promise.all(refused.map((s) => itemCount(`SUBSCRIPTION#${s.id}`)))).toEqual(stored);

      // Deleted, the 100 leave nothing behind on the work index at once.
      for (const s of refused)
        expect((await api.del(`${BASE}/${s.id}`, { token: s.token, as: s.as })).status).toBe(200);
      expect(await workIndex()).toEqual([hung.id]);

      // The hanging receiver answers again: past its cursor's next try, the sweep sends from where it stopped while
      // writers go on: every change once, in order per object.
      hangs = false;
      await service.setClockOffset(3 * 3_600_000);
      const more = await writers(5, PATCHES, 'back');
      const all = 1 + OBJECTS + 5;
      const owed = 2 + expected + 5 * (2 + PATCHES); // its first lot's create (a draft: its owner's) and pending too
      await until(() => new Set(hanging.received.map((w) => w.id)).size >= owed, `${owed} webhooks after the hang`);
      await until(async () => (await workIndex()).length === 0, 'its cursor caught up');
      expect(more.length).toBe(5 * PATCHES);
      const order = arrivalOrder(hanging.received);
      expect(order.size).toBe(all);
      for (const [, seqs] of order) expect(increasing(seqs), String(seqs)).toBe(true);
      const listed = (await api.get(`${BASE}/${hung.id}/deliveries`, { token: hung.token })).body.data as any[];
      expect(listed.every((d) => d.state === 'delivered')).toBe(true);
      expect(await failures(hung.id)).toBe(0);
    } finally {
      await service.setClockOffset(0);
      await healthy.close();
      await hanging.close();
    }
  }, 300_000);
});
