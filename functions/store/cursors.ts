import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ASSET_TYPES } from '#domain/assets/types/catalog.ts';
import { AUCTION_TYPES } from '#domain/auctions/catalog.ts';
import type { LaneHead } from '#domain/journal/journal.ts';
import { type Micros, sortableUtc } from '#domain/kernel/time.ts';
import type { Cursor } from '#domain/webhooks/cursor.ts';
import type { ObjectKind } from '#domain/webhooks/events.ts';
import { batchGet } from './batch-items.ts';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { keys, SCHEMA_VERSION } from './table-design.ts';

/**
 * The subscriptions' cursors (domain/webhooks/cursor.ts): one item per subscription and lane, in the subscription's
 * partition (`SUBSCRIPTION#<id>` / `CURSOR#<lane>`), made with it at the lanes' heads. A cursor that has work it must
 * come back to (a retry due, or a sender's lease, should that sender stop) is on the work index (`WORK#webhooks`, by
 * due time): the retry sweep Queries what is due, never Scans, and the index holds at most one item per subscription
 * and lane however much a failing receiver is owed.
 */
export const WEBHOOKS_BOT = 'webhooks';
const CURSOR_ENTITY = 'webhookCursor';

/** The kind of object each listing feed holds: the lanes a subscription's events reach. */
const FEEDS: readonly { feed: string; kind: ObjectKind }[] = [
  { feed: 'lots', kind: 'lot' },
  ...ASSET_TYPES.map((t) => ({ feed: t.feed, kind: 'asset' as const })),
  ...AUCTION_TYPES.map((t) => ({ feed: t.feed, kind: 'auction' as const })),
];
/** Every lane of the journal (each feed, and its test mode), with the kind of object it holds. */
export const LANES: readonly { lane: string; kind: ObjectKind }[] = FEEDS.flatMap(({ feed, kind }) => [
  { lane: keys.feed(feed, false), kind },
  { lane: keys.feed(feed, true), kind },
]);

const cursorKey = (subscriptionId: string, lane: string) => ({
  PK: `SUBSCRIPTION#${subscriptionId}`,
  SK: `CURSOR#${lane}`,
});
const workKey = (due: Micros, c: Pick<Cursor, 'subscriptionId' | 'lane'>) => ({
  GSI2PK: keys.work(WEBHOOKS_BOT),
  GSI2SK: `${sortableUtc(due)}#${c.subscriptionId}#${c.lane}`,
});

const cursorOf = (i: Record<string, any>): Cursor => ({
  subscriptionId: String(i.PK).slice('SUBSCRIPTION#'.length),
  lane: String(i.SK).slice('CURSOR#'.length),
  at: Number(i.sentThrough),
  from: Number(i.startedAt ?? 0),
  done: i.sentBeyond ?? [],
  failures: Number(i.failedPasses ?? 0),
  ...(i.failingSince !== undefined && { failingSince: i.failingSince }),
  ...(i.due !== undefined && { due: i.due }),
  ...(i.waitingOn && { waitingOn: i.waitingOn }),
  ...(i.recent && { recent: i.recent }),
});

/** The lanes' heads as they stand (a lane with none yet: at 0). */
export async function laneHeads(): Promise<Map<string, LaneHead>> {
  const items = await batchGet(LANES.map(({ lane }) => keys.journalHead(lane)));
  return new Map(items.map((i) => [String(i.lane), { next: Number(i.next), stamp: Number(i.stamp) }]));
}

/**
 * A new subscription's cursors, at the lanes' heads as read before its creation (puts for its creating transaction):
 * it is owed what is journaled after; a change journaled meanwhile is sent too, never one missed.
 */
export function newCursors(subscriptionId: string, heads: ReadonlyMap<string, LaneHead>) {
  return LANES.map(({ lane }) => {
    const at = (heads.get(lane)?.next ?? 1) - 1;
    return {
      ...cursorKey(subscriptionId, lane),
      entity: CURSOR_ENTITY,
      schemaVersion: SCHEMA_VERSION,
      startedAt: at,
      sentThrough: at,
      failedPasses: 0,
    };
  });
}

/** The cursor items' keys of a subscription (to delete with it). */
export const cursorKeys = (subscriptionId: string) => LANES.map(({ lane }) => cursorKey(subscriptionId, lane));

/** A subscription's cursors, read consistently (one Query). */
export async function subscriptionCursors(subscriptionId: string): Promise<Cursor[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :cursor)',
      ExpressionAttributeValues: { ':pk': `SUBSCRIPTION#${subscriptionId}`, ':cursor': 'CURSOR#' },
      ConsistentRead: true,
    }),
  );
  return Items.map(cursorOf);
}

/**
 * Takes a cursor to send what follows it: only when no sender holds it (or its lease ran out on the wall clock: that
 * sender stopped) and no retry is waiting (`due` passed on the service clock). The lease puts it on the work index at its end, so the sweep finds it
 * should this sender stop. Returns the cursor as taken, or undefined (someone else sends it, or it waits).
 */
export async function takeCursor(
  c: Pick<Cursor, 'subscriptionId' | 'lane'>,
  token: string,
  now: Micros,
  wallNow: Micros,
  until: Micros,
): Promise<Cursor | undefined> {
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: cursorKey(c.subscriptionId, c.lane),
        UpdateExpression: 'SET leaseToken = :token, leaseUntil = :until, GSI2PK = :work, GSI2SK = :sk REMOVE due',
        ConditionExpression:
          'attribute_exists(PK) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :wall) AND (attribute_not_exists(due) OR due <= :now)',
        ExpressionAttributeValues: {
          ':token': token,
          ':until': until,
          ':now': now,
          ':wall': wallNow,
          ':work': keys.work(WEBHOOKS_BOT),
          ':sk': workKey(until, c).GSI2SK,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? cursorOf(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** What a sender writes of a cursor it holds: where it stands now, and whether it keeps the lease or lets it go. */
const progress = (c: Cursor) => ({
  ':at': c.at,
  ':done': c.done,
  ':failures': c.failures,
  ':recent': c.recent ?? [],
});
const PROGRESS = 'sentThrough = :at, sentBeyond = :done, failedPasses = :failures, recent = :recent';
const optional = (c: Cursor) =>
  [
    c.failingSince !== undefined ? 'failingSince = :since' : undefined,
    c.waitingOn !== undefined ? 'waitingOn = :waitingOn' : undefined,
  ].filter(Boolean);
const optionalValues = (c: Cursor) => ({
  ...(c.failingSince !== undefined && { ':since': c.failingSince }),
  ...(c.waitingOn !== undefined && { ':waitingOn': c.waitingOn }),
});
const removedOptional = (c: Cursor) =>
  [
    c.failingSince === undefined ? 'failingSince' : undefined,
    c.waitingOn === undefined ? 'waitingOn' : undefined,
  ].filter(Boolean);

/**
 * Moves a cursor its sender holds (the lease is its token, `at` what it read): the sends are answered. `until`: the
 * lease goes on (the sender reads on), or `due`: the sender lets it go and the sweep comes back then (a retry, or the
 * rest of a long backlog). Returns false when the cursor is not the one read (a replay moved it, or the lease ran out
 * and another sender took it): this sender stops.
 */
export async function moveCursor(
  c: Cursor,
  read: number,
  token: string,
  next: { until: Micros } | { due: Micros },
): Promise<boolean> {
  const keep = 'until' in next;
  const set = [PROGRESS, ...optional(c), 'GSI2PK = :work, GSI2SK = :sk', keep ? 'leaseUntil = :until' : 'due = :due'];
  const remove = [...removedOptional(c), ...(keep ? [] : ['leaseToken', 'leaseUntil'])];
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: cursorKey(c.subscriptionId, c.lane),
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: 'leaseToken = :token AND sentThrough = :read',
        ExpressionAttributeValues: {
          ...progress(c),
          ...optionalValues(c),
          ':token': token,
          ':read': read,
          ':work': keys.work(WEBHOOKS_BOT),
          ':sk': workKey(keep ? next.until : next.due, c).GSI2SK,
          ...(keep ? { ':until': next.until } : { ':due': next.due }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Lets a cursor go, caught up: its lease and its place on the work index go, in ONE transaction with a check that
 * its lane's head is still right after `c.at` (nothing was journaled after what this sender read). A fan-out that
 * found the cursor taken (its append committed after this sender's read) made that check fail: the sender reads on,
 * so no append is left unsent between a sender's last read and its letting go, whatever the timing.
 * Returns 'released', 'more' (the head moved: read on), or 'lost' (the cursor is not the one read: stop).
 */
export async function releaseCursor(c: Cursor, read: number, token: string): Promise<'released' | 'more' | 'lost'> {
  const TableName = tableName();
  const head = keys.journalHead(c.lane);
  const remove = ['leaseToken', 'leaseUntil', 'GSI2PK', 'GSI2SK', 'due', ...removedOptional(c)];
  const set = [PROGRESS, ...optional(c)];
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: cursorKey(c.subscriptionId, c.lane),
              UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
              ConditionExpression: 'leaseToken = :token AND sentThrough = :read',
              ExpressionAttributeValues: { ...progress(c), ...optionalValues(c), ':token': token, ':read': read },
            },
          },
          {
            ConditionCheck: {
              TableName,
              Key: head,
              ConditionExpression: c.at === 0 ? 'attribute_not_exists(PK)' : '#next = :next',
              ExpressionAttributeNames: c.at === 0 ? undefined : { '#next': 'next' },
              ExpressionAttributeValues: c.at === 0 ? undefined : { ':next': c.at + 1 },
            },
          },
        ],
      }),
    );
    return 'released';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons[0]?.Code === 'ConditionalCheckFailed' ? 'lost' : 'more';
  }
}

/** The cursors due for the sweep (a retry due, a lease run out, a backlog left): a Query of the work index. */
export async function dueCursors(now: Micros, limit = 100): Promise<Pick<Cursor, 'subscriptionId' | 'lane'>[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :due',
      ExpressionAttributeValues: { ':pk': keys.work(WEBHOOKS_BOT), ':due': `${sortableUtc(now)}~` },
      Limit: limit,
    }),
  );
  return Items.map((i) => {
    const [, subscriptionId, ...lane] = String(i.GSI2SK).split('#');
    return { subscriptionId: subscriptionId!, lane: lane.join('#') };
  });
}

/**
 * Moves a cursor back to `after` (a replay): what follows is sent again, from the next pass; a sender that holds it
 * finds it moved and stops. Only back (a cursor never skips what it has not sent), and not before where it started.
 * Returns how many positions it went back; undefined: no such cursor, or `after` is not between those two.
 */
export async function rewindCursor(
  subscriptionId: string,
  lane: string,
  after: number,
  now: Micros,
): Promise<number | undefined> {
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: cursorKey(subscriptionId, lane),
        UpdateExpression: 'SET sentThrough = :after, sentBeyond = :none, due = :now, GSI2PK = :work, GSI2SK = :sk',
        // Never before where it started: a subscription is owed nothing older than itself.
        ConditionExpression: 'attribute_exists(PK) AND sentThrough >= :after AND startedAt <= :after',
        ExpressionAttributeValues: {
          ':after': after,
          ':none': [],
          ':now': now,
          ':work': keys.work(WEBHOOKS_BOT),
          ':sk': workKey(now, { subscriptionId, lane }).GSI2SK,
        },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    return Number(Attributes?.sentThrough ?? after) - after;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * A subscription's cursors made due now (enabled again, or a sweep to look at once): each is sent from where it
 * stands at the sweep's next run, or the next append's fan-out.
 */
export async function wakeCursors(subscriptionId: string, now: Micros): Promise<void> {
  await Promise.all(
    LANES.map(({ lane }) =>
      documentClient()
        .send(
          new UpdateCommand({
            TableName: tableName(),
            Key: cursorKey(subscriptionId, lane),
            UpdateExpression: 'SET due = :now, GSI2PK = :work, GSI2SK = :sk',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: {
              ':now': now,
              ':work': keys.work(WEBHOOKS_BOT),
              ':sk': workKey(now, { subscriptionId, lane }).GSI2SK,
            },
          }),
        )
        .catch((error) => {
          if (!isConditionFailure(error)) throw error;
        }),
    ),
  );
}

/** A sender lets a cursor go as it stands, due at once (it failed mid-way: the next fan-out or sweep goes on). */
export async function abandonCursor(c: Pick<Cursor, 'subscriptionId' | 'lane'>, token: string, now: Micros) {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: cursorKey(c.subscriptionId, c.lane),
        UpdateExpression: 'SET due = :now, GSI2PK = :work, GSI2SK = :sk REMOVE leaseToken, leaseUntil',
        ConditionExpression: 'leaseToken = :token',
        ExpressionAttributeValues: {
          ':now': now,
          ':token': token,
          ':work': keys.work(WEBHOOKS_BOT),
          ':sk': workKey(now, c).GSI2SK,
        },
      }),
    )
    .catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
}

/** A cursor off the work index: its subscription is disabled (held where it is) or gone. */
export async function restCursor(c: Pick<Cursor, 'subscriptionId' | 'lane'>): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: cursorKey(c.subscriptionId, c.lane),
        UpdateExpression: 'REMOVE GSI2PK, GSI2SK, leaseToken, leaseUntil',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    )
    .catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
}
