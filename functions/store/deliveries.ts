import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { sortableUtc, type Micros } from '#domain/kernel/time.ts';
import type { Attempt, Delivery } from '#domain/webhooks/deliveries.ts';
import { documentClient, tableName } from './client.ts';
import { written } from './errors.ts';
import { keys, SCHEMA_VERSION } from './table-design.ts';

/**
 * A subscription's deliveries: one item per change sent to it (`HOOK#<subscription>`, by the change's position), with
 * the message as first signed (so every retry and replay sends the same bytes under the same `webhook-id`), its
 * attempts and, while one is due, its place on the work index (`WORK#webhooks`, by due time): the retry sweep Queries
 * what is due, never Scans.
 */
export const WEBHOOKS_BOT = 'webhooks';
/** Attempts kept on a delivery (the newest): a delivery retried for days stays a small item. */
const KEPT_ATTEMPTS = 20;
export type { Attempt, Delivery };
/** Pings sort after every change's position (a year's digits): a replay from a cursor never takes them. */
export const PING_PREFIX = '~PING#';

const workKeys = (d: Pick<Delivery, 'subscriptionId' | 'position'>, due: Micros) => ({
  GSI2PK: keys.work(WEBHOOKS_BOT),
  GSI2SK: `${sortableUtc(due)}#${d.subscriptionId}#${d.position}`,
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
});

/**
 * A crashed first attempt is taken up by the retry sweep this long after the put: the first attempt itself follows
 * the put at once, and the sweep must not send it a second time meanwhile.
 */
export const FIRST_ATTEMPT_GRACE: Micros = 60_000_000;

/**
 * A new delivery, its first attempt under way (due for the sweep only after `FIRST_ATTEMPT_GRACE`, should that attempt
 * never be recorded); false when it was there already (the stream hands a change at least once).
 */
export async function putDelivery(d: Omit<Delivery, 'state' | 'attempts' | 'attemptCount'>, now: Micros) {
  return written(
    documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          PK: keys.deliveries(d.subscriptionId),
          SK: d.position,
          entity: 'delivery',
          schemaVersion: SCHEMA_VERSION,
          webhookId: d.webhookId,
          type: d.type,
          body: d.body,
          state: 'pending',
          attempts: [],
          attemptCount: 0,
          due: now + FIRST_ATTEMPT_GRACE,
          ...workKeys(d, now + FIRST_ATTEMPT_GRACE),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
  );
}

/**
 * Records an attempt: delivered or failed for good (off the work index), or due again at `due`. It holds on the count
 * of attempts read, so two sweeps that picked the same delivery record it once; false when the other one won.
 */
export async function recordAttempt(
  d: Delivery,
  attempt: Attempt,
  next: { state: 'delivered' | 'failed' } | { state: 'pending'; due: Micros },
): Promise<boolean> {
  const attempts = [...d.attempts, attempt].slice(-KEPT_ATTEMPTS);
  const pending = next.state === 'pending';
  return written(
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: keys.deliveries(d.subscriptionId), SK: d.position },
        UpdateExpression: pending
          ? 'SET #state = :state, attempts = :attempts, attemptCount = :n, due = :due, GSI2PK = :wpk, GSI2SK = :wsk'
          : 'SET #state = :state, attempts = :attempts, attemptCount = :n REMOVE due, GSI2PK, GSI2SK',
        ConditionExpression: 'attemptCount = :was',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':state': next.state,
          ':attempts': attempts,
          ':n': d.attemptCount + 1,
          ':was': d.attemptCount,
          ...(pending && {
            ':due': next.due,
            ':wpk': workKeys(d, next.due).GSI2PK,
            ':wsk': workKeys(d, next.due).GSI2SK,
          }),
        },
      }),
    ),
  );
}

/** The deliveries due at `now`, oldest first (at most `limit`): a Query of the work index, then their items. */
export async function dueDeliveries(now: Micros, limit = 200): Promise<Delivery[]> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :due',
      ExpressionAttributeValues: { ':pk': keys.work(WEBHOOKS_BOT), ':due': `${sortableUtc(now)}~` },
      Limit: limit,
    }),
  );
  const wanted = (page.Items ?? []).map((i) => ({ PK: i.PK, SK: i.SK }));
  const out: Delivery[] = [];
  for (let at = 0; at < wanted.length; at += 100) {
    let Keys: Record<string, unknown>[] | undefined = wanted.slice(at, at + 100);
    while (Keys?.length) {
      const got: BatchGetCommandOutput = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys, ConsistentRead: true } } }),
      );
      out.push(...(got.Responses?.[tableName()] ?? []).map(deliveryOf));
      Keys = got.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  // Still due once read (the index lags the table): another sweep may have sent it meanwhile.
  return out.filter((d) => d.state === 'pending' && (d.due ?? 0) <= now).sort(byDue);
}
const byDue = (a: Delivery, b: Delivery) => (a.due ?? 0) - (b.due ?? 0) || a.position.localeCompare(b.position);

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
 * Replay: the deliveries that follow `after` (a change's position; pings excluded), at most `limit`, are due again at
 * `now` whatever became of them, keeping their attempts. Returns how many and the last one's position.
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
  for (const i of items) {
    const d = { subscriptionId, position: String(i.SK) };
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: i.PK, SK: i.SK },
        UpdateExpression: 'SET #state = :pending, due = :now, GSI2PK = :wpk, GSI2SK = :wsk',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':now': now,
          ':wpk': workKeys(d, now).GSI2PK,
          ':wsk': workKeys(d, now).GSI2SK,
        },
      }),
    );
  }
  return {
    count: items.length,
    last: items.length ? String(items.at(-1)!.SK) : undefined,
    more: !!page.LastEvaluatedKey,
  };
}
