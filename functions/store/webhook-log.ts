import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { sortableUtc, type Micros } from '#domain/kernel/time.ts';
import type { ObjectChange } from '#domain/webhooks/events.ts';
import { documentClient, tableName } from './client.ts';
import { sendStamped } from './feeds.ts';
import { SCHEMA_VERSION } from './table-design.ts';

/**
 * The webhook log: what the fan-out owes parked subscriptions, a batch's changes an item, in stamp order; their
 * queues hold a cursor into it (store/deliveries.ts `parkQueue`), and the sweep copies from it (runtime/webhooks.ts).
 */

/** The webhook log's partition: what the fan-out owes parked subscriptions, batch by batch, in stamp order. */
const LOG_PARTITION = 'HOOKLOG';
/** A log entry is kept this long: a parked subscription is disabled after 5 days of failures. */
const LOG_KEPT_S = 7 * 24 * 3600;

/**
 * Changes in one log entry at most (a change is about 200 bytes: far below an item's 400 KB). A batch holds 10; one
 * that read missing changes from the change log may hold more, and is logged in several entries of the same stamp.
 */
const LOG_ENTRY_CHANGES = 500;

/** One entry of the webhook log: a batch's changes, under its stamp. */
export interface LogEntry {
  key: string;
  changes: ObjectChange[];
}

/**
 * A batch whose changes some parked subscription would hear writes them once, here, instead of a delivery per
 * subscription: one item, keyed by `stamp` (the time the batch read which subscriptions are parked) and sent within
 * the feeds' budget of it (store/feeds.ts `sendStamped`), so a sweep reading up to the settle horizon misses none.
 */
export async function logChanges(stamp: Micros, changes: readonly ObjectChange[]): Promise<void> {
  const chunks: ObjectChange[][] = [];
  for (let at = 0; at < changes.length; at += LOG_ENTRY_CHANGES) chunks.push(changes.slice(at, at + LOG_ENTRY_CHANGES));
  const batch = randomUUID();
  await Promise.all(
    chunks.map((chunk, n) =>
      sendStamped(
        new PutCommand({
          TableName: tableName(),
          Item: {
            PK: LOG_PARTITION,
            // A batch's entries in their order (its changes are in position order).
            SK: `${sortableUtc(stamp)}#${batch}#${String(n).padStart(4, '0')}`,
            entity: 'webhookLog',
            schemaVersion: SCHEMA_VERSION,
            changes: chunk,
            ttl: Math.floor(stamp / 1_000_000) + LOG_KEPT_S,
          },
        }),
        stamp,
      ),
    ),
  );
}

/** The log's entries after `after` up to `through` (keys), at most `limit`, oldest first. */
export async function loggedChanges(after: string, through: string, limit: number) {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': LOG_PARTITION, ':from': `${after}\u0000`, ':to': through },
      Limit: limit,
    }),
  );
  const entries: LogEntry[] = (page.Items ?? []).map((i) => ({ key: String(i.SK), changes: i.changes ?? [] }));
  return { entries, more: page.LastEvaluatedKey !== undefined };
}

/** A log key at `at`: every entry stamped at or before it sorts at or before it. */
export const logKeyAt = (at: Micros) => `${sortableUtc(at)}#~`;
