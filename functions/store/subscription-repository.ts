import { GetCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#domain/kernel/errors.ts';
import { requestNow } from '#platform/clock.ts';
import {
  SUBSCRIPTIONS_PER_KEY,
  type StoredSubscription,
  type SubscriptionStore,
} from '#domain/webhooks/subscription.ts';
import { documentClient, tableName } from './client.ts';
import { retryOnConflict } from './aggregates.ts';
import { batchGet } from './batch-items.ts';
import { cursorKeys, laneHeads, newCursors, wakeCursors } from './cursors.ts';
import { FEED_VIEW, keyParts, keys, SCHEMA_VERSION } from './table-design.ts';

/** A subscription as the fan-out and the senders read it: the stored one and its revision. */
export interface SubscriptionRecord extends StoredSubscription {
  rev: number;
}

function item(s: StoredSubscription, rev: number) {
  return {
    ...keys.subscription(s.root.id),
    entity: 'subscription',
    schemaVersion: SCHEMA_VERSION,
    rev,
    data: s.root,
    owner: s.owner,
    tokenHash: s.tokenHash,
    secrets: s.secrets,
  };
}

/**
 * What every subscription write carries in its transaction besides the subscription: its row in the fan-out's list
 * (put while it is active, deleted once it is not) and the list's version counted up. The list is in the table itself
 * (one partition, read consistently), so a fan-out that reads the version after a write commits finds the write.
 */
function listWrites(id: string, active?: StoredSubscription) {
  const TableName = tableName();
  const Key = keys.activeSubscription(id);
  const view: ActiveSubscription | undefined = active && { id, events: active.root.events, owner: active.owner };
  const row = view
    ? { Put: { TableName, Item: { ...Key, entity: 'activeSubscription', [FEED_VIEW]: view } } }
    : { Delete: { TableName, Key } };
  const version = {
    Update: {
      TableName,
      Key: keys.subscriptionsVersion,
      UpdateExpression: 'SET entity = :entity ADD version :one',
      ExpressionAttributeValues: { ':entity': 'subscriptionsVersion', ':one': 1 },
    },
  };
  return [row, version];
}
const listWritesOf = (s: StoredSubscription) => listWrites(s.root.id, s.root.status === 'active' ? s : undefined);

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
const reasonsOf = (error: unknown) =>
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code);
/**
 * A subscription write's transaction, sent again when it met only another transaction (every subscription write
 * updates the list's version, one item): a conflict wrote nothing. A failed condition is the caller's.
 */
async function transactWithList(TransactItems: TransactItems): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems }));
      return;
    } catch (error) {
      const reasons = reasonsOf(error);
      const conflictOnly = reasons.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed');
      if (!conflictOnly || attempt >= 8) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 5 * 2 ** attempt)));
    }
  }
}
/** A write of a subscription that was deleted meanwhile (its condition on the root failed): nothing to do. */
const ignoreGone = (error: unknown) => {
  if (!reasonsOf(error).includes('ConditionalCheckFailed')) throw error;
};

const recordOf = (i: Record<string, any>): SubscriptionRecord => ({
  root: i.data,
  owner: i.owner,
  tokenHash: i.tokenHash,
  secrets: i.secrets,
  rev: i.rev,
});

const ID = /^[0-9a-f]{32}$/;

/** An active subscription as an older release stored it: on GSI1, the fan-out's list then (migration 8). */
export const onTheOldIndex = (item: Record<string, any>) => item.GSI1PK === 'SUBSCRIPTIONS';

/**
 * Migration 8: an older release's active subscription gets its list row and leaves the index, on the revision read (a
 * write meanwhile was this release's, which wrote its row itself, or deleted it: nothing left to do).
 */
export async function giveListRow(item: Record<string, any>): Promise<void> {
  const s = recordOf(item);
  const leave = {
    TableName: tableName(),
    Key: keys.subscription(s.root.id),
    UpdateExpression: 'REMOVE GSI1PK, GSI1SK, #feed',
    ConditionExpression: 'rev = :rev',
    ExpressionAttributeValues: { ':rev': s.rev },
    ExpressionAttributeNames: { '#feed': FEED_VIEW },
  };
  try {
    await transactWithList([{ Update: leave }, ...listWritesOf(s)]);
  } catch (error) {
    ignoreGone(error);
    return;
  }
  // What a fan-out of the new code passed it by before it was listed: sent by the next sweep.
  await wakeCursors(s.root.id, requestNow());
}

export async function getSubscription(id: string): Promise<SubscriptionRecord | undefined> {
  if (!ID.test(id)) return undefined;
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.subscription(id), ConsistentRead: true }),
  );
  return Item ? recordOf(Item) : undefined;
}

/** Subscriptions by id, read consistently (100 to a request); those not found are left out. */
export async function getSubscriptions(ids: readonly string[]): Promise<Map<string, SubscriptionRecord>> {
  const found = await batchGet(ids.filter((id) => ID.test(id)).map((id) => keys.subscription(id)));
  return new Map(found.map((i) => [keyParts.subscriptionId(i.PK), recordOf(i)]));
}

export const subscriptionRepository: SubscriptionStore = {
  get: getSubscription,

  // The root, the owner's count, its cursors and its list row in one transaction: the count's condition bounds the
  // key's subscriptions; the cursors start at the lanes' heads as read before (what is journaled after is sent).
  async create(s, tooMany) {
    const TableName = tableName();
    const before = await laneHeads();
    const cursors = newCursors(s.root.id, before);
    try {
      await transactWithList([
        { Put: { TableName, Item: item(s, 1), ConditionExpression: 'attribute_not_exists(PK)' } },
        {
          Update: {
            TableName,
            Key: keys.subscriber(s.owner),
            UpdateExpression: 'ADD n :one',
            ConditionExpression: 'attribute_not_exists(n) OR n < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': SUBSCRIPTIONS_PER_KEY },
          },
        },
        ...cursors.map((Item) => ({ Put: { TableName, Item } })),
        ...listWritesOf(s),
      ]);
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if (reasons?.[1]?.Code === 'ConditionalCheckFailed') throw tooMany();
      throw error;
    }
    // A lane that moved between the heads' read and the commit: its fan-out may have read the list before this
    // subscription was in it. Its cursor is woken (the sweep sends it); a lane moved after this read wakes it itself.
    const after = await laneHeads();
    const moved = [...after].filter(([lane, head]) => head.next !== before.get(lane)?.next).map(([lane]) => lane);
    if (moved.length) await wakeCursors(s.root.id, requestNow(), moved);
  },

  modify: (id, change) =>
    retryOnConflict(async () => {
      const current = await getSubscription(id);
      if (!current) throw new NotFoundError('subscription_id');
      const next = change(current);
      if (!next) return current;
      await transactWithList([
        {
          Put: {
            TableName: tableName(),
            Item: item(next, current.rev + 1),
            ConditionExpression: 'rev = :rev',
            ExpressionAttributeValues: { ':rev': current.rev },
          },
        },
        ...listWritesOf(next),
      ]);
      // Disabled (maintenance): its cursors stay where they are (the sweep takes them off its index); enabled again,
      // they are sent from there at once, in order: nothing made before the disable, or during it, is lost.
      // Active after the change (enabled again, or its events or URL changed): its cursors are due at once, so the
      // sweep sends what a fan-out that read the list before the change did not wake them for.
      if (next.root.status === 'active') await wakeCursors(id, requestNow());
      return next;
    }),

  async remove(s) {
    const TableName = tableName();
    await transactWithList([
      { Delete: { TableName, Key: keys.subscription(s.root.id) } },
      // Its cursors (their places on the work index) go with it: nothing is sent for it again.
      ...cursorKeys(s.root.id).map((Key) => ({ Delete: { TableName, Key } })),
      {
        Update: {
          TableName,
          Key: keys.subscriber(s.owner),
          UpdateExpression: 'ADD n :less',
          ExpressionAttributeValues: { ':less': -1 },
        },
      },
      ...listWrites(s.root.id),
    ]);
  },
};

/** What the fan-out reads of a subscription (`owner`: its key, which alone hears of its drafts; absent before it was kept). */
export interface ActiveSubscription {
  id: string;
  events: string[];
  owner?: string;
}

/** The list as last read, per table, with the version it was read at. */
const kept = new Map<string, { version: number; list: ActiveSubscription[] }>();

/**
 * The active subscriptions and the events each asks for, with the list's version: the version (one small item) read
 * consistently, and the list Queried again (its partition, consistently, never a Scan) only when the version moved.
 * Every subscription write counts the version up in its own transaction, so a list read after the version is at least
 * as new as it: no index to wait for (a subscription's record read at one version is the same at that version).
 */
export async function activeSubscriptions(): Promise<{ list: ActiveSubscription[]; version: number }> {
  const TableName = tableName();
  const { Item } = await documentClient().send(
    new GetCommand({ TableName, Key: keys.subscriptionsVersion, ConsistentRead: true }),
  );
  const version = Number(Item?.version ?? 0);
  const known = kept.get(TableName);
  if (known?.version === version) return known;
  const list: ActiveSubscription[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :active)',
        ExpressionAttributeValues: { ':pk': keys.subscriptionsVersion.PK, ':active': 'ACTIVE#' },
        ProjectionExpression: '#feed',
        ExpressionAttributeNames: { '#feed': FEED_VIEW },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const i of page.Items ?? []) list.push(i[FEED_VIEW]);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  kept.set(TableName, { version, list });
  return { list, version };
}

/**
 * The service disables a subscription (`gone`: its receiver answered 410; `failing`: 5 days of failures): out of the
 * fan-out, a new revision, the reason shown.
 */
export async function disableSubscription(id: string, reason: 'gone' | 'failing', at: string): Promise<void> {
  const disable = {
    TableName: tableName(),
    Key: keys.subscription(id),
    UpdateExpression:
      'SET #data.#status = :disabled, #data.disabledReason = :reason, #data.dateModified = :at, rev = rev + :one',
    // A deleted one is left deleted.
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':disabled': 'disabled', ':reason': reason, ':at': at, ':one': 1 },
    ExpressionAttributeNames: { '#data': 'data', '#status': 'status' },
  };
  await transactWithList([{ Update: disable }, ...listWrites(id)]).catch(ignoreGone);
}
