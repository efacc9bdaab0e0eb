import { PutCommand, QueryCommand, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { sortableUtc, type Micros } from '#domain/kernel/time.ts';
import type { ObjectChange } from '#domain/webhooks/events.ts';
import { requestNow } from '#runtime/clock.ts';
import { config, FEED_SETTLE_MS } from '#runtime/config.ts';
import { documentClient, tableName } from './client.ts';
import { NotStoredError, OutcomeUnknownError } from './errors.ts';
import { SCHEMA_VERSION } from './table-design.ts';

/**
 * The webhook log: what the fan-out owes parked subscriptions, a batch's changes an item, in stamp order; their
 * queues hold a cursor into it (store/deliveries.ts `parkQueue`), and the sweep copies from it (runtime/webhooks.ts).
 */

/**
 * The webhook log's own time bound (the feeds read the journal since issue 52; parked subscriptions' log is the last
 * reader by time, until subscriptions follow the journal too). An entry's place is its stamp, taken *before* the write
 * commits; a sweep that has read past a stamp would never see an entry committed with it later. So the bound "stamp →
 * visible" is enforced, and the sweep never reads into it:
 *
 * - a write whose stamp is older than SEND_BUDGET_MS is not sent, at any attempt (the SDK's retries included: the
 *   check runs inside them, right before each attempt goes out); the request answers 503, nothing stored;
 * - DynamoDB applies a write it received, and the index shows it, within COMMIT_ALLOWANCE_MS (the one part we cannot
 *   enforce: DynamoDB's own processing, GSI propagation, usually well under a second, and the clock skew of two
 *   Lambdas, a few ms under NTP);
 * - a sweep reads no entry stamped later than now − the settle window (FEED_SETTLE_MS = SEND_BUDGET_MS +
 *   COMMIT_ALLOWANCE_MS = 3 s): every entry stamped at or before the horizon is visible by then.
 */
export const SEND_BUDGET_MS = 1000;
export const COMMIT_ALLOWANCE_MS = FEED_SETTLE_MS - SEND_BUDGET_MS;

/**
 * The local runtime's stand-in for the one part of the bound AWS keeps and DynamoDB Local under load does not (a write
 * it received is applied within COMMIT_ALLOWANCE_MS: a starved JVM took longer): the stamps of the writes sent and not
 * yet answered, counted per stamp, so a page's horizon stays below the oldest. On globalThis (every bundle's copy of
 * this module sees it); installed by the local gateway (`watchCommitsLocally`), never in Lambda.
 */
const COMMITS_UNDER_WAY = Symbol.for('agora.localCommitsUnderWay');
const globals = globalThis as Record<symbol, Map<Micros, number> | undefined>;
export function watchCommitsLocally(): void {
  globals[COMMITS_UNDER_WAY] ??= new Map();
}

/** Runs `send` (an attempt that passed the budget) with its stamp among the commits under way, when they are watched. */
export async function underWay<R>(stamp: Micros, send: () => Promise<R>): Promise<R> {
  const commits = globals[COMMITS_UNDER_WAY];
  if (!commits) return send();
  commits.set(stamp, (commits.get(stamp) ?? 0) + 1);
  try {
    return await send();
  } finally {
    const left = (commits.get(stamp) ?? 1) - 1;
    if (left > 0) commits.set(stamp, left);
    else commits.delete(stamp);
  }
}

/** The newest stamp a page may show now: rows stamped later are held back until they settle (and, watched, commit). */
export const horizon = (): string => {
  const settled = requestNow() - config().feedSettleMs * 1000;
  const commits = globals[COMMITS_UNDER_WAY];
  const oldest = commits?.size ? Math.min(...commits.keys()) : Number.POSITIVE_INFINITY;
  return sortableUtc(Math.min(settled, oldest - 1));
};

/** A write refused because its stamp is older than the budget: nothing was sent, so nothing is stored. */
export class LateWriteError extends NotStoredError {}

/**
 * A retry refused for the same reason after an attempt whose answer never came: that attempt may have been stored
 * (writeChange reads which).
 */
export class LateRetryError extends OutcomeUnknownError {}

/**
 * Sends a write whose rows are stamped `stamp` (a change's new `dateModified`), refusing each attempt that would go
 * out later than SEND_BUDGET_MS after it. Without a stamp (a change that moves no feed row) it is sent as it is.
 * (The middleware is anonymous: the document client copies a command's stack into the low-level command's.)
 */
export async function sendStamped(command: PutCommand | TransactWriteCommand, stamp: Micros | undefined) {
  // With no settle window (AGORA_FEED_SETTLE_MS=0) the feeds promise nothing, and no write is refused for time.
  if (stamp !== undefined && config().feedSettleMs > 0) {
    const inTime =
      <A, R>(next: (args: A) => Promise<R>) =>
      (args: A) => {
        if (requestNow() - stamp > SEND_BUDGET_MS * 1000) throw new LateWriteError();
        return underWay(stamp, () => next(args));
      };
    // After the SDK's retry middleware: once per attempt, right before it is sent.
    const options = { step: 'finalizeRequest', priority: 'low' } as const;
    if (command instanceof PutCommand) command.middlewareStack.add((next) => inTime(next), options);
    else command.middlewareStack.add((next) => inTime(next), options);
  }
  if (command instanceof PutCommand) await documentClient().send(command);
  else await documentClient().send(command);
}

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
 * the budget of it (`sendStamped`), so a sweep reading up to the settle horizon misses none.
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
