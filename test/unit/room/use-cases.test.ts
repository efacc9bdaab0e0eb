import { describe, expect, it } from 'vitest';
import type { RoomAuctions, RoomPorts, RoomStore, TimerOrder } from '../../../functions/domain/room/ports.ts';
import { ROOM_LINKS } from '../../../functions/domain/auctions/room-links.ts';
import { sessionToken } from '../../../functions/domain/room/session.ts';
import { bid } from '../../../functions/room/bidding.ts';
import { connect } from '../../../functions/room/connection.ts';
import {
  closeRoom,
  openRoom,
  planOrClose,
  transition,
  type LifecycleContext,
} from '../../../functions/room/lifecycle.ts';
import { documentFor } from '../../../functions/room/room.ts';
import { memoryRoomStore } from '../../support/memory-room-store.ts';
import { bidders, insiderAuction, micros } from './builders.ts';

/**
 * The room's use cases (functions/room/) over the in-memory store, with ports that record what the room sends and
 * arms, on a clock the test sets: no DynamoDB, no sockets. The DynamoDB store's conditions are the in-memory one's
 * (test/support/memory-room-store.ts), so a race lost here is lost there.
 */

// Bid ids as the API makes them (32 hex digits): the page's session tokens carry nothing else.
const AUCTION = insiderAuction({ bidders: bidders(3).map((b, i) => ({ ...b, bidId: String(i + 1).repeat(32) })) });
const ID = AUCTION.id;
const [B1, B2] = AUCTION.bidders.map((b) => b.bidId);
const DUTCH_10 = '2026-11-24T10:52:00+02:00';
const DUTCH_10_AMOUNT = 900_000;
const SEALED_AT = '2026-11-24T16:50:00+02:00';

/** Ports that keep every message (decoded) per connection and every timer armed. */
function recordingPorts() {
  const sent = new Map<string, Record<string, unknown>[]>();
  const armed: TimerOrder[] = [];
  const published: { channel: string; event: Record<string, unknown> }[] = [];
  const ports: RoomPorts = {
    async send(connectionId, message) {
      sent.set(connectionId, [...(sent.get(connectionId) ?? []), JSON.parse(Buffer.from(message).toString('utf8'))]);
      return 'sent';
    },
    async close() {},
    async publish(channel, event) {
      published.push({ channel, event: JSON.parse(event) });
    },
    async arm(order) {
      armed.push(order);
    },
  };
  const of = (connectionId: string, type: string) => (sent.get(connectionId) ?? []).filter((m) => m.type === type);
  return { ports, sent, armed, of, published };
}

/** What the room asked of its auction: the marks, the results posted. */
function recordingAuctions(work: Awaited<ReturnType<RoomAuctions['work']>>) {
  const marks: string[] = [];
  const posted: string[] = [];
  const auctions: RoomAuctions = {
    work: async () => work,
    mark: async (_id, mark) => void marks.push(mark),
    postResults: async (state) => void posted.push(state.auctionId),
    resultsPosted: async () => posted.length > 0,
    attachAudit: async () => {},
  };
  return { auctions, marks, posted };
}

/** A planned room with an observer and two bidders connected, its clock at `now` (movable). */
async function room(now = DUTCH_10, store: RoomStore = memoryRoomStore()) {
  const recorded = recordingPorts();
  const clock = { now: micros(now) };
  const work = recordingAuctions({ plan: AUCTION });
  const ctx: LifecycleContext = { store, ports: recorded.ports, clock: () => clock.now, auctions: work.auctions };
  clock.now = micros('2026-11-20T09:00:00+02:00');
  await openRoom(ctx, AUCTION);
  clock.now = micros(now);
  const connection = (connectionId: string, bidderId?: string) => ({
    connectionId,
    auctionId: ID,
    ...(bidderId && { bidderId }),
  });
  const [observer, first, second] = [connection('observer'), connection('first', B1), connection('second', B2)];
  for (const c of [observer, first, second]) await store.connect(c, clock.now);
  const at = (text: string) => {
    clock.now = micros(text);
  };
  return { ctx, store, clock, at, observer, first, second, ...recorded, ...work };
}

const version = async (store: RoomStore) => (await store.get(ID))!.state.version;

describe('room use cases: bids', () => {
  it("accepts the Dutch step's amount: the bidder hears first, then every connection gets the new room and the timer is armed", async () => {
    const r = await room();
    const before = r.armed.length;
    await bid(r.ctx, r.first, { amount: DUTCH_10_AMOUNT });
    expect(r.of('first', 'bid')).toEqual([{ type: 'bid', outcome: 'accepted', amount: DUTCH_10_AMOUNT }]);
    expect(r.sent.get('first')?.map((m) => m.type)).toEqual(['bid', 'room']);
    for (const c of ['observer', 'second']) expect(r.of(c, 'room')).toHaveLength(1);
    expect(r.armed.length).toBe(before + 1);
    expect(r.armed.at(-1)).toMatchObject({ auctionId: ID, version: await version(r.store) });
    expect(await r.store.journalEntries(ID)).toMatchObject([{ bidderId: B1, outcome: 'accepted' }]);
  });

  it('refuses an amount the stage does not ask, and an observer, writing and telling nothing', async () => {
    const r = await room();
    await transition(r.ctx, ID); // the timer brings the room to 10:52
    const [versionBefore, roomsBefore] = [await version(r.store), r.of('observer', 'room').length];
    await bid(r.ctx, r.second, { amount: 123 });
    await bid(r.ctx, r.observer, { amount: DUTCH_10_AMOUNT });
    expect(r.of('second', 'bid')).toEqual([
      {
        type: 'bid',
        outcome: 'refused',
        amount: 123,
        code: 'amount',
        message: "Passed value doesn't match current amount=900000.00",
      },
    ]);
    expect(r.of('observer', 'bid')).toMatchObject([{ outcome: 'refused', code: 'observer' }]);
    expect(await version(r.store)).toBe(versionBefore);
    expect(r.of('observer', 'room')).toHaveLength(roomsBefore);
    expect(await r.store.journalEntries(ID)).toMatchObject([{ bidderId: B2, outcome: 'refused' }]);
  });

  it("keeps a sealed bid apart from the state: only the bidder's own connections see it", async () => {
    const r = await room();
    await bid(r.ctx, r.first, { amount: DUTCH_10_AMOUNT });
    r.at(SEALED_AT);
    await transition(r.ctx, ID);
    const [stateBefore, observerRooms] = [(await r.store.get(ID))!.state, r.of('observer', 'room').length];
    await bid(r.ctx, r.second, { amount: 950_000.01 });
    expect(r.of('second', 'bid')).toEqual([{ type: 'bid', outcome: 'sealed', amount: 950_000.01 }]);
    expect((await r.store.get(ID))!.state).toEqual(stateBefore);
    expect(await r.store.sealedBids(ID)).toEqual([{ bidderId: B2, amount: 950_000.01, date: SEALED_AT }]);
    expect(JSON.stringify(r.of('second', 'room').at(-1))).toContain('950000.01');
    expect(r.of('observer', 'room')).toHaveLength(observerRooms);
  });

  it('judges a bid that lost a race again, on the room as it now is', async () => {
    const base = memoryRoomStore();
    // The second bidder reads the room, then the first bidder's bid is written before the second's write.
    let raced = false;
    let first: (() => Promise<void>) | undefined;
    const racing: RoomStore = {
      ...base,
      async save(read, next, nextAt) {
        if (!raced && first) {
          raced = true;
          await first();
        }
        return base.save(read, next, nextAt);
      },
    };
    const r = await room(DUTCH_10, racing);
    await transition(r.ctx, ID);
    first = () => bid({ ...r.ctx, store: base }, r.first, { amount: DUTCH_10_AMOUNT });
    await bid(r.ctx, r.second, { amount: DUTCH_10_AMOUNT });
    expect(r.of('first', 'bid')).toMatchObject([{ outcome: 'accepted' }]);
    expect(r.of('second', 'bid')).toMatchObject([
      { outcome: 'refused', message: 'Not allowed to post bid on current (pre-sealedbid) phase' },
    ]);
    expect((await base.get(ID))!.state.bids).toMatchObject([{ bidderId: B1, amount: DUTCH_10_AMOUNT }]);
  });

  it('judges a named bid once: copies sent together and a copy sent again hear the first answer', async () => {
    const r = await room();
    await transition(r.ctx, ID);
    const versionBefore = await version(r.store);
    const named = { amount: DUTCH_10_AMOUNT, bidId: 'tab-1-bid-0001' };
    await Promise.all([bid(r.ctx, r.first, named), bid(r.ctx, { ...r.first, connectionId: 'first-tab-2' }, named)]);
    await bid(r.ctx, { ...r.first, connectionId: 'first-again' }, named);
    const answer = { type: 'bid', outcome: 'accepted', amount: DUTCH_10_AMOUNT, bidId: 'tab-1-bid-0001' };
    for (const c of ['first', 'first-tab-2', 'first-again']) expect(r.of(c, 'bid')).toEqual([answer]);
    expect(await version(r.store)).toBe(versionBefore + 1);
    expect(await r.store.journalEntries(ID)).toHaveLength(1);
  });
});

describe('room use cases: timers and closing', () => {
  it('applies a transition once when two timers of the same version fire together: one goes on, the other stops', async () => {
    const r = await room();
    const read = await version(r.store);
    const rooms = r.of('observer', 'room').length;
    const orders = await Promise.all([transition(r.ctx, ID, read), transition(r.ctx, ID, read)]);
    expect(orders.filter(Boolean)).toHaveLength(1);
    expect(await version(r.store)).toBe(read + 1);
    expect(r.of('observer', 'room')).toHaveLength(rooms + 1);
  });

  it('lets a stale timer (a version the room has left) do nothing', async () => {
    const r = await room();
    const stale = await version(r.store);
    await bid(r.ctx, r.first, { amount: DUTCH_10_AMOUNT });
    const [item, sent] = [await r.store.get(ID), r.sent.get('observer')?.length];
    r.at(SEALED_AT);
    expect(await transition(r.ctx, ID, stale)).toBeUndefined();
    expect(await r.store.get(ID)).toEqual(item);
    expect(r.sent.get('observer')?.length).toBe(sent);
  });

  it('posts the results once the room has ended, tries a failed post again after a pause, then files the audit', async () => {
    const r = await room();
    let down = true;
    const audits: unknown[] = [];
    const auctions: RoomAuctions = {
      ...r.auctions,
      postResults: async (state) => {
        if (down) throw new Error('the API is down');
        r.posted.push(state.auctionId);
      },
      attachAudit: async (_state, audit) => void audits.push(audit),
    };
    const ctx = { ...r.ctx, auctions };
    r.at('2026-11-24T18:00:00+02:00'); // nobody bid in the Dutch part: the auction has ended
    const retry = await transition(ctx, ID);
    const waiting = (await r.store.get(ID))!;
    expect(waiting).toMatchObject({ postAttempts: 1, state: { ended: { reason: 'no-dutch-bid' } } });
    expect(waiting.posted).toBeUndefined();
    expect(retry).toMatchObject({ nextAt: waiting.retryAt });
    expect(r.of('observer', 'room').at(-1)).toMatchObject({ results: 'waiting' });
    down = false;
    r.at(retry!.nextAt);
    expect(await transition(ctx, ID, retry!.version)).toBeUndefined(); // nothing more to wait for
    expect(r.posted).toEqual([ID]);
    expect(audits).toHaveLength(1);
    expect(await r.store.get(ID)).toMatchObject({ posted: retry!.nextAt, audited: true });
    expect(r.of('observer', 'room').at(-1)).toMatchObject({ results: 'posted' });
  });

  it('closes the room of a cancelled auction: everyone told, the auction marked, and no bid or timer changes it after', async () => {
    const r = await room();
    const cancelled = recordingAuctions({ close: true });
    expect(await planOrClose({ ...r.ctx, auctions: cancelled.auctions }, ID)).toBe(true);
    expect(cancelled.marks).toEqual(['closed']);
    expect(r.of('observer', 'room').at(-1)).toMatchObject({ closed: true });
    const closed = await r.store.get(ID);
    await bid(r.ctx, r.first, { amount: DUTCH_10_AMOUNT });
    expect(r.of('first', 'bid')).toMatchObject([{ outcome: 'refused', code: 'closed' }]);
    expect(await transition(r.ctx, ID)).toBeUndefined();
    await closeRoom(r.ctx, ID);
    expect(await r.store.get(ID)).toEqual(closed);
    expect(await documentFor(r.ctx, r.observer)).toContain('"closed":true');
  });

  it('never closes a room whose end posted the results: the bot running while the room files its audit changes nothing', async () => {
    // The room's own results take its auction out of active.auction, with the room still marked planned: the room
    // bot's work index then says "close". A bot run between the post and the room's write of its end must leave the
    // room to end by itself: told once, ended, never "closed" (a page that heard "closed" last never saw the end).
    const r = await room();
    const afterPost = recordingAuctions({ close: true });
    const bot: Promise<boolean>[] = [];
    const auctions: RoomAuctions = {
      ...r.auctions,
      attachAudit: async () => {
        bot.push(planOrClose({ ...r.ctx, auctions: afterPost.auctions }, ID));
        await bot[0];
      },
    };
    r.at('2026-11-24T18:00:00+02:00'); // nobody bid in the Dutch part: the auction has ended
    await transition({ ...r.ctx, auctions }, ID);
    expect(bot).toHaveLength(1);
    expect(afterPost.marks).toEqual(['closed']); // the auction remembers the room is done with it
    const rooms = r.of('observer', 'room');
    expect(rooms.filter((m) => m.closed)).toEqual([]);
    expect(rooms.at(-1)).toMatchObject({ results: 'posted', document: { ended: { reason: 'no-dutch-bid' } } });
    expect(await r.store.get(ID)).toMatchObject({ audited: true });
    expect((await r.store.get(ID))!.closed).toBeUndefined();
  });

  it('plans a room once: a second planning finds it and arms the same timer', async () => {
    const r = await room();
    const planned = await r.store.get(ID);
    expect(await planOrClose(r.ctx, ID)).toBe(true);
    expect(r.marks).toEqual(['planned']);
    expect(await r.store.get(ID)).toEqual(planned);
    expect(r.armed.at(-1)).toMatchObject({ auctionId: ID, version: planned!.state.version });
  });
});

describe('room use cases: the handshake', () => {
  const SECRET = 'a participation secret';
  const participationSecret = async () => SECRET;
  const signature = (bidderId: string) => decodeURIComponent(ROOM_LINKS.dgfInsider.key(SECRET, ID, bidderId));

  it("connects an observer, a bidder by their link and a bidder by the page's socket token", async () => {
    const r = await room();
    const ctx = { ...r.ctx, participationSecret };
    const seconds = Math.floor(r.clock.now / 1e6);
    expect(await connect(ctx, 'watcher', { auction_id: ID })).toBeUndefined();
    expect(await connect(ctx, 'linked', { auction_id: ID, bidder_id: B1, signature: signature(B1) })).toBeUndefined();
    const token = sessionToken(SECRET, 'socket', ID, B2, seconds);
    expect(await connect(ctx, 'paged', { auction_id: ID, token })).toBeUndefined();
    expect(await r.store.connection('watcher')).toEqual({ connectionId: 'watcher', auctionId: ID });
    expect(await r.store.connection('linked')).toEqual({ connectionId: 'linked', auctionId: ID, bidderId: B1 });
    expect(await r.store.connection('paged')).toEqual({ connectionId: 'paged', auctionId: ID, bidderId: B2 });
  });

  it('refuses a room not open, a forged or borrowed link and an expired token, and connects nothing', async () => {
    const r = await room();
    const ctx = { ...r.ctx, participationSecret };
    const seconds = Math.floor(r.clock.now / 1e6);
    expect(await connect(ctx, 'c1', { auction_id: 'f'.repeat(32) })).toMatchObject({ status: 404 });
    expect(await connect(ctx, 'c2', { auction_id: 'not an id' })).toMatchObject({ status: 404 });
    expect(await connect(ctx, 'c3', { auction_id: ID, bidder_id: B1, signature: signature(B2) })).toMatchObject({
      status: 403,
      name: 'signature',
    });
    expect(await connect(ctx, 'c4', { auction_id: ID, bidder_id: B1 })).toMatchObject({ status: 403 });
    const stale = sessionToken(SECRET, 'socket', ID, B1, seconds - 61);
    expect(await connect(ctx, 'c5', { auction_id: ID, token: stale })).toMatchObject({ status: 403, name: 'token' });
    for (const c of ['c1', 'c2', 'c3', 'c4', 'c5']) expect(await r.store.connection(c)).toBeUndefined();
  });
});
