import { formatKyiv, parseInstant } from '#domain/kernel/time.ts';
import {
  advance,
  documentTexts,
  isEnded,
  needsSealedBids,
  nextTransitionAt,
  placeBid,
  type BidOutcome,
  type RoomState,
  type SealedBid,
} from '#domain/room/engine.ts';
import { requestNow } from '#runtime/clock.ts';
import { log } from '#runtime/observability.ts';
import { roomRepository, type RoomConnection, type RoomItem } from '#store/room-repository.ts';
import type { BidOutcomeMessage } from './generated/protocol-types.ts';
import { fanOut, roomPorts, type TimerOrder } from './ports.ts';

/**
 * The auction room as a service: the pure rules (domain/room/engine.ts) over the room's items, written with
 * conditions on the room's version, so a stale timer, a repeated one or a lost race changes nothing. Every change is
 * followed by arming the next timer (one per version: ports.ts) and sending every connection the room document.
 *
 * This module is what every room Lambda shares (the bids, the documents, the fan-out); planning, closing and the end
 * (results, names, audit) are lifecycle.ts, which only the timer and the bot load.
 */

/** The server clock as the rules take it: an ISO instant with the Kyiv offset. */
export const nowText = (): string => formatKyiv(requestNow());
export const micros = (text: string): number => parseInstant(text) ?? 0;
export const due = (at: string | undefined, now: string) => at !== undefined && micros(at) <= micros(now);

/** Retry pauses of a failed results post: 1 s doubling to at most a minute. */
export const retryPause = (attempts: number) => Math.min(60, 2 ** attempts) * 1_000_000;

/** What the room waits for next: a stage boundary, a results post (or its retry); nothing once done or closed. */
export function nextAt(item: RoomItem): string | undefined {
  if (item.closed) return undefined;
  if (!isEnded(item.state)) return nextTransitionAt(item.state);
  if (!item.posted) return item.retryAt ?? item.state.ended?.at ?? nowText();
  if (!item.audited) return item.retryAt ?? item.posted;
  return undefined;
}

export const orderOf = (item: RoomItem): TimerOrder | undefined => {
  const at = nextAt(item);
  return at === undefined ? undefined : { auctionId: item.state.auctionId, version: item.state.version, nextAt: at };
};

export const save = (read: RoomItem, next: RoomItem) => {
  const at = nextAt(next);
  return roomRepository.save(read, next, at === undefined ? undefined : micros(at));
};

/** The state brought up to `now`: every boundary due applied (the sealed bids read only when a sealed stage closes). */
export async function upToDate(state: RoomState, now: string): Promise<RoomState> {
  if (isEnded(state) || !due(nextTransitionAt(state), now)) return state;
  const sealed = needsSealedBids(state, now) ? await roomRepository.sealedBids(state.auctionId) : [];
  return advance(state, now, sealed);
}

// ------------------------------------------------------------------------------------------------------ bids

/** The journal keeps each bidder's first refused bids, this many, for the audit; the rest are only counted. */
export const JOURNALED_REFUSALS = 20;

/** A bid's answer, as protocol.schema.json `bidOutcome` has it (`bidId`: the client's name of the bid, if it gave one). */
export type BidAnswer = BidOutcomeMessage;

const OBSERVER: BidAnswer = {
  type: 'bid',
  outcome: 'refused',
  amount: 0,
  code: 'observer',
  message: 'You are an observer and cannot bid',
};

/**
 * A bidder's bid: the room brought up to the clock first (a bid never meets a stage that has ended), judged by the
 * rules, and written with a condition on the version (a sealed bid in its own item, in the same transaction as a
 * bump of the state's sealed-bid counter); a lost race is judged again on the room as it now is.
 */
export async function placeBidFrom(
  connection: RoomConnection,
  amount: number,
  reply: (answer: BidAnswer) => Promise<unknown>,
  bidId?: string,
): Promise<void> {
  if (bidId && connection.bidderId)
    return placeNamedBid({ ...connection, bidderId: connection.bidderId }, amount, reply, bidId);
  if (!connection.bidderId) return void (await reply({ ...OBSERVER, amount }));
  const bidderId = connection.bidderId;
  const refused = (code: string, message: string): BidAnswer => ({
    type: 'bid',
    outcome: 'refused',
    amount,
    code,
    message,
  });
  for (let attempt = 0; attempt < 10; attempt++) {
    const item = await roomRepository.get(connection.auctionId);
    if (!item) return void (await reply(refused('room', 'The auction room is not open')));
    if (item.closed) return void (await reply(refused('closed', 'The auction was cancelled')));
    const now = nowText();
    const state = await upToDate(item.state, now);
    const outcome: BidOutcome = placeBid(state, { bidderId, amount }, now);
    const advanced: RoomItem = { ...item, state: outcome.kind === 'state' ? outcome.state : state };
    const changed = advanced.state.version !== item.state.version;
    if (changed && !(await save(item, advanced))) continue;
    if (outcome.kind === 'sealed' && !(await roomRepository.putSealed(advanced, outcome.sealed))) continue;
    // The bidder hears as soon as the bid is in the journal; the audience is read meanwhile (after the write: a
    // connection that joins later reads the new room when it resumes), then the timer is armed while everyone is told.
    const [, audience] = await Promise.all([
      roomRepository
        .journal(item.state.auctionId, outcome.entry, JOURNALED_REFUSALS)
        .then(() =>
          reply(
            outcome.kind === 'refused'
              ? refused(outcome.refusal.code, outcome.refusal.message)
              : { type: 'bid', outcome: outcome.kind === 'sealed' ? 'sealed' : 'accepted', amount },
          ),
        ),
      changed || outcome.kind === 'sealed' ? audienceOf(connection.auctionId) : undefined,
    ]);
    if (!audience) return;
    if (changed) {
      const order = orderOf(advanced);
      // Both finish before the handler does (a Lambda frozen mid-fan-out would tell the rest at its next call).
      const settled = await Promise.allSettled([order && roomPorts().arm(order), tell(advanced, audience)]);
      for (const s of settled) if (s.status === 'rejected') throw s.reason;
    } else
      await tell(advanced, { ...audience, connections: audience.connections.filter((c) => c.bidderId === bidderId) });
    return;
  }
  await reply(refused('busy', 'Another bid is already processing'));
}

/**
 * A bid the client named (protocol `bidId`) is judged once: the first copy claims the name and judges it; a copy
 * sent at the same time, or resent later (its answer lost with a dropped connection), hears the first answer and is
 * never judged again (store/room-repository.ts claimBid).
 */
async function placeNamedBid(
  connection: RoomConnection & { bidderId: string },
  amount: number,
  reply: (answer: BidAnswer) => Promise<unknown>,
  bidId: string,
): Promise<void> {
  const { auctionId, bidderId } = connection;
  if (await roomRepository.claimBid(auctionId, bidderId, bidId, micros(nowText())))
    return placeBidFrom(connection, amount, async (answer) =>
      reply(await roomRepository.keepBidAnswer(auctionId, bidderId, bidId, { ...answer, bidId })),
    );
  // Another copy judges it: its answer, as soon as it is kept.
  for (const pause of ANSWER_PAUSES_MS) {
    const earlier = await roomRepository.bidAnswer<BidAnswer>(auctionId, bidderId, bidId);
    if (earlier) return void (await reply(earlier));
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  await reply({
    type: 'bid',
    outcome: 'refused',
    amount,
    code: 'busy',
    message: 'Another bid is already processing',
    bidId,
  });
}

/** How long a copy waits for the judged copy's answer: about 8 s in all, within a route Lambda's 10 s. */
const ANSWER_PAUSES_MS = [25, 50, 100, 200, 400, 800, 800, 800, 800, 800, 800, 800, 800, 800];

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

/** The room document for one connection now (`resume`). */
export async function documentFor(connection: RoomConnection): Promise<string | undefined> {
  const item = await roomRepository.get(connection.auctionId);
  if (!item) return undefined;
  const sealed = connection.bidderId ? await roomRepository.sealedBids(connection.auctionId) : [];
  return roomMessage(item, connection.bidderId, sealed, nowText());
}

/** Who a change is told to: every connection of the room (one Query), and the sealed bids their documents show. */
interface Audience {
  connections: RoomConnection[];
  sealed: SealedBid[];
}

const audienceOf = async (auctionId: string): Promise<Audience> => {
  const [connections, sealed] = await Promise.all([
    roomRepository.connections(auctionId),
    roomRepository.sealedBids(auctionId),
  ]);
  return { connections, sealed };
};

/** Every connection of the room gets its document; connections API Gateway says are gone are forgotten. */
export async function broadcast(item: RoomItem): Promise<void> {
  await tell(item, await audienceOf(item.state.auctionId));
}

/**
 * The fan-out: each message built and encoded once per audience (observers share one payload, a bidder's tabs
 * theirs), then one send per connection (PostToConnection in AWS).
 */
async function tell(item: RoomItem, { connections, sealed }: Audience): Promise<void> {
  if (!connections.length) return;
  const messages = roomMessages(item, sealed, nowText());
  const observer = Buffer.from(messages.observer);
  const ofBidder = new Map<string, Buffer>();
  const payload = (bidderId: string) => {
    const known = ofBidder.get(bidderId) ?? Buffer.from(messages.bidder(bidderId));
    ofBidder.set(bidderId, known);
    return known;
  };
  const { gone, failed } = await fanOut(
    connections.map((c) => ({
      connectionId: c.connectionId,
      message: c.bidderId ? payload(c.bidderId) : observer,
    })),
  );
  await Promise.all(
    gone.map((connectionId) => roomRepository.disconnect({ connectionId, auctionId: item.state.auctionId })),
  );
  if (failed) log().warn('room: some connections could not be told', { auction: item.state.auctionId, failed });
}
