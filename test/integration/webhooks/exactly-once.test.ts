import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookDelivery } from '../../../functions/bots.ts';
import { resetConfig } from '../../../functions/platform/config.ts';
import { documentClient, tableName } from '../../../functions/store/client.ts';
import { keys } from '../../../functions/store/table-design.ts';
import { PIPE_MESSAGE_TEMPLATE } from '../../../functions/store/table-design.ts';
import { fillTemplate, queueMessage } from '../../../lib/local/change-stream.ts';
import { invokeHandler } from '../../../lib/local/gateway.ts';
import { setFaults } from '../../support/faults.ts';
import { client } from '../../support/http.ts';
import { createLot, lotIn, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { type Received, type Reply, startReceiver, useChangeStream } from '../../support/webhooks.ts';

// A first attempt waits up to 90 s here (2 s in the service; an attempt never waits longer than the receivers' timeout,
// so that too): the races below happen while one is under way, on a machine of any load.
process.env.AGORA_WEBHOOK_FIRST_ATTEMPT_MS = '90000';
process.env.AGORA_WEBHOOK_TIMEOUT_MS = '90000';
resetConfig();
const service = useService({ changeStream: true });
const stream = useChangeStream();
const api = client(() => service.url);
const BASE = '/api/0.1/subscriptions';
afterAll(async () => {
  await service.setClockOffset(0);
  delete process.env.AGORA_WEBHOOK_FIRST_ATTEMPT_MS;
  delete process.env.AGORA_WEBHOOK_TIMEOUT_MS;
  resetConfig();
});

async function until(done: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function subscribe(url: string) {
  const res = await api.post(BASE, { url, events: ['lot.*'] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id as string, token: res.body.access.token as string };
}

/** The subscription's deliveries of one object, as its owner lists them. */
async function deliveriesOf(s: { id: string; token: string }, objectId: string): Promise<any[]> {
  const listed = (await api.get(`${BASE}/${s.id}/deliveries`, { token: s.token })).body.data as any[];
  return listed.filter((d) => d.body.data.id === objectId);
}

/** How many times each webhook came. */
const copies = (received: readonly Received[]) =>
  received.reduce((m, w) => m.set(w.id, (m.get(w.id) ?? 0) + 1), new Map<string, number>());

/**
 * The SQS message of an object's change as the pipe puts it in the queue (its root's record at that change: the root
 * as stored now, at `seq`), received `receiveCount` times.
 */
async function changeMessage(kind: string, id: string, seq: number, receiveCount: number) {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.root(kind, id), ConsistentRead: true }),
  );
  if (!Item) throw new Error(`no ${kind} ${id}`);
  const NewImage = marshall({ ...Item, history: { ...Item.history, seq } }, { removeUndefinedValues: true });
  const record = {
    eventID: `${kind}-${id}-${seq}`,
    eventName: 'MODIFY',
    dynamodb: { Keys: marshall(keys.root(kind, id)), NewImage },
  };
  return queueMessage(fillTemplate(PIPE_MESSAGE_TEMPLATE, record), undefined, receiveCount);
}

/** Until the journal has taken the lot's changes up to `seq` (its mark says so; a loaded stream shows records late). */
async function handedOn(lotId: string, seq: number) {
  await until(async () => {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.journalMark('lot', lotId), ConsistentRead: true }),
    );
    return Number(Item?.seq ?? 0) >= seq;
  }, `the lot's changes to ${seq} journaled`);
  await stream.drained();
}

/** As if the journal had never taken the lot's changes: its mark removed. */
async function forgetHandled(lotId: string) {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: keys.journalMark('lot', lotId) }));
}

describe('webhook exactly-once', () => {
  it("takes an object older than the journal's mark over from its log without sending its history again", async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const lot = await lotIn(api, 'pending'); // created (seq 1), then made pending (seq 2)
      await handedOn(lot.id, 2);
      const s = await subscribe(receiver.url);
      await forgetHandled(lot.id);
      // The update's record of an object the journal does not know: the create is taken from the log, not sent.
      await invokeHandler(webhookDelivery.handler, { Records: [await changeMessage('LOT', lot.id, 2, 1)] });
      expect(receiver.received.map((w) => w.body.data.seq)).toEqual([2]);
      // The create's own record, late: journaled already, nothing sent.
      await invokeHandler(webhookDelivery.handler, { Records: [await changeMessage('LOT', lot.id, 1, 1)] });
      expect(receiver.received.map((w) => w.body.data.seq)).toEqual([2]);
      // The next changes go out in order.
      expect((await patchAs(api, lot, 'owner', { description: 'three' })).status).toBe(200);
      expect((await patchAs(api, lot, 'owner', { description: 'four' })).status).toBe(200);
      await until(() => receiver.received.length >= 3, 'the next two changes');
      await stream.drained();
      expect(receiver.received.map((w) => w.body.data.seq)).toEqual([2, 3, 4]);
      expect((await deliveriesOf(s, lot.id)).map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered']);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("sends a change whose batch failed for good with its object's next change, in order (the journal left its mark)", async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const s = await subscribe(receiver.url);
      const lot = await lotIn(api, 'pending'); // created (seq 1), then made pending (seq 2)
      await until(async () => (await deliveriesOf(s, lot.id)).length === 2, 'both recorded');
      // The journal cannot be written: the next change's batch fails at every receive and is set aside, as SQS's
      // dead-letter queue takes it; the lot's journal mark stays at 2.
      // Nothing else in flight (an earlier test's records): the record set aside is this change's.
      await stream.drained();
      const setAside = stream.stats().setAside;
      await setFaults(service.url, { failWritesTo: ['JOURNAL'] });
      expect((await patchAs(api, lot, 'owner', { description: 'three' })).status).toBe(200);
      await until(() => stream.stats().setAside > setAside, 'the batch failing 5 times, set aside');
      await setFaults(service.url, {});
      // Not journaled, not sent: a subscription's cursor reads the journal.
      expect((await deliveriesOf(s, lot.id)).map((d) => d.body.data.seq)).toEqual([2, 1]);
      // The lot's next change finds its mark at 2, reads seq 3 from the log and journals it first: both go, in order.
      expect((await patchAs(api, lot, 'owner', { description: 'four' })).status).toBe(200);
      await until(
        async () => (await deliveriesOf(s, lot.id)).filter((d) => d.state === 'delivered').length === 4,
        'the next change and the one before',
      );
      expect((await deliveriesOf(s, lot.id)).map((d) => [d.body.data.seq, d.state])).toEqual([
        [4, 'delivered'],
        [3, 'delivered'],
        [2, 'delivered'],
        [1, 'delivered'],
      ]);
      expect(receiver.received.map((w) => w.body.data.seq).slice(-2)).toEqual([3, 4]);
    } finally {
      await setFaults(service.url, {});
      await receiver.close();
    }
  }, 60_000);

  it('sends nothing again when a batch comes back after its handling wrote its deliveries (receive count above 1)', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const s = await subscribe(receiver.url);
      const lot = await createLot(api);
      await until(async () => (await deliveriesOf(s, lot.id)).some((d) => d.state === 'delivered'), 'the create sent');
      // The same change again, as SQS hands a batch whose handling failed after writing: looked up, not sent.
      await invokeHandler(webhookDelivery.handler, { Records: [await changeMessage('LOT', lot.id, 1, 2)] });
      expect(receiver.received.filter((w) => w.body.data.id === lot.id)).toHaveLength(1);
      // Received again for the first time (a stream record handed twice): the lot's mark says it was journaled.
      await invokeHandler(webhookDelivery.handler, { Records: [await changeMessage('LOT', lot.id, 1, 1)] });
      expect(receiver.received.filter((w) => w.body.data.id === lot.id)).toHaveLength(1);
      const [delivery] = await deliveriesOf(s, lot.id);
      expect(delivery).toMatchObject({ state: 'delivered', attemptCount: 1 });
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('never sends again what a sender under way holds, however far the service clock moves', async () => {
    // The receiver holds the first webhook (lot Y's create) until told: its sender holds the subscription's cursor
    // meanwhile, and lot X's create waits behind it in the journal.
    let release!: () => void;
    const held = new Promise<Reply>((r) => (release = () => r({ status: 204 })));
    let first: string | undefined;
    const receiver = await startReceiver((w, seen) => {
      first ??= w.id;
      if (w.id === first && seen === 1) return held;
      return { status: 204 };
    });
    try {
      const s = await subscribe(receiver.url);
      const y = await createLot(api);
      await until(() => receiver.received.length === 1, "Y's first attempt");
      const x = await createLot(api);
      await until(async () => (await deliveriesOf(s, x.id)).length === 1, 'X journaled');
      // The service clock runs 10 minutes ahead, past any retry: the sweep finds the cursor (its lease is on the work
      // index) but cannot take it while its sender lives (a lease is on the wall clock), so it sends nothing.
      await service.setClockOffset(10 * 60_000);
      for (let i = 0; i < 3; i++) await service.bot('webhooks');
      expect(receiver.received.map((w) => w.body.data.id)).toEqual([y.id]);
      release();
      await until(async () => (await deliveriesOf(s, x.id)).some((d) => d.state === 'delivered'), 'X sent after Y');
      const came = copies(receiver.received);
      expect([...came.values()]).toEqual([1, 1]);
      expect(receiver.received.map((w) => w.body.data.id)).toEqual([y.id, x.id]);
    } finally {
      release();
      await service.setClockOffset(0);
      await receiver.close();
    }
  }, 180_000);

  it('lets one sweep at a time send a cursor, when two run at once', async () => {
    // The first webhook fails (the cursor waits); what follows waits behind it; the answers then take 200 ms each, so
    // two sweeps started together are both under way while the cursor is sent.
    let first: string | undefined;
    const receiver = await startReceiver(async (w, seen) => {
      first ??= w.id;
      if (w.id === first && seen <= 2) return { status: 500 }; // its quick retry fails too
      await new Promise((r) => setTimeout(r, 200));
      return { status: 204 };
    });
    try {
      const s = await subscribe(receiver.url);
      const lot = await createLot(api);
      await until(
        async () => (await deliveriesOf(s, lot.id)).some((d) => d.attemptCount === 1 && d.state === 'pending'),
        'the failed first attempt',
      );
      for (const change of [{ status: 'pending' }, { description: 'two' }, { description: 'three' }]) {
        const res = await patchAs(api, lot, 'owner', change);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      await until(async () => (await deliveriesOf(s, lot.id)).length === 4, 'the changes behind it');
      await service.setClockOffset(10 * 60_000);
      await Promise.all([service.bot('webhooks'), service.bot('webhooks')]);
      await until(async () => {
        await service.bot('webhooks');
        return (await deliveriesOf(s, lot.id)).every((d) => d.state === 'delivered');
      }, 'the cursor sent');
      const came = copies(receiver.received);
      // The failed one three times (its quick retry, its retry by the sweep); every other once, in seq order.
      expect([...came.values()].sort()).toEqual([1, 1, 1, 3]);
      expect(receiver.received.map((w) => w.body.data.seq)).toEqual([1, 1, 1, 2, 3, 4]);
    } finally {
      await service.setClockOffset(0);
      await receiver.close();
    }
  }, 180_000);
});
