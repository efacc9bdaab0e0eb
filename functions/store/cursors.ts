import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
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
import { CURSOR_PREFIX, keyParts, keys, SCHEMA_VERSION } from './table-design.ts';

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

const cursorKey = keys.subscriptionCursor;
const workKey = (due: Micros, c: Pick<Cursor, 'subscriptionId' | 'lane'>) => ({
  GSI2PK: keys.work(WEBHOOKS_BOT),
  GSI2SK: `${sortableUtc(due)}#${c.subscriptionId}#${c.lane}`,
});

const cursorOf = (i: Record<string, any>): Cursor => ({
  subscriptionId: keyParts.subscriptionId(i.PK),
  lane: keyParts.cursorLane(i.SK),
  at: Number(i.sentThrough),
  from: Number(i.startedAt ?? 0),
  done: i.sentBeyond ?? [],
  failures: Number(i.failedPasses ?? 0),
  ...(i.failingSince !== undefined && { failingSince: i.failingSince }),
  ...(i.due !== undefined && { due: i.due }),
  ...(i.waitingOn && { waitingOn: i.waitingOn }),
  ...(i.recent && { recent: i.recent }),
});

/**
 * Which of these cursors a sender may take now, read consistently in bulk (100 to a request): none held by a live
 * lease, none waiting for a retry, and, unless `retries`, none failing. Read after an append committed, a cursor
 * left out is covered without a take: its holder's release checks the lane's head, its retry reads past the append.
 */
export async function takeable(
  cursors: readonly Which[],
  times: { now: Micros; wallNow: Micros },
  retries: boolean,
): Promise<Which[]> {
  const items = await batchGet(cursors.map((c) => cursorKey(c.subscriptionId, c.lane)));
  const held = new Set<string>();
  for (const i of items) {
    const c = cursorOf(i);
    const waits = c.due !== undefined && c.due > times.now;
    if (Number(i.leaseUntil ?? 0) >= times.wallNow || waits || (!retries && c.failures > 0))
      held.add(`${c.subscriptionId}|${c.lane}`);
  }
  return cursors.filter((c) => !held.has(`${c.subscriptionId}|${c.lane}`));
}

/** The lanes' heads as they stand (a lane with none yet: at 0). */
export async function laneHeads(): Promise<Map<string, LaneHead>> {
  const items = await batchGet(LANES.map(({ lane }) => keys.journalHead(lane)));
  return new Map(items.map((i) => [String(i.lane), { next: Number(i.next), stamp: Number(i.stamp) }]));
}

/**
 * A new subscription's cursors, at the lanes' heads as read before its creation (puts for its creating transaction):
 * it is owed what is journaled after; a change journaled meanwhile is sent too, never one missed (the creation wakes
 * the cursors of the lanes that moved meanwhile: a fan-out that read the list before the creation did not).
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
      ExpressionAttributeValues: { ':pk': keys.subscription(subscriptionId).PK, ':cursor': CURSOR_PREFIX },
      ConsistentRead: true,
    }),
  );
  return Items.map(cursorOf);
}

type Which = Pick<Cursor, 'subscriptionId' | 'lane'>;
type Key = Record<string, unknown>;

/**
 * One conditional update of a cursor as DynamoDB inputs: each attribute of `set` set, or removed when undefined (a
 * `due` or a lease puts it on the work index, by that time); the condition's values named `:c_<name>`.
 */
function cursorUpdate(c: Which, set: Record<string, unknown>, condition: string, values: Record<string, unknown> = {}) {
  const onIndex = set.due ?? set.leaseUntil;
  const all = {
    ...set,
    ...(onIndex !== undefined && { GSI2PK: keys.work(WEBHOOKS_BOT), GSI2SK: workKey(Number(onIndex), c).GSI2SK }),
  };
  const kept = Object.entries(all).filter(([, v]) => v !== undefined);
  const gone = Object.entries(all)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  return {
    TableName: tableName(),
    Key: cursorKey(c.subscriptionId, c.lane) as Key,
    UpdateExpression: [
      kept.length ? `SET ${kept.map(([k]) => `${k} = :${k}`).join(', ')}` : '',
      gone.length ? `REMOVE ${gone.join(', ')}` : '',
    ]
      .join(' ')
      .trim(),
    ConditionExpression: condition,
    // DynamoDB refuses an empty map here: a removal alone names no value.
    ...((kept.length || Object.keys(values).length) && {
      ExpressionAttributeValues: { ...Object.fromEntries(kept.map(([k, v]) => [`:${k}`, v])), ...values },
    }),
  };
}

/** Sends an update; false when its condition failed (the cursor is not as the caller read it, or is gone). */
async function updated(input: ReturnType<typeof cursorUpdate>): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Where a sender leaves a cursor: its progress; what is undefined is removed (healthy again: no failing time). */
const progress = (c: Cursor) => ({
  sentThrough: c.at,
  sentBeyond: c.done,
  failedPasses: c.failures,
  recent: c.recent ?? [],
  failingSince: c.failingSince,
  waitingOn: c.waitingOn,
});
const HELD = 'leaseToken = :c_token AND sentThrough = :c_read';
const NO_LEASE = { leaseToken: undefined, leaseUntil: undefined };
const OFF_INDEX = { GSI2PK: undefined, GSI2SK: undefined };

/**
 * Takes a cursor to send what follows it: only when no sender holds it (or its lease ran out on the wall clock: that
 * sender stopped) and no retry is waiting (`due` passed on the service clock); and, unless `retries` (the sweep), only
 * a healthy one: a retry is the sweep's, never an append's fan-out (a receiver that hangs holds the sweep, not the
 * pipe). The lease puts it on the work index at its end, so the sweep finds it should this sender stop. Returns the
 * cursor as taken, or, not taken (someone else sends it, or it waits), whether it waits for a retry or fails (the
 * failed condition's item, in the same request).
 */
export async function takeCursor(
  c: Which,
  token: string,
  times: { now: Micros; wallNow: Micros; until: Micros },
  retries: boolean,
): Promise<{ taken: Cursor } | { failing?: true }> {
  const input = cursorUpdate(
    c,
    { leaseToken: token, leaseUntil: times.until, due: undefined },
    `attribute_exists(PK) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :c_wall) AND (attribute_not_exists(due) OR due <= :c_now)${retries ? '' : ' AND (attribute_not_exists(failedPasses) OR failedPasses = :c_none)'}`,
    { ':c_wall': times.wallNow, ':c_now': times.now, ...(!retries && { ':c_none': 0 }) },
  );
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
    );
    return Attributes ? { taken: cursorOf(Attributes) } : {};
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The item the condition found, as DynamoDB gives it (the document client does not unmarshall an error's).
    const found = (error as { Item?: Record<string, AttributeValue> }).Item;
    const item = found ? unmarshall(found) : undefined;
    return item && (Number(item.due ?? 0) > times.now || Number(item.failedPasses ?? 0) > 0) ? { failing: true } : {};
  }
}

/**
 * Moves a cursor its sender holds (the lease is its token, `sentThrough` what it read): the sends are answered.
 * `until`: the lease goes on (the sender reads on), or `due`: the sender lets it go and the sweep comes back then (a
 * retry, or the rest of a long backlog). False when the cursor is not the one read (a replay moved it, or the lease
 * ran out and another sender took it): this sender stops.
 */
export function moveCursor(c: Cursor, read: number, token: string, next: { until: Micros } | { due: Micros }) {
  const then = 'until' in next ? { leaseUntil: next.until } : { ...NO_LEASE, due: next.due };
  return updated(cursorUpdate(c, { ...progress(c), ...then }, HELD, { ':c_token': token, ':c_read': read }));
}

/**
 * Lets a cursor go, caught up: its lease and its place on the work index go, in ONE transaction with a check that
 * its lane's head is still right after `c.at` (nothing was journaled after what this sender read). A fan-out that
 * found the cursor taken (its append committed after this sender's read) made that check fail: the sender reads on,
 * so no append is left unsent between a sender's last read and its letting go, whatever the timing.
 * Returns 'released', 'more' (the head moved: read on), or 'lost' (the cursor is not the one read: stop).
 */
export async function releaseCursor(c: Cursor, read: number, token: string): Promise<'released' | 'more' | 'lost'> {
  const update = cursorUpdate(c, { ...progress(c), ...NO_LEASE, ...OFF_INDEX, due: undefined }, HELD, {
    ':c_token': token,
    ':c_read': read,
  });
  const first = c.at === 0;
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: update },
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.journalHead(c.lane),
              ConditionExpression: first ? 'attribute_not_exists(PK)' : '#next = :next',
              ...(!first && {
                ExpressionAttributeNames: { '#next': 'next' },
                ExpressionAttributeValues: { ':next': c.at + 1 },
              }),
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
 * Moves a cursor back to `after` (a replay): what follows is sent again, from the next pass; its lease goes too, so a
 * sender under way finds it moved at its next write and stops. Only back (a cursor never skips what it has not sent),
 * and not before where it started. Returns how many positions it went back; undefined: no such cursor, or `after` is
 * not between those two.
 */
export async function rewindCursor(subscriptionId: string, lane: string, after: number, now: Micros) {
  const input = cursorUpdate(
    { subscriptionId, lane },
    { sentThrough: after, sentBeyond: [], due: now, ...NO_LEASE },
    'attribute_exists(PK) AND sentThrough >= :c_after AND startedAt <= :c_after',
    { ':c_after': after },
  );
  try {
    const { Attributes } = await documentClient().send(new UpdateCommand({ ...input, ReturnValues: 'UPDATED_OLD' }));
    return Number(Attributes?.sentThrough ?? after) - after;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

const EXISTS = 'attribute_exists(PK)';

/** A subscription's cursors made due now (enabled again): each is sent from where it stands by the next sweep. */
export async function wakeCursors(
  subscriptionId: string,
  now: Micros,
  lanes = LANES.map((l) => l.lane),
): Promise<void> {
  await Promise.all(lanes.map((lane) => updated(cursorUpdate({ subscriptionId, lane }, { due: now }, EXISTS))));
}

/** A sender lets a cursor go as it stands, due at once (it failed mid-way: the next fan-out or sweep goes on). */
export async function abandonCursor(c: Which, token: string, now: Micros): Promise<void> {
  await updated(cursorUpdate(c, { ...NO_LEASE, due: now }, 'leaseToken = :c_token', { ':c_token': token }));
}

/** A cursor off the work index, where it stands: its subscription is disabled (held until enabled) or gone. */
export async function restCursor(c: Which): Promise<void> {
  await updated(cursorUpdate(c, { ...OFF_INDEX, ...NO_LEASE }, EXISTS));
}
