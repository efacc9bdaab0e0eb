import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomBytes } from 'node:crypto';
import { admitBefore, intervalMs } from '#domain/kernel/rate-limit.ts';
import { sortableUtc, type Micros } from '#domain/kernel/time.ts';
import type { BidEntry, RoomConnection, RoomItem, SealedBid } from '#domain/room/model.ts';
import type { RoomStore } from '#domain/room/ports.ts';
import { documentClient, queryAll, tableName } from './client.ts';
import { isConditionFailure, written } from './errors.ts';
import { keys, SCHEMA_VERSION } from './table-design.ts';

/**
 * The auction room's items in DynamoDB (table-design.ts `room*` keys): the room's `RoomStore`
 * (domain/room/ports.ts). The state is one item written with a condition on its `version` and on `sealedRev` (bumped
 * by every sealed bid in the same transaction as the bid), so a stage that closes never misses a sealed bid accepted
 * before it closed, and a stale timer or a lost race writes nothing.
 */

/** The timers' backstop index: a room whose next instant is due is on `WORK#room-timers` (room bot, lib/room-stack). */
export const ROOM_TIMERS = 'room-timers';

const CONNECTION_HOURS = 3; // API Gateway closes a WebSocket after 2 h: the items outlive it, then expire.
/** A bid's judge is a route Lambda (10 s at most): a claim unanswered for longer lost its judge. */
const CLAIM_STALE_SECONDS = 30;

function stateItem(item: RoomItem, nextAt: Micros | undefined): Record<string, unknown> {
  const id = item.state.auctionId;
  return {
    ...keys.roomState(id),
    entity: 'room',
    schemaVersion: SCHEMA_VERSION,
    version: item.state.version,
    ...item,
    ...(nextAt !== undefined && { GSI2PK: keys.work(ROOM_TIMERS), GSI2SK: `${sortableUtc(nextAt)}#${id}` }),
  };
}

const fromItem = (raw: Record<string, unknown>): RoomItem => {
  const { state, sealedRev, posted, postAttempts, retryAt, closed, audited } = raw as unknown as RoomItem;
  return {
    state,
    sealedRev: sealedRev ?? 0,
    ...(posted && { posted }),
    ...(postAttempts && { postAttempts }),
    ...(retryAt && { retryAt }),
    ...(closed && { closed }),
    ...(audited && { audited }),
  };
};

/** The items of one kind in a room's partition (`SEALED#`, `JOURNAL#`, `REFUSED#`, `CONN#`), every page. */
const roomItems = (
  auctionId: string,
  prefix: string,
  read: { ConsistentRead: true } | { ProjectionExpression: string },
) =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: { ':pk': keys.room(auctionId), ':sk': prefix },
    ...read,
  });
const CONSISTENT = { ConsistentRead: true } as const;

/** The condition of every write of the state: the room is still as read (its version and sealed bids). */
const asRead = (read: RoomItem) => ({
  ConditionExpression: 'version = :v AND (sealedRev = :s OR attribute_not_exists(sealedRev))',
  ExpressionAttributeValues: { ':v': read.state.version, ':s': read.sealedRev },
});

export const roomRepository: RoomStore = {
  async get(auctionId) {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.roomState(auctionId), ConsistentRead: true }),
    );
    return Item ? fromItem(Item) : undefined;
  },

  create(item, nextAt) {
    return written(
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: stateItem(item, nextAt),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
  },

  save(read, next, nextAt) {
    return written(
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: stateItem({ ...next, sealedRev: read.sealedRev }, nextAt),
          ...asRead(read),
        }),
      ),
    );
  },

  putSealed(read, sealed) {
    const id = read.state.auctionId;
    const condition = asRead(read);
    return written(
      documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.roomState(id),
                UpdateExpression: 'SET sealedRev = :next',
                ConditionExpression: condition.ConditionExpression,
                ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':next': read.sealedRev + 1 },
              },
            },
            {
              Put: {
                TableName: tableName(),
                Item: {
                  ...keys.roomSealed(id, sealed.bidderId),
                  entity: 'sealed-bid',
                  schemaVersion: SCHEMA_VERSION,
                  sealed,
                },
              },
            },
          ],
        }),
      ),
    );
  },

  async sealedBids(auctionId) {
    return (await roomItems(auctionId, 'SEALED#', CONSISTENT)).map((i) => i.sealed as SealedBid);
  },

  async journal(auctionId, entry, keptRefusals) {
    if (entry.outcome === 'refused') {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.roomRefusals(auctionId, entry.bidderId),
          UpdateExpression: 'ADD refused :one SET entity = :entity, schemaVersion = :v, bidderId = :bidder',
          ExpressionAttributeValues: {
            ':one': 1,
            ':entity': 'room-refusals',
            ':v': SCHEMA_VERSION,
            ':bidder': entry.bidderId,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      if (Number(Attributes?.refused) > keptRefusals) return;
    }
    const at = `${entry.date}#${randomBytes(4).toString('hex')}`;
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.roomJournal(auctionId, at), entity: 'room-journal', schemaVersion: SCHEMA_VERSION, entry },
      }),
    );
  },

  async refusalCounts(auctionId) {
    return (await roomItems(auctionId, 'REFUSED#', CONSISTENT)).map((i) => ({
      bidderId: String(i.bidderId),
      refused: Number(i.refused),
    }));
  },

  async journalEntries(auctionId) {
    return (await roomItems(auctionId, 'JOURNAL#', CONSISTENT)).map((i) => i.entry as BidEntry);
  },

  claimBid(auctionId, bidderId, clientBidId, now) {
    return written(
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keys.roomBidAnswer(auctionId, bidderId, clientBidId),
            entity: 'room-bid-answer',
            schemaVersion: SCHEMA_VERSION,
            claimedAt: now,
            ttl: Math.floor(now / 1e6) + CONNECTION_HOURS * 3600,
          },
          ConditionExpression: 'attribute_not_exists(PK) OR (attribute_not_exists(answer) AND claimedAt < :stale)',
          ExpressionAttributeValues: { ':stale': now - CLAIM_STALE_SECONDS * 1e6 },
        }),
      ),
    );
  },

  async bidAnswer<A>(auctionId: string, bidderId: string, clientBidId: string) {
    const out = await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.roomBidAnswer(auctionId, bidderId, clientBidId),
        ConsistentRead: true,
      }),
    );
    return out.Item?.answer as A | undefined;
  },

  async keepBidAnswer(auctionId, bidderId, clientBidId, answer) {
    const kept = await written(
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.roomBidAnswer(auctionId, bidderId, clientBidId),
          UpdateExpression: 'SET answer = :answer',
          ConditionExpression: 'attribute_not_exists(answer) OR answer.outcome = :refused',
          ExpressionAttributeValues: { ':answer': answer, ':refused': 'refused' },
        }),
      ),
    );
    return kept ? answer : ((await this.bidAnswer<typeof answer>(auctionId, bidderId, clientBidId)) ?? answer);
  },

  async connect(connection, now) {
    const ttl = Math.floor(now / 1e6) + CONNECTION_HOURS * 3600;
    const common = { entity: 'room-connection', schemaVersion: SCHEMA_VERSION, ...connection, ttl };
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.roomConnection(connection.auctionId, connection.connectionId), ...common },
            },
          },
          { Put: { TableName: tableName(), Item: { ...keys.connectionRoom(connection.connectionId), ...common } } },
        ],
      }),
    );
  },

  async connection(connectionId) {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.connectionRoom(connectionId), ConsistentRead: true }),
    );
    return Item ? connectionOf(Item) : undefined;
  },

  /** The allowance is `tat` on the connection's `CONN#` item, moved by conditional writes, never read first. */
  async spendMessage(connectionId, limit, nowMs) {
    const step = intervalMs(limit);
    const last = admitBefore(limit, nowMs);
    let item: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      // Usually the allowance is whole again (its time is past): it starts again from now.
      const fresh = await updateIf(keys.connectionRoom(connectionId), {
        UpdateExpression: 'SET tat = :next',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(tat) OR tat < :now)',
        ExpressionAttributeValues: { ':next': nowMs + step, ':now': nowMs },
      });
      item = fresh.item;
      if (!item) return undefined;
      if (fresh.updated) return { connection: connectionOf(item), admitted: true };
      if (Number(item.tat) > last) return { connection: connectionOf(item), admitted: false };
      // Partly spent: one interval later, while that stays within the burst.
      const spent = await updateIf(keys.connectionRoom(connectionId), {
        UpdateExpression: 'SET tat = tat + :step',
        ConditionExpression: 'attribute_exists(PK) AND tat >= :now AND tat <= :last',
        ExpressionAttributeValues: { ':step': step, ':now': nowMs, ':last': last },
      });
      item = spent.item;
      if (!item) return undefined;
      if (spent.updated) return { connection: connectionOf(item), admitted: true };
    }
    return item && { connection: connectionOf(item), admitted: false };
  },

  async disconnect(connection) {
    await Promise.all([
      documentClient().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keys.roomConnection(connection.auctionId, connection.connectionId),
        }),
      ),
      documentClient().send(
        new DeleteCommand({ TableName: tableName(), Key: keys.connectionRoom(connection.connectionId) }),
      ),
    ]);
  },

  /** A Query of the room's partition (1,000 connections are a few pages), eventually consistent. */
  async connections(auctionId) {
    const items = await roomItems(auctionId, 'CONN#', { ProjectionExpression: 'connectionId, auctionId, bidderId' });
    return items.map(connectionOf);
  },
};

/** A connection as its items keep it (the room's `CONN#` and the connection's own). */
const connectionOf = (item: Record<string, unknown>): RoomConnection => ({
  connectionId: String(item.connectionId),
  auctionId: String(item.auctionId),
  ...(typeof item.bidderId === 'string' && { bidderId: item.bidderId }),
});

/** A conditional update answering the item as it now is (written) or as it was (condition failed; none if absent). */
async function updateIf(
  Key: Record<string, string>,
  update: Pick<UpdateCommand['input'], 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeValues'>,
): Promise<{ updated: boolean; item?: Record<string, unknown> }> {
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        ...update,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { updated: true, item: Attributes };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The document client leaves an error's item in DynamoDB's own form.
    const old = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
    return { updated: false, item: old && unmarshall(old) };
  }
}
