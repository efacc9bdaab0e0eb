import { admitBefore, intervalMs } from '../../functions/domain/kernel/rate-limit.ts';
import type { Micros } from '../../functions/domain/kernel/time.ts';
import type { BidEntry, RoomConnection, RoomItem, SealedBid } from '../../functions/domain/room/model.ts';
import type { RoomStore } from '../../functions/domain/room/ports.ts';

/**
 * The room's items in memory (`RoomStore`, domain/room/ports.ts), with the DynamoDB store's conditions
 * (room-repository.ts): the state written only while its version and sealed-bid counter are as read, created only if
 * absent, a named bid claimed once (a claim left unanswered for 30 s may be taken over), a kept answer never replaced
 * but by a refusal's. Every write and read copies (as a table would), so no caller shares an object with the store.
 * For the unit tests of the room's use cases and a local runtime without DynamoDB; no Lambda imports it.
 */
export interface MemoryRoomStore extends RoomStore {
  /** When each room's timer is due, as the store indexes it (the backstop's `WORK#room-timers`). */
  readonly timers: ReadonlyMap<string, Micros | undefined>;
}

/** A claim unanswered for this long lost its judge (room-repository.ts CLAIM_STALE_SECONDS). */
const CLAIM_STALE_MICROS = 30_000_000;

interface Claim {
  claimedAt: Micros;
  answer?: unknown;
}

export function memoryRoomStore(): MemoryRoomStore {
  const rooms = new Map<string, RoomItem>();
  const timers = new Map<string, Micros | undefined>();
  const sealed = new Map<string, Map<string, SealedBid>>();
  const journal = new Map<string, BidEntry[]>();
  const refusals = new Map<string, Map<string, number>>();
  const claims = new Map<string, Claim>();
  const connections = new Map<string, RoomConnection & { tat?: number }>();

  const copy = <T>(value: T): T => structuredClone(value);
  const of = <K, V>(map: Map<string, Map<K, V>>, auctionId: string) => {
    const inner = map.get(auctionId) ?? new Map<K, V>();
    map.set(auctionId, inner);
    return inner;
  };
  const claimKey = (auctionId: string, bidderId: string, clientBidId: string) =>
    `${auctionId}#${bidderId}#${clientBidId}`;
  /** The condition of every write of the state: the room is still as read. */
  const asRead = (read: RoomItem) => {
    const stored = rooms.get(read.state.auctionId);
    return !!stored && stored.state.version === read.state.version && stored.sealedRev === read.sealedRev;
  };
  const withoutAllowance = ({ tat: _, ...connection }: RoomConnection & { tat?: number }): RoomConnection =>
    copy(connection);

  const store: MemoryRoomStore = {
    timers,

    async get(auctionId) {
      const item = rooms.get(auctionId);
      return item && copy(item);
    },

    async create(item, nextAt) {
      if (rooms.has(item.state.auctionId)) return false;
      rooms.set(item.state.auctionId, copy(item));
      timers.set(item.state.auctionId, nextAt);
      return true;
    },

    async save(read, next, nextAt) {
      if (!asRead(read)) return false;
      rooms.set(read.state.auctionId, copy({ ...next, sealedRev: read.sealedRev }));
      timers.set(read.state.auctionId, nextAt);
      return true;
    },

    async putSealed(read, bid) {
      if (!asRead(read)) return false;
      const id = read.state.auctionId;
      const stored = rooms.get(id);
      if (stored) rooms.set(id, { ...stored, sealedRev: read.sealedRev + 1 });
      of(sealed, id).set(bid.bidderId, copy(bid));
      return true;
    },

    async sealedBids(auctionId) {
      return copy([...of(sealed, auctionId).values()]);
    },

    async journal(auctionId, entry, keptRefusals) {
      if (entry.outcome === 'refused') {
        const counts = of(refusals, auctionId);
        const refused = (counts.get(entry.bidderId) ?? 0) + 1;
        counts.set(entry.bidderId, refused);
        if (refused > keptRefusals) return;
      }
      journal.set(auctionId, [...(journal.get(auctionId) ?? []), copy(entry)]);
    },

    async journalEntries(auctionId) {
      return copy(journal.get(auctionId) ?? []);
    },

    async refusalCounts(auctionId) {
      return [...of(refusals, auctionId)].map(([bidderId, refused]) => ({ bidderId, refused }));
    },

    async claimBid(auctionId, bidderId, clientBidId, now) {
      const key = claimKey(auctionId, bidderId, clientBidId);
      const claim = claims.get(key);
      if (claim && (claim.answer !== undefined || claim.claimedAt >= now - CLAIM_STALE_MICROS)) return false;
      claims.set(key, { claimedAt: now });
      return true;
    },

    async bidAnswer<A>(auctionId: string, bidderId: string, clientBidId: string) {
      const answer = claims.get(claimKey(auctionId, bidderId, clientBidId))?.answer;
      // What was kept is what the caller kept (keepBidAnswer): the type it asks for.
      return answer === undefined ? undefined : (copy(answer) as A);
    },

    async keepBidAnswer(auctionId, bidderId, clientBidId, answer) {
      const claim = claims.get(claimKey(auctionId, bidderId, clientBidId));
      if (!claim) return answer; // as an update of an item that expired: nothing to keep it on
      const kept = claim.answer as typeof answer | undefined;
      if (kept !== undefined && kept.outcome !== 'refused') return copy(kept);
      claim.answer = copy(answer);
      return answer;
    },

    async connect(connection) {
      connections.set(connection.connectionId, copy(connection));
    },

    async connection(connectionId) {
      const connection = connections.get(connectionId);
      return connection && withoutAllowance(connection);
    },

    async spendMessage(connectionId, limit, nowMs) {
      const connection = connections.get(connectionId);
      if (!connection) return undefined;
      const tat = connection.tat ?? Number.NEGATIVE_INFINITY;
      const admitted = tat < nowMs || tat <= admitBefore(limit, nowMs);
      if (admitted) connection.tat = Math.max(tat, nowMs) + intervalMs(limit);
      return { connection: withoutAllowance(connection), admitted };
    },

    async disconnect({ connectionId, auctionId }) {
      if (connections.get(connectionId)?.auctionId === auctionId) connections.delete(connectionId);
    },

    async connections(auctionId) {
      return [...connections.values()].filter((c) => c.auctionId === auctionId).map(withoutAllowance);
    },
  };
  return store;
}
