import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTable } from '../../../lib/local/table.ts';
import type { RoomItem } from '../../../functions/domain/room/model.ts';
import type { RoomStore } from '../../../functions/domain/room/ports.ts';
import { planRoom } from '../../../functions/domain/room/engine.ts';
import { resetConfig } from '../../../functions/platform/config.ts';
import { memoryRoomStore } from '../../support/memory-room-store.ts';
import { roomRepository } from '../../../functions/store/room-repository.ts';
import { insiderAuction, PLANNED_AT } from '../../unit/room/builders.ts';

/**
 * The room's two stores keep the same conditions: the DynamoDB one (over DynamoDB Local) and the in-memory one the
 * use cases' unit tests run on (test/unit/room/use-cases.test.ts). Each case runs on both, on a room of its own.
 */

beforeAll(async () => {
  process.env.TABLE_NAME = `t_${randomBytes(6).toString('hex')}`;
  resetConfig();
  await createTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
});

const NOW = 1_800_000_000_000_000;
const hex = () => randomBytes(16).toString('hex');

/** A planned room of a fresh auction id. */
function newRoom(): RoomItem {
  return { state: planRoom(insiderAuction({ id: hex() }), PLANNED_AT), sealedRev: 0 };
}
const moved = (item: RoomItem): RoomItem => ({ ...item, state: { ...item.state, version: item.state.version + 1 } });

describe.each([
  ['DynamoDB', () => roomRepository],
  ['in memory', () => memoryRoomStore()],
] as [string, () => RoomStore][])('the room store (%s)', (_name, storeOf) => {
  let store: RoomStore;
  beforeAll(() => {
    store = storeOf();
  });

  it('creates a room only if it has none', async () => {
    const room = newRoom();
    expect(await store.create(room, undefined)).toBe(true);
    expect(await store.create(moved(room), undefined)).toBe(false);
    expect(await store.get(room.state.auctionId)).toEqual(room);
  });

  it('writes the state only while it is as read: a stale version or a sealed bid since the read loses', async () => {
    const room = newRoom();
    await store.create(room, undefined);
    const next = moved(room);
    expect(await store.save(room, next, NOW)).toBe(true);
    expect(await store.save(room, moved(next), NOW)).toBe(false);
    const sealed = { bidderId: room.state.bidders[0].bidId, amount: 5, date: PLANNED_AT };
    expect(await store.putSealed(room, sealed)).toBe(false);
    expect(await store.putSealed(next, sealed)).toBe(true);
    expect(await store.save(next, moved(next), NOW)).toBe(false); // read before the sealed bid
    const now = (await store.get(room.state.auctionId))!;
    expect(now.sealedRev).toBe(1);
    expect(await store.sealedBids(room.state.auctionId)).toEqual([sealed]);
    expect(await store.save(now, moved(now), NOW)).toBe(true);
  });

  it('claims a named bid once, and keeps its first answer unless that was a refusal', async () => {
    const [auction, bidder] = [hex(), hex()];
    expect(await store.claimBid(auction, bidder, 'bid-00001', NOW)).toBe(true);
    expect(await store.claimBid(auction, bidder, 'bid-00001', NOW + 1_000_000)).toBe(false);
    expect(await store.bidAnswer(auction, bidder, 'bid-00001')).toBeUndefined();
    const refused = { outcome: 'refused', code: 'busy' };
    const accepted = { outcome: 'accepted', amount: 1 };
    expect(await store.keepBidAnswer(auction, bidder, 'bid-00001', refused)).toEqual(refused);
    expect(await store.keepBidAnswer(auction, bidder, 'bid-00001', accepted)).toEqual(accepted);
    expect(await store.keepBidAnswer(auction, bidder, 'bid-00001', refused)).toEqual(accepted);
    expect(await store.bidAnswer(auction, bidder, 'bid-00001')).toEqual(accepted);
    // A claim its judge left unanswered for 30 s may be taken over; an answered one never.
    expect(await store.claimBid(auction, bidder, 'bid-00002', NOW)).toBe(true);
    expect(await store.claimBid(auction, bidder, 'bid-00002', NOW + 31_000_000)).toBe(true);
    expect(await store.claimBid(auction, bidder, 'bid-00001', NOW + 31_000_000)).toBe(false);
  });

  it('journals the first refusals of a bidder and counts them all', async () => {
    const [auction, bidder] = [hex(), hex()];
    const entry = { bidderId: bidder, amount: 1, date: PLANNED_AT, stage: 'dutch_1' };
    for (let i = 0; i < 3; i++) await store.journal(auction, { ...entry, outcome: 'refused' }, 2);
    await store.journal(auction, { ...entry, outcome: 'accepted' }, 2);
    expect((await store.journalEntries(auction)).map((e) => e.outcome).sort()).toEqual([
      'accepted',
      'refused',
      'refused',
    ]);
    expect(await store.refusalCounts(auction)).toEqual([{ bidderId: bidder, refused: 3 }]);
  });

  it("spends a connection's allowance: a burst at once, then one an interval; an unknown or gone connection has none", async () => {
    const auction = hex();
    const connection = { connectionId: hex(), auctionId: auction, bidderId: hex() };
    await store.connect(connection, NOW);
    await store.connect({ connectionId: hex(), auctionId: auction }, NOW);
    expect(await store.connection(connection.connectionId)).toEqual(connection);
    const limit = { rate: 5, burst: 3 };
    const spent = [];
    for (let i = 0; i < 4; i++) spent.push((await store.spendMessage(connection.connectionId, limit, 1_000))?.admitted);
    expect(spent).toEqual([true, true, true, false]);
    expect((await store.spendMessage(connection.connectionId, limit, 1_200))?.admitted).toBe(true);
    expect(await store.spendMessage(hex(), limit, 1_000)).toBeUndefined();
    expect((await store.connections(auction)).length).toBe(2);
    await store.disconnect(connection);
    expect(await store.connection(connection.connectionId)).toBeUndefined();
    expect(await store.spendMessage(connection.connectionId, limit, 2_000)).toBeUndefined();
    expect(await store.connections(auction)).toHaveLength(1);
  });
});
