import {
  DeleteCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { sortableUtc, type Micros } from '#domain/kernel/time.ts';
import { requestNow } from '#runtime/clock.ts';
import type { Attempt, Delivery } from '#domain/webhooks/deliveries.ts';
import { batchGet, putAll } from './batch-items.ts';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure, MAX_TRANSACTION_ITEMS } from './errors.ts';
import { keys, SCHEMA_VERSION } from './table-design.ts';

/**
 * A subscription's deliveries: one item per change sent to it (`HOOK#<subscription>`, by the change's position), with
 * the message as first signed (so every retry and replay sends the same bytes under the same `webhook-id`) and its
 * attempts. While a delivery is pending it sits in its subscription's own queue (GSI2 `HOOKQ#<subscription>`, by
 * position); a subscription whose queue holds work due has ONE item on the work index (`WORK#webhooks`, by due time):
 * its queue item (`HOOKQ#<subscription>` / `#QUEUE`). The retry sweep Queries what is due, never Scans, and the work
 * index holds at most one item per subscription however much a failing receiver has waiting.
 */
export const WEBHOOKS_BOT = 'webhooks';
/** Attempts kept on a delivery (the newest): a delivery retried for days stays a small item. */
const KEPT_ATTEMPTS = 20;
export type { Attempt, Delivery };
/** Pings sort after every change's position (a year's digits): a replay from a cursor never takes them. */
export const PING_PREFIX = '~PING#';

const queuePartition = (subscriptionId: string) => `HOOKQ#${subscriptionId}`;
const queueKey = (subscriptionId: string) => ({ PK: queuePartition(subscriptionId), SK: '#QUEUE' });
const deliveryKey = (d: Pick<Delivery, 'subscriptionId' | 'position'>) => ({
  PK: keys.deliveries(d.subscriptionId),
  SK: d.position,
});

const deliveryOf = (i: Record<string, any>): Delivery => ({
  subscriptionId: String(i.PK).slice('HOOK#'.length),
  position: i.SK,
  webhookId: i.webhookId,
  type: i.type,
  body: i.body,
  state: i.state,
  attempts: i.attempts ?? [],
  attemptCount: i.attemptCount ?? 0,
  ...(i.due !== undefined && { due: i.due }),
  ...(i.queuedAt !== undefined && { queuedAt: i.queuedAt }),
});

/** What follows an attempt for the delivery's item: delivered or failed for good (out of its queue), or still queued. */
export type Outcome = { state: 'delivered' | 'failed' } | { state: 'pending'; due?: Micros };

/** One recorded attempt: the delivery as read (its attempt count is the write's condition), the attempt, the outcome. */
export interface Settled {
  delivery: Delivery;
  attempt: Attempt;
  next: Outcome;
}

/** Transactions of one call sent at once (each of up to 100 items). */
const PARALLEL_TRANSACTIONS = 2;

/** Writes in transactions of at most 100 items; returns the indexes whose condition failed (the rest are written). */
async function transactAll(writes: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<Set<number>> {
  const lost = new Set<number>();
  const chunks: number[] = [];
  for (let at = 0; at < writes.length; at += MAX_TRANSACTION_ITEMS) chunks.push(at);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const at = chunks[next++]!;
      for (const i of await transactChunk(writes.slice(at, at + MAX_TRANSACTION_ITEMS))) lost.add(at + i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_TRANSACTIONS, chunks.length) }, worker));
  return lost;
}

/** One transaction: a failed condition cancels all of it, so it is sent again without the items that lost. */
async function transactChunk(writes: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<number[]> {
  const lost: number[] = [];
  let batch = writes.map((w, i) => ({ w, i }));
  // A conflict with another transaction on the same item is tried again, a few times.
  for (let round = 0; batch.length && round < 10; round++) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: batch.map((b) => b.w) }));
      batch = [];
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      const failed = new Set(reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : [])));
      for (const i of failed) lost.push(batch[i]!.i);
      batch = batch.filter((_, i) => !failed.has(i));
      if (!failed.size) await new Promise((r) => setTimeout(r, 20 * (round + 1)));
    }
  }
  if (batch.length) throw new Error('webhook deliveries: transaction conflicts did not clear');
  return lost;
}

export type NewDelivery = Omit<Delivery, 'state' | 'attempts' | 'attemptCount'>;

/** A delivery's whole item: in its subscription's queue while pending and `queued`. */
const deliveryItem = (d: Delivery, queued: boolean) => ({
  ...deliveryKey(d),
  entity: 'delivery',
  schemaVersion: SCHEMA_VERSION,
  webhookId: d.webhookId,
  type: d.type,
  body: d.body,
  state: d.state,
  attempts: d.attempts,
  attemptCount: d.attemptCount,
  ...(d.due !== undefined && { due: d.due }),
  ...(queued && { GSI2PK: queuePartition(d.subscriptionId), GSI2SK: d.position }),
});

/** Puts each item unless its delivery is there already (`attribute_not_exists`); returns the indexes written. */
async function putNew(items: readonly Record<string, unknown>[]): Promise<Set<number>> {
  const TableName = tableName();
  const lost = await transactAll(
    items.map((Item) => ({ Put: { TableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } })),
  );
  return new Set(items.flatMap((_, i) => (lost.has(i) ? [] : [i])));
}

/** The object of a delivery's position (`<time>#<kind>#<id>#<seq>`; a ping's is its own). */
const objectOfPosition = (position: string) => position.split('#').slice(1, 3).join('#');

/**
 * Writes new delivery items; returns the indexes written. `firstHandling`: their change was never handed before (its
 * first receive: the FIFO queue deduplicates the pipe's records by `eventID`), so nothing else writes them: plain batch
 * writes. Otherwise one there already (written by the handling that failed) is left as it is.
 *
 * In ranks: each subscription's first delivery of an object, then its second, and so on, one rank written before the
 * next goes, each queued one stamped `queuedAt` as its rank goes. The sweep sends a queued delivery only once that
 * stamp is older than the index's settle (`settled`), and by then the index shows every earlier delivery of its
 * object (written before the stamp was taken): a batch's parallel writes, or a lagging index, never let a later
 * change out of the queue ahead of an earlier one. A batch holds one change of most objects: one rank.
 */
async function writeNew(items: readonly Record<string, unknown>[], firstHandling: boolean): Promise<Set<number>> {
  const ranks: number[][] = [];
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const group = `${String(item.PK)}|${objectOfPosition(String(item.SK))}`;
    const rank = seen.get(group) ?? 0;
    seen.set(group, rank + 1);
    if (!ranks[rank]) ranks[rank] = [];
    ranks[rank].push(i);
  });
  const written = new Set<number>();
  for (const rank of ranks) {
    const queuedAt = requestNow();
    const stamped = rank.map((i) => ({ ...items[i], ...(items[i]!.GSI2PK !== undefined && { queuedAt }) }));
    if (firstHandling) {
      await putAll(stamped);
      for (const i of rank) written.add(i);
    } else for (const j of await putNew(stamped)) written.add(rank[j]!);
  }
  return written;
}

/**
 * New deliveries for a subscription whose queue is open: pending, in the queue (behind what waits there); one there
 * already (the stream handed its change again) is left as it is.
 */
export async function queueDeliveries(ds: readonly NewDelivery[], firstHandling = false): Promise<void> {
  const items = ds.map((d) => deliveryItem({ ...d, state: 'pending', attempts: [], attemptCount: 0 }, true));
  await writeNew(items, firstHandling);
}

/**
 * The first attempts of a batch, recorded with their deliveries, one put each: a delivery is written once it has
 * been sent, never before, so a retry sweep never finds one under way. Delivered or failed for good (outside the
 * queue), or pending (in its subscription's queue, where the sweep sends it). `queued`: deliveries not attempted
 * (behind what waits for their subscription) go into the queue in the same requests. A delivery there already
 * (written by an earlier handling of its change) is left as it is; returns the attempts recorded. `firstHandling`: as
 * `writeNew`.
 */
export async function recordFirstAttempts(
  settled: readonly Settled[],
  queued: readonly NewDelivery[] = [],
  firstHandling = false,
) {
  const items = [
    ...settled.map(({ delivery: d, attempt, next }) =>
      deliveryItem(
        {
          ...d,
          state: next.state,
          attempts: [attempt],
          attemptCount: 1,
          ...(next.state === 'pending' && next.due !== undefined && { due: next.due }),
        },
        next.state === 'pending',
      ),
    ),
    ...queued.map((d) => deliveryItem({ ...d, state: 'pending', attempts: [], attemptCount: 0 }, true)),
  ];
  const written = await writeNew(items, firstHandling);
  return settled.filter((_, i) => written.has(i));
}

/** Those of these deliveries written already (read consistently, keys only, 100 a request). */
export async function storedDeliveries<D extends Pick<Delivery, 'subscriptionId' | 'position'>>(
  ds: readonly D[],
): Promise<D[]> {
  const found = new Set((await batchGet(ds.map(deliveryKey), 'PK, SK')).map((i) => `${i.PK}|${i.SK}`));
  return ds.filter((d) => found.has(`${deliveryKey(d).PK}|${d.position}`));
}

/** A pending delivery joins its subscription's queue (where the sweep finds it). */
const joinWrite = (TableName: string, d: Pick<Delivery, 'subscriptionId' | 'position'>) => ({
  Update: {
    TableName,
    Key: deliveryKey(d),
    UpdateExpression: 'SET GSI2PK = :q, GSI2SK = :sk, queuedAt = :now',
    ConditionExpression: '#state = :pending',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: {
      ':q': queuePartition(d.subscriptionId),
      ':sk': d.position,
      ':pending': 'pending',
      ':now': requestNow(),
    },
  },
});

/**
 * Records the sweep's attempts of written deliveries, 100 to a request: delivered or failed for good (out of the
 * queue), or still pending (in its subscription's queue). Each holds on the count of attempts read, so two senders
 * that took the same delivery record it once; returns those recorded.
 */
export async function recordAttempts(settled: readonly Settled[]): Promise<Settled[]> {
  const TableName = tableName();
  const lost = await transactAll([
    ...settled.map(({ delivery: d, attempt, next }) => {
      const pending = next.state === 'pending';
      return {
        Update: {
          TableName,
          Key: deliveryKey(d),
          UpdateExpression: pending
            ? `SET #state = :state, attempts = :attempts, attemptCount = :n, GSI2PK = :q, GSI2SK = :sk${next.due === undefined ? ' REMOVE due' : ', due = :due'}`
            : 'SET #state = :state, attempts = :attempts, attemptCount = :n REMOVE due, GSI2PK, GSI2SK',
          ConditionExpression: 'attemptCount = :was',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':state': next.state,
            ':attempts': [...d.attempts, attempt].slice(-KEPT_ATTEMPTS),
            ':n': d.attemptCount + 1,
            ':was': d.attemptCount,
            ...(pending && { ':q': queuePartition(d.subscriptionId), ':sk': d.position }),
            ...(pending && next.due !== undefined && { ':due': next.due }),
          },
        },
      };
    }),
  ]);
  return settled.filter((_, i) => !lost.has(i));
}

/**
 * Deliveries written already by an earlier handling of their change (its batch failed after writing them): those
 * still pending stay in (or join) their subscription's queue, whose sweep sends them, and are returned.
 */
export async function requeue<D extends Pick<Delivery, 'subscriptionId' | 'position'>>(ds: readonly D[]): Promise<D[]> {
  const TableName = tableName();
  const lost = await transactAll(ds.map((d) => joinWrite(TableName, d)));
  return ds.filter((_, i) => !lost.has(i));
}

/** Deliveries by key, read consistently (BatchGet, 100 keys a request); those not found are left out. */
async function getDeliveries(wanted: readonly Pick<Delivery, 'subscriptionId' | 'position'>[]): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (const items of await batchGet(wanted.map(deliveryKey))) out.push(deliveryOf(items));
  return out;
}

/** A subscription's queue as the fan-out and the sweep read it. */
export interface Queue {
  subscriptionId: string;
  /** When the sweep next takes it up: the circuit's next try of a failing receiver (or now: work waits). */
  due: Micros;
  /** Counts every time deliveries joined it: the sweep closes it only if none joined since it read. */
  generation: number;
  /** When deliveries last joined it (the index shows them within seconds: a queue is closed only after that). */
  lastQueued: Micros;
  /**
   * Parked (its receiver failed a retry): the fan-out skips the subscription and what it owes is in the webhook
   * log after this key; the sweep copies it into the queue once the queue is empty. Absent: not parked.
   */
  logCursor?: string;
  /** Resuming: the subscription was unparked at this time; the log is copied up to it (and its settle) before any send. */
  liveFrom?: Micros;
}
export const queueOf = (i: Record<string, any>): Queue => ({
  subscriptionId: String(i.PK).slice('HOOKQ#'.length),
  due: i.due,
  ...(i.logCursor !== undefined && { logCursor: String(i.logCursor) }),
  ...(i.liveFrom !== undefined && { liveFrom: Number(i.liveFrom) }),
  generation: i.generation ?? 0,
  lastQueued: i.lastQueued ?? 0,
});

/** The open queues of these subscriptions (read consistently): a subscription with one gets no first attempts. */
export async function openQueues(subscriptionIds: readonly string[]): Promise<Map<string, Queue>> {
  const found = await batchGet(subscriptionIds.map(queueKey));
  return new Map(found.map((i) => [queueOf(i).subscriptionId, queueOf(i)]));
}

/**
 * Deliveries joined (or stay in) the subscription's queue: it is opened, due at `due` unless it was open already
 * (then its schedule stands), and its generation moves so a sweep closing it meanwhile leaves it open. `lastQueued` is
 * the time of this call, after the deliveries were written (never their batch's start, which under load can be seconds
 * before: a sweep would then take the join as settled while the index did not show them yet, close the queue, and the
 * subscription's next change would go out ahead of them).
 */
export async function openQueue(subscriptionId: string, due: Micros): Promise<void> {
  const now = requestNow();
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: queueKey(subscriptionId),
      UpdateExpression:
        'SET entity = :entity, GSI2PK = :work, due = if_not_exists(due, :due), GSI2SK = if_not_exists(GSI2SK, :sk), lastQueued = :now ADD generation :one',
      ExpressionAttributeValues: {
        ':entity': 'deliveryQueue',
        ':work': keys.work(WEBHOOKS_BOT),
        ':due': due,
        ':sk': `${sortableUtc(due)}#${subscriptionId}`,
        ':now': now,
        ':one': 1,
      },
    }),
  );
}

/** The sweep takes the queue up again at `due` (the circuit's next try, or at once when more waits). */
export async function rescheduleQueue(subscriptionId: string, due: Micros): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: queueKey(subscriptionId),
        UpdateExpression: 'SET due = :due, GSI2SK = :sk',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':due': due, ':sk': `${sortableUtc(due)}#${subscriptionId}` },
      }),
    )
    .catch(ignoreLost);
}

/** A disabled subscription's queue leaves the sweep's index, its deliveries kept (pending, unsent) as they are. */
export async function holdQueue(subscriptionId: string): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: queueKey(subscriptionId),
        UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    )
    .catch(ignoreLost);
}

/** An enabled subscription's held queue (if it has one) is due at once again: the sweep sends what waited, in order. */
export async function resumeQueue(subscriptionId: string): Promise<void> {
  const now = requestNow();
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: queueKey(subscriptionId),
        UpdateExpression: 'SET GSI2PK = :work, GSI2SK = :sk, due = :due',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: {
          ':work': keys.work(WEBHOOKS_BOT),
          ':sk': `${sortableUtc(now)}#${subscriptionId}`,
          ':due': now,
        },
      }),
    )
    .catch(ignoreLost);
}

/**
 * A sweep takes the queue up: its due time moves to `until` if it is still the one read, so a second sweep under way
 * at once (scheduled runs may overlap in AWS) neither finds it due nor takes it: one sender per queue. False when
 * another took it first.
 */
export async function claimQueue(q: Queue, until: Micros): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: queueKey(q.subscriptionId),
        UpdateExpression: 'SET due = :until, GSI2SK = :sk',
        ConditionExpression: 'due = :was',
        ExpressionAttributeValues: {
          ':until': until,
          ':sk': `${sortableUtc(until)}#${q.subscriptionId}`,
          ':was': q.due,
        },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

/**
 * The queue is empty: closed (first attempts go out at once again), unless deliveries joined it since it was read, or
 * so recently that the index may not show them yet (`settledBefore`); false then, and it stays open.
 */
export async function closeQueue(q: Queue, settledBefore: Micros): Promise<boolean> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: queueKey(q.subscriptionId),
        ConditionExpression: 'generation = :g AND lastQueued < :settled AND attribute_not_exists(logCursor)',
        ExpressionAttributeValues: { ':g': q.generation, ':settled': settledBefore },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

/** The queue item's key, for the transaction that deletes its subscription (its pending work goes with it). */
export const queueItemKey = queueKey;

/** The queues due at `now`, oldest first (at most `limit`): a Query of the work index, then their items. */
export async function dueQueues(now: Micros, limit = 100): Promise<Queue[]> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :due',
      ExpressionAttributeValues: { ':pk': keys.work(WEBHOOKS_BOT), ':due': `${sortableUtc(now)}~` },
      Limit: limit,
    }),
  );
  const found = await batchGet((page.Items ?? []).map((i) => ({ PK: i.PK, SK: i.SK })));
  // Deliveries an earlier release put on the work index themselves join their subscription's queue.
  const legacy = found.filter((i) => i.entity === 'delivery').map(deliveryOf);
  await transactAll(
    legacy.map((d) => ({
      Update: {
        TableName: tableName(),
        Key: deliveryKey(d),
        UpdateExpression: 'SET GSI2PK = :q, GSI2SK = :sk',
        ExpressionAttributeValues: { ':q': queuePartition(d.subscriptionId), ':sk': d.position },
      },
    })),
  );
  for (const id of new Set(legacy.map((d) => d.subscriptionId))) await openQueue(id, now);
  // Still due once read (the index lags the table): another sweep may have taken it meanwhile.
  return found
    .filter((i) => i.entity === 'deliveryQueue')
    .map(queueOf)
    .filter((q) => q.due <= now)
    .sort((a, b) => a.due - b.due);
}

/**
 * The first `limit` deliveries waiting in a subscription's queue, in position (change) order; `more` when the index
 * holds more than the page (counted on the index, not on what is still pending of it: a page of fewer pending ones
 * than entries is not the queue's end).
 */
export async function queuedDeliveries(
  subscriptionId: string,
  limit: number,
): Promise<{ waiting: Delivery[]; more: boolean }> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': queuePartition(subscriptionId) },
      Limit: limit,
    }),
  );
  const wanted = (page.Items ?? []).map((i) => ({ subscriptionId, position: String(i.SK) }));
  const waiting = (await getDeliveries(wanted))
    .filter((d) => d.state === 'pending')
    .sort((a, b) => a.position.localeCompare(b.position));
  return { waiting, more: page.LastEvaluatedKey !== undefined };
}

/** A subscription's newest deliveries first (at most `limit`). */
export async function listDeliveries(subscriptionId: string, limit: number): Promise<Delivery[]> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.deliveries(subscriptionId) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (page.Items ?? []).map(deliveryOf);
}

/**
 * Replay: the deliveries that follow `after` (a change's position; pings excluded), at most `limit`, join their
 * subscription's queue again whatever became of them, keeping their attempts (written 100 to a request), and the
 * queue is due at `now`. Returns how many and the last one's position.
 */
export async function replayAfter(subscriptionId: string, after: string, now: Micros, limit: number) {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :after AND :end',
      ExpressionAttributeValues: {
        ':pk': keys.deliveries(subscriptionId),
        ':after': `${after}\u0000`,
        ':end': PING_PREFIX,
      },
      ProjectionExpression: 'PK, SK',
      Limit: limit,
    }),
  );
  const items = page.Items ?? [];
  const TableName = tableName();
  await transactAll(
    items.map((i) => ({
      Update: {
        TableName,
        Key: { PK: i.PK, SK: i.SK },
        UpdateExpression: 'SET #state = :pending, GSI2PK = :q, GSI2SK = :sk, queuedAt = :now REMOVE due',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':q': queuePartition(subscriptionId),
          ':sk': i.SK,
          ':now': now,
        },
      },
    })),
  );
  if (items.length) await openQueue(subscriptionId, now);
  return {
    count: items.length,
    last: items.length ? String(items.at(-1)!.SK) : undefined,
    more: !!page.LastEvaluatedKey,
  };
}

/**
 * Parks a queue: what its subscription owes from now on is read from the log after `cursor`. A queue parked already
 * keeps its cursor (two senders that both saw the receiver fail must not skip what was logged between them).
 */
export async function parkQueue(subscriptionId: string, cursor: string): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: queueKey(subscriptionId),
        UpdateExpression: 'SET logCursor = if_not_exists(logCursor, :c)',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':c': cursor },
      }),
    )
    .catch(ignoreLost);
}

/** The queue's log state: parked from `cursor`, resuming since `liveFrom`, or neither (both removed). */
export async function setQueueLog(subscriptionId: string, log: { cursor?: string; liveFrom?: Micros }) {
  const sets = [
    ...(log.cursor !== undefined ? ['logCursor = :c'] : []),
    ...(log.liveFrom !== undefined ? ['liveFrom = :l'] : []),
  ];
  const removes = [
    ...(log.cursor === undefined ? ['logCursor'] : []),
    ...(log.liveFrom === undefined ? ['liveFrom'] : []),
  ];
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: queueKey(subscriptionId),
        UpdateExpression: [
          sets.length ? `SET ${sets.join(', ')}` : '',
          removes.length ? `REMOVE ${removes.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join(' '),
        ConditionExpression: 'attribute_exists(PK)',
        ...((log.cursor !== undefined || log.liveFrom !== undefined) && {
          ExpressionAttributeValues: {
            ...(log.cursor !== undefined && { ':c': log.cursor }),
            ...(log.liveFrom !== undefined && { ':l': log.liveFrom }),
          },
        }),
      }),
    )
    .catch(ignoreLost);
}

const ignoreLost = (error: unknown) => {
  if (!isConditionFailure(error)) throw error;
};
