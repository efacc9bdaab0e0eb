import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomBytes } from 'node:crypto';
import type { BidEntry, RoomState, SealedBid } from '#domain/room/engine.ts';
import { admitBefore, intervalMs, type RateLimit } from '#domain/kernel/rate-limit.ts';
import type { Micros } from '#domain/kernel/time.ts';
import { sortableUtc } from '#domain/kernel/time.ts';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { keys, SCHEMA_VERSION } from './table-design.ts';

/**
 * The auction room's items (table-design.ts `room*` keys). The state is one item written with a condition on its
 * `version` and on `sealedRev` (bumped by every sealed bid in the same transaction as the bid), so a stage that closes
 * never misses a sealed bid accepted before it closed, and a stale timer or a lost race writes nothing.
 */
export interface RoomItem {
  state: RoomState;
  /** Sealed bids accepted so far (a counter the state's writes are conditioned on). */
  sealedRev: number;
  /** When the results were posted to the auction (once). */
  posted?: string;
  /** Failed attempts at posting the results, and when the next one is due. */
  postAttempts?: number;
  retryAt?: string;
  /** When the room was closed (its auction left active.auction without it: a cancellation). */
  closed?: string;
  /** Whether the audit document is on the auction. */
  audited?: boolean;
}

/** The timers' backstop index: a room whose next instant is due is on `WORK#room-timers` (room bot, lib/room-stack). */
export const ROOM_TIMERS = 'room-timers';

/** A connection of a room: an observer, or a bidder verified by their participation link. */
export interface RoomConnection {
  connectionId: string;
  auctionId: string;
  bidderId?: string;
}

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

export const roomRepository = {
  async get(auctionId: string): Promise<RoomItem | undefined> {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.roomState(auctionId), ConsistentRead: true }),
    );
    return Item ? fromItem(Item) : undefined;
  },

  /** The room's first state; false when it exists already (planned by another run). */
  async create(item: RoomItem, nextAt: Micros | undefined): Promise<boolean> {
    try {
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: stateItem(item, nextAt),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /** Writes `next` if the stored room is still `read` (version and sealed bids); false when it moved on. */
  async save(read: RoomItem, next: RoomItem, nextAt: Micros | undefined): Promise<boolean> {
    try {
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: stateItem({ ...next, sealedRev: read.sealedRev }, nextAt),
          ConditionExpression: 'version = :v AND (sealedRev = :s OR attribute_not_exists(sealedRev))',
          ExpressionAttributeValues: { ':v': read.state.version, ':s': read.sealedRev },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /** A sealed bid (the bidder's latest replaces theirs), accepted only while the state is still `read`. */
  async putSealed(read: RoomItem, sealed: SealedBid): Promise<boolean> {
    const id = read.state.auctionId;
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.roomState(id),
                UpdateExpression: 'SET sealedRev = :next',
                ConditionExpression: 'version = :v AND (sealedRev = :s OR attribute_not_exists(sealedRev))',
                ExpressionAttributeValues: {
                  ':v': read.state.version,
                  ':s': read.sealedRev,
                  ':next': read.sealedRev + 1,
                },
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
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async sealedBids(auctionId: string): Promise<SealedBid[]> {
    const items = await queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': keys.room(auctionId), ':sk': 'SEALED#' },
      ConsistentRead: true,
    });
    return items.map((i) => i.sealed as SealedBid);
  },

  /**
   * One line of the bid journal (the bids the room saw, for the audit document). Of a bidder's refused bids only the
   * first `keptRefusals` are journaled; every refusal is counted (`refusalCounts`), so junk cannot grow the audit.
   */
  async journal(auctionId: string, entry: BidEntry, keptRefusals: number): Promise<void> {
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

  /** How many bids of each bidder the room refused (journaled or not). */
  async refusalCounts(auctionId: string): Promise<{ bidderId: string; refused: number }[]> {
    const items = await queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': keys.room(auctionId), ':sk': 'REFUSED#' },
      ConsistentRead: true,
    });
    return items.map((i) => ({ bidderId: i.bidderId, refused: Number(i.refused) }));
  },

  /**
   * Claims a bid the client named, so that it is judged once even when its copies arrive at once: true for the one
   * copy that judges it. A claim whose judge died without answering (older than `staleBefore`) may be taken over.
   */
  async claimBid(auctionId: string, bidderId: string, clientBidId: string, now: Micros): Promise<boolean> {
    try {
      await documentClient().send(
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
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /** The answer kept for a bid the client named, once its judge has given it. */
  async bidAnswer<A>(auctionId: string, bidderId: string, clientBidId: string): Promise<A | undefined> {
    const out = await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.roomBidAnswer(auctionId, bidderId, clientBidId),
        ConsistentRead: true,
      }),
    );
    return out.Item?.answer as A | undefined;
  },

  /** Keeps the answer of a claimed bid (its claim's item); a taken bid's answer is never replaced by a refusal. */
  async keepBidAnswer<A extends { outcome: string }>(
    auctionId: string,
    bidderId: string,
    clientBidId: string,
    answer: A,
  ): Promise<A> {
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.roomBidAnswer(auctionId, bidderId, clientBidId),
          UpdateExpression: 'SET answer = :answer',
          ConditionExpression: 'attribute_not_exists(answer) OR answer.outcome = :refused',
          ExpressionAttributeValues: { ':answer': answer, ':refused': 'refused' },
        }),
      );
      return answer;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.bidAnswer<A>(auctionId, bidderId, clientBidId)) ?? answer;
    }
  },

  async journalEntries(auctionId: string): Promise<BidEntry[]> {
    const items = await queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': keys.room(auctionId), ':sk': 'JOURNAL#' },
      ConsistentRead: true,
    });
    return items.map((i) => i.entry as BidEntry);
  },

  async connect(connection: RoomConnection, now: Micros): Promise<void> {
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

  async connection(connectionId: string): Promise<RoomConnection | undefined> {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.connectionRoom(connectionId), ConsistentRead: true }),
    );
    return Item ? connectionOf(Item) : undefined;
  },

  /**
   * Spends one message of a connection's allowance (domain/kernel/rate-limit.ts: `tat` on its `CONN#` item, moved by
   * conditional writes, never read first) and finds its session in the same request. Undefined for a connection the
   * room does not know; `admitted: false` once the connection is over its limit (that refusal writes nothing).
   */
  async spendMessage(
    connectionId: string,
    limit: RateLimit,
    nowMs: number,
  ): Promise<{ connection: RoomConnection; admitted: boolean } | undefined> {
    const step = intervalMs(limit);
    const last = admitBefore(limit, nowMs);
    let item: Record<string, any> | undefined;
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
    return { connection: connectionOf(item!), admitted: false };
  },

  async disconnect(connection: Pick<RoomConnection, 'connectionId' | 'auctionId'>): Promise<void> {
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

  /** Every connection of a room (a Query of its partition; 1,000 connections are a few pages). */
  async connections(auctionId: string): Promise<RoomConnection[]> {
    const items = await queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': keys.room(auctionId), ':sk': 'CONN#' },
      ProjectionExpression: 'connectionId, auctionId, bidderId',
    });
    return items.map((i) => ({
      connectionId: i.connectionId,
      auctionId: i.auctionId,
      ...(i.bidderId && { bidderId: i.bidderId }),
    }));
  },
};

const connectionOf = (item: Record<string, any>): RoomConnection => ({
  connectionId: item.connectionId,
  auctionId: item.auctionId,
  ...(item.bidderId && { bidderId: item.bidderId }),
});

/** A conditional update answering the item as it now is (written) or as it was (condition failed; none if absent). */
async function updateIf(
  Key: Record<string, string>,
  update: Pick<UpdateCommand['input'], 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeValues'>,
): Promise<{ updated: boolean; item?: Record<string, any> }> {
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

async function queryAll(input: QueryCommandInput): Promise<Record<string, any>[]> {
  const out: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, ExclusiveStartKey }));
    out.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}
