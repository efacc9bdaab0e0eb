import { formatKyiv, parseInstant, type Micros } from '#domain/kernel/time.ts';
import {
  advance,
  documentTexts,
  isEnded,
  needsSealedBids,
  nextTransitionAt,
  type RoomConnection,
  type RoomItem,
  type RoomState,
  type SealedBid,
} from '#domain/room/engine.ts';
import type { RoomPorts, RoomStore, TimerOrder } from '#domain/room/ports.ts';
import { log } from '#runtime/observability.ts';
import { roomChannel } from './lambdas.ts';

/**
 * The auction room's use cases over their ports: the pure rules (domain/room/engine.ts) over the room's items
 * (`RoomStore`), written with conditions on the room's version, so a stale timer, a repeated one or a lost race changes
 * nothing; every change is followed by arming the next timer (one per version) and sending every connection the room
 * document (`RoomPorts`). The Lambdas hand them a `RoomContext` (context.ts: DynamoDB and API Gateway or the local
 * runtime's sockets); the unit tests an in-memory store (test/support/memory-room-store.ts).
 *
 * This module is what every room Lambda shares (the room's time, the documents, the fan-out); a bid is bidding.ts, a
 * connection connection.ts, planning, closing and the end (results, names, audit) lifecycle.ts.
 */
export interface RoomContext {
  store: RoomStore;
  ports: RoomPorts;
  /** The server clock, read at each step: a write that lost a race is judged again at its own time. */
  clock: () => Micros;
}

/** The server clock as the rules take it: an ISO instant with the Kyiv offset. */
export const nowText = (ctx: Pick<RoomContext, 'clock'>): string => formatKyiv(ctx.clock());
export const micros = (text: string): number => parseInstant(text) ?? 0;
export const due = (at: string | undefined, now: string) => at !== undefined && micros(at) <= micros(now);

/** The journal keeps each bidder's first refused bids, this many, for the audit; the rest are only counted. */
export const JOURNALED_REFUSALS = 20;

/** What the room waits for next: a stage boundary, a results post (or its retry); nothing once done or closed. */
export function nextAt(item: RoomItem, now: string): string | undefined {
  if (item.closed) return undefined;
  if (!isEnded(item.state)) return nextTransitionAt(item.state);
  if (!item.posted) return item.retryAt ?? item.state.ended?.at ?? now;
  if (!item.audited) return item.retryAt ?? item.posted;
  return undefined;
}

export const orderOf = (ctx: RoomContext, item: RoomItem): TimerOrder | undefined => {
  const at = nextAt(item, nowText(ctx));
  return at === undefined ? undefined : { auctionId: item.state.auctionId, version: item.state.version, nextAt: at };
};

/** The room's timer instant as the store indexes it (the timers' backstop), none once it needs no more timers. */
export const timerAt = (ctx: RoomContext, item: RoomItem): Micros | undefined => {
  const at = nextAt(item, nowText(ctx));
  return at === undefined ? undefined : micros(at);
};

/**
 * One write, one version step, whatever it applied (a bid after a boundary the timer had not applied yet, the end and
 * the names revealed at once): an observer takes a version past the next as a change it missed and reads the room
 * again (room-page/assets/broadcast.js, RoomClient.follow), which every observer at once must not do for nothing.
 */
export const oneStep = (read: RoomItem, next: RoomItem): RoomItem =>
  next.state.version > read.state.version + 1
    ? { ...next, state: { ...next.state, version: read.state.version + 1 } }
    : next;

/** Writes `next` if the room is still `read`; false when it moved on. */
export const save = (ctx: RoomContext, read: RoomItem, next: RoomItem) =>
  ctx.store.save(read, next, timerAt(ctx, next));

/** The state brought up to `now`: every boundary due applied (the sealed bids read only when a sealed stage closes). */
export async function upToDate(ctx: RoomContext, state: RoomState, now: string): Promise<RoomState> {
  if (isEnded(state) || !due(nextTransitionAt(state), now)) return state;
  const sealed = needsSealedBids(state, now) ? await ctx.store.sealedBids(state.auctionId) : [];
  return advance(state, now, sealed);
}

/** Sends one message to one connection: an object as JSON, a string as the message already serialized. */
export const sendTo = (ctx: RoomContext, connectionId: string, message: unknown) =>
  ctx.ports.send(connectionId, Buffer.from(typeof message === 'string' ? message : JSON.stringify(message)));

// ------------------------------------------------------------------------------------------------------ documents

/**
 * The room messages of one moment: the public document's text built once (what every observer gets), a bidder's the
 * same text with their own part added (domain/room/engine.ts documentTexts), each in the message envelope.
 */
export function roomMessages(item: RoomItem, sealed: SealedBid[], now: string) {
  const texts = documentTexts(item.state, now);
  const tail = JSON.stringify({
    ...(isEnded(item.state) && { results: item.posted ? 'posted' : 'waiting' }),
    ...(item.closed && { closed: true }),
  });
  const message = (document: string) =>
    `{"type":"room","document":${document}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
  return {
    observer: message(texts.public),
    bidder: (bidderId: string) =>
      message(
        texts.bidder(
          bidderId,
          sealed.find((s) => s.bidderId === bidderId),
        ),
      ),
  };
}

/** The room message of one connection: the public document, or the bidder's (with their own sealed bid). */
export function roomMessage(item: RoomItem, bidderId: string | undefined, sealed: SealedBid[], now: string): string {
  const messages = roomMessages(item, sealed, now);
  return bidderId ? messages.bidder(bidderId) : messages.observer;
}

/** `resume`: the room document for one connection now (none before the room is planned). */
export async function documentFor(ctx: RoomContext, connection: RoomConnection): Promise<string | undefined> {
  const item = await ctx.store.get(connection.auctionId);
  if (!item) return undefined;
  const sealed = connection.bidderId ? await ctx.store.sealedBids(connection.auctionId) : [];
  return roomMessage(item, connection.bidderId, sealed, nowText(ctx));
}

/** `$disconnect`: the connection is forgotten (API Gateway calls it on a close, best effort; a 410 on send does too). */
export async function disconnect(ctx: RoomContext, connectionId: string): Promise<void> {
  const connection = await ctx.store.connection(connectionId);
  if (connection) await ctx.store.disconnect(connection);
}

// ------------------------------------------------------------------------------------------------------ fan-out

/** Who a change is told to: every connection of the room (one Query), and the sealed bids their documents show. */
export interface Audience {
  connections: RoomConnection[];
  sealed: SealedBid[];
}

export const audienceOf = async (ctx: RoomContext, auctionId: string): Promise<Audience> => {
  const [connections, sealed] = await Promise.all([ctx.store.connections(auctionId), ctx.store.sealedBids(auctionId)]);
  return { connections, sealed };
};

/**
 * Every connection of the room gets its document, and the room's channel the public one (the observers); connections
 * API Gateway says are gone are forgotten.
 */
export async function broadcast(ctx: RoomContext, item: RoomItem): Promise<void> {
  await tell(ctx, item, await audienceOf(ctx, item.state.auctionId));
}

/**
 * The fan-out: each message built and encoded once per audience. Observers: one publish of the public document to the
 * room's channel (AppSync Events fans it out), unless the change is private (`toObservers` false: a sealed bid only
 * its bidder sees). Connections (bidders, and observers on the room's socket): one send each (PostToConnection).
 */
export async function tell(ctx: RoomContext, item: RoomItem, audience: Audience, toObservers = true): Promise<void> {
  const { connections, sealed } = audience;
  if (!connections.length && !toObservers) return;
  const messages = roomMessages(item, sealed, nowText(ctx));
  const auctionId = item.state.auctionId;
  // A failed publish is logged, never thrown: observers catch up with the next change (each carries the whole document).
  const published = toObservers
    ? ctx.ports.publish(roomChannel(auctionId), messages.observer).catch((error: Error) => {
        log().warn('room: the observers could not be told', { auction: auctionId, error: error.message });
      })
    : undefined;
  const observer = Buffer.from(messages.observer);
  const ofBidder = new Map<string, Buffer>();
  const payload = (bidderId: string) => {
    const known = ofBidder.get(bidderId) ?? Buffer.from(messages.bidder(bidderId));
    ofBidder.set(bidderId, known);
    return known;
  };
  const { gone, failed } = await fanOut(
    ctx.ports,
    connections.map((c) => ({
      connectionId: c.connectionId,
      message: c.bidderId ? payload(c.bidderId) : observer,
    })),
  );
  await Promise.all(gone.map((connectionId) => ctx.store.disconnect({ connectionId, auctionId })));
  await published;
  if (failed) log().warn('room: some connections could not be told', { auction: auctionId, failed });
}

/**
 * Sends to many connections, at most `concurrency` at a time (API Gateway and the Lambda's sockets stay bounded
 * whatever the audience), and returns the connections that are gone (to be forgotten). A failed send to one
 * connection does not stop the others.
 */
export async function fanOut(
  ports: RoomPorts,
  targets: { connectionId: string; message: Uint8Array }[],
  concurrency = 50,
): Promise<{ sent: number; gone: string[]; failed: number }> {
  const gone: string[] = [];
  let sent = 0;
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const { connectionId, message } = targets[next++];
      try {
        if ((await ports.send(connectionId, message)) === 'gone') gone.push(connectionId);
        else sent++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  return { sent, gone, failed };
}
