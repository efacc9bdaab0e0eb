import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#domain/kernel/errors.ts';
import { requestNow } from '#platform/clock.ts';
import {
  SUBSCRIPTIONS_PER_KEY,
  type StoredSubscription,
  type SubscriptionStore,
} from '#domain/webhooks/subscription.ts';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { retryOnConflict } from './aggregates.ts';
import { batchGet } from './batch-items.ts';
import { cursorKeys, laneHeads, newCursors, wakeCursors } from './cursors.ts';
import { FEED_VIEW, keyParts, keys, SCHEMA_VERSION } from './table-design.ts';

/** The fan-out's partition of GSI1: the active subscriptions, each with what the fan-out matches on (`feed`). */
export const ACTIVE_SUBSCRIPTIONS = 'SUBSCRIPTIONS';

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
    ...(s.root.status === 'active' && {
      GSI1PK: ACTIVE_SUBSCRIPTIONS,
      GSI1SK: s.root.id,
      [FEED_VIEW]: { id: s.root.id, events: s.root.events, owner: s.owner },
    }),
  };
}

const recordOf = (i: Record<string, any>): SubscriptionRecord => ({
  root: i.data,
  owner: i.owner,
  tokenHash: i.tokenHash,
  secrets: i.secrets,
  rev: i.rev,
});

const ID = /^[0-9a-f]{32}$/;

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

  // The root, the owner's count and its cursors in one transaction: the count's condition bounds the key's
  // subscriptions; the cursors start at the lanes' heads as read before (what is journaled after is sent).
  async create(s, tooMany) {
    const TableName = tableName();
    const cursors = newCursors(s.root.id, await laneHeads());
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
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
          ],
        }),
      );
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if (reasons?.[1]?.Code === 'ConditionalCheckFailed') throw tooMany();
      throw error;
    }
    await activeChanged();
  },

  modify: (id, change) =>
    retryOnConflict(async () => {
      const current = await getSubscription(id);
      if (!current) throw new NotFoundError('subscription_id');
      const next = change(current);
      if (!next) return current;
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: item(next, current.rev + 1),
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': current.rev },
        }),
      );
      await activeChanged();
      // Disabled (maintenance): its cursors stay where they are (the sweep takes them off its index); enabled again,
      // they are sent from there at once, in order: nothing made before the disable, or during it, is lost.
      // Active after the change (enabled again, or its events or URL changed): its cursors are due at once, so the
      // sweep sends what a fan-out that read the list before the change did not wake them for.
      if (next.root.status === 'active') await wakeCursors(id, requestNow());
      return next;
    }),

  async remove(s) {
    const TableName = tableName();
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
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
        ],
      }),
    );
    await activeChanged();
  },
};

/**
 * The active subscriptions' version: counted up (and stamped) after every write that changes which subscriptions are
 * active or what they ask for, before the write is answered. The fan-out reads this one small item per batch and
 * Queries the list again only when it moved, instead of reading every subscription for every batch.
 */
const ACTIVE_VERSION = keys.subscriptionsVersion;
/** The index shows a write within this long (DESIGN §4): a list read sooner after a change is not kept. */
const INDEX_SETTLE_MS = 3_000;
/** A kept list is read again after this long whatever the version says (a version write lost to a crash). */
const KEPT_MS = 60_000;

async function activeChanged(): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: ACTIVE_VERSION,
      UpdateExpression: 'SET entity = :entity, changedAt = :now ADD version :one',
      ExpressionAttributeValues: { ':entity': 'subscriptionsVersion', ':now': Date.now(), ':one': 1 },
    }),
  );
}

/** What the fan-out reads of a subscription (`owner`: its key, which alone hears of its drafts; absent before it was kept). */
export interface ActiveSubscription {
  id: string;
  events: string[];
  owner?: string;
}

/** The list as last read, per table, with the version it was read at. */
const kept = new Map<string, { version: number; readAt: number; list: ActiveSubscription[] }>();

/**
 * The active subscriptions and the events each asks for: Queries of GSI1 `SUBSCRIPTIONS` (never a Scan), kept while
 * their version (one small item, read consistently) stays the same; with that version (a subscription's record
 * read at one version is the same at that version).
 */
export async function activeSubscriptions(): Promise<{ list: ActiveSubscription[]; version: number }> {
  const TableName = tableName();
  const { Item } = await documentClient().send(
    new GetCommand({ TableName, Key: ACTIVE_VERSION, ConsistentRead: true }),
  );
  const version = Number(Item?.version ?? 0);
  const now = Date.now();
  const known = kept.get(TableName);
  if (known && known.version === version && now - known.readAt < KEPT_MS) return { list: known.list, version };
  const list: ActiveSubscription[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': ACTIVE_SUBSCRIPTIONS },
        ProjectionExpression: '#feed',
        ExpressionAttributeNames: { '#feed': FEED_VIEW },
        ExclusiveStartKey,
      }),
    );
    for (const i of page.Items ?? []) list.push(i[FEED_VIEW]);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  if (now - Number(Item?.changedAt ?? 0) > INDEX_SETTLE_MS) kept.set(TableName, { version, readAt: now, list });
  else kept.delete(TableName);
  return { list, version };
}

/**
 * The service disables a subscription (`gone`: its receiver answered 410; `failing`: 5 days of failures): out of the
 * fan-out, a new revision, the reason shown.
 */
export async function disableSubscription(id: string, reason: 'gone' | 'failing', at: string): Promise<void> {
  await documentClient()
    .send(
      new UpdateItem(
        id,
        'SET #data.#status = :disabled, #data.disabledReason = :reason, #data.dateModified = :at, rev = rev + :one REMOVE GSI1PK, GSI1SK',
        { ':disabled': 'disabled', ':reason': reason, ':at': at, ':one': 1 },
        { '#data': 'data', '#status': 'status' },
      ),
    )
    .catch(ignoreGone);
  await activeChanged();
}

/** An update of a subscription that exists (a deleted one is left deleted). */
class UpdateItem extends UpdateCommand {
  constructor(id: string, expression: string, values: Record<string, unknown>, names?: Record<string, string>) {
    super({
      TableName: tableName(),
      Key: keys.subscription(id),
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(PK)',
      ...(Object.keys(values).length && { ExpressionAttributeValues: values }),
      ...(names && { ExpressionAttributeNames: names }),
    });
  }
}
const ignoreGone = (error: unknown) => {
  if (!isConditionFailure(error)) throw error;
};
