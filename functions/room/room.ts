import { postAuctionResults } from '#domain/auctions/commands.ts';
import { auctionType } from '#domain/auctions/catalog.ts';
import { attachRoomAudit, markRoom, roomAuctionOf } from '#domain/auctions/room.ts';
import { fileUrl, md5Hex, newFileKey } from '#domain/documents/docservice.ts';
import { roomDue } from '#domain/auctions/room-due.ts';
import { DomainError } from '#domain/kernel/errors.ts';
import { formatKyiv, parseInstant } from '#domain/kernel/time.ts';
import {
  advance,
  auditDocument,
  bidderDocument,
  isEnded,
  needsSealedBids,
  nextTransitionAt,
  placeBid,
  planRoom,
  publicDocument,
  results,
  revealNames,
  type BidOutcome,
  type RoomState,
  type SealedBid,
} from '#domain/room/engine.ts';
import { serviceCalendar } from '#runtime/calendar.ts';
import { requestNow } from '#runtime/clock.ts';
import { config } from '#runtime/config.ts';
import { documentPorts } from '#runtime/documents.ts';
import { log, publishMetrics } from '#runtime/observability.ts';
import { TELEMETRY } from '#runtime/telemetry.ts';
import { auctionRepository } from '#store/auction-repository.ts';
import { fileStore } from '#store/files.ts';
import { roomRepository, type RoomConnection, type RoomItem } from '#store/room-repository.ts';
import { sequences } from '#store/sequences.ts';
import { fanOut, roomPorts, type TimerOrder } from './ports.ts';

/**
 * The auction room as a service: the pure rules (domain/room/engine.ts) over the room's items, written with
 * conditions on the room's version, so a stale timer, a repeated one or a lost race changes nothing. Every change is
 * followed by arming the next timer (one per version: ports.ts) and sending every connection the room document.
 *
 * The end: the results are posted through the same domain command as `POST /auction` (the auction's own status
 * makes it happen once: a second post finds the auction out of active.auction and is taken as done), then the names
 * are revealed. A failed post is retried with a growing pause, and the room shows `results: waiting` meanwhile.
 */

/** The server clock as the rules take it: an ISO instant with the Kyiv offset. */
export const nowText = (): string => formatKyiv(requestNow());
const micros = (text: string): number => parseInstant(text) ?? 0;
const due = (at: string | undefined, now: string) => at !== undefined && micros(at) <= micros(now);

/** Retry pauses of a failed results post: 1 s doubling to at most a minute. */
const retryPause = (attempts: number) => Math.min(60, 2 ** attempts) * 1_000_000;

/** What the room waits for next: a stage boundary, a results post (or its retry); nothing once done or closed. */
export function nextAt(item: RoomItem): string | undefined {
  if (item.closed) return undefined;
  if (!isEnded(item.state)) return nextTransitionAt(item.state);
  if (!item.posted) return item.retryAt ?? item.state.ended?.at ?? nowText();
  if (!item.audited) return item.retryAt ?? item.posted;
  return undefined;
}

const orderOf = (item: RoomItem): TimerOrder | undefined => {
  const at = nextAt(item);
  return at === undefined ? undefined : { auctionId: item.state.auctionId, version: item.state.version, nextAt: at };
};

const save = (read: RoomItem, next: RoomItem) => {
  const at = nextAt(next);
  return roomRepository.save(read, next, at === undefined ? undefined : micros(at));
};

/** The state brought up to `now`: every boundary due applied (the sealed bids read only when a sealed stage closes). */
async function upToDate(state: RoomState, now: string): Promise<RoomState> {
  if (isEnded(state) || !due(nextTransitionAt(state), now)) return state;
  const sealed = needsSealedBids(state, now) ? await roomRepository.sealedBids(state.auctionId) : [];
  return advance(state, now, sealed);
}

// ------------------------------------------------------------------------------------------------------ planning

/**
 * Plans the room of an auction that entered active.auction (once: the room item is created only if absent), and
 * closes the room of an auction that left active.auction without it (a cancellation). Returns whether it did anything.
 */
export async function planOrClose(auctionId: string): Promise<boolean> {
  const auction = await auctionRepository.get(auctionId);
  if (!auction) return false;
  const work = roomDue(auction.root, auction.internal);
  if (work === 'plan') {
    const state = planRoom(roomAuctionOf(auction), nowText());
    const item: RoomItem = { state, sealedRev: 0 };
    const at = nextAt(item);
    const created = await roomRepository.create(item, at === undefined ? undefined : micros(at));
    const current = created ? item : await roomRepository.get(auctionId);
    await markRoom(auctionRepository, auctionId, 'planned');
    const order = current && orderOf(current);
    if (order) await roomPorts().arm(order);
    return true;
  }
  if (work === 'close') {
    for (let attempt = 0; attempt < 5; attempt++) {
      const item = await roomRepository.get(auctionId);
      if (!item || item.closed || item.posted) break;
      const closed = { ...item, closed: nowText() };
      if (await save(item, closed)) {
        await broadcast(closed);
        break;
      }
    }
    await markRoom(auctionRepository, auctionId, 'closed');
    return true;
  }
  return false;
}

// ------------------------------------------------------------------------------------------------------ timers

/**
 * One timer's work: apply what is due (stage boundaries, the end, the results post), write it if the room is still
 * as read, tell every connection, and say when to wake next. `version`: the timer's own room version; a room that
 * moved on has its own timer, so this one stops (undefined). Without it (the backstop) the room is taken as it is.
 */
export async function transition(auctionId: string, version?: number): Promise<TimerOrder | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const item = await roomRepository.get(auctionId);
    if (!item || item.closed) return undefined;
    if (version !== undefined && item.state.version !== version) return undefined;
    const now = nowText();
    const planned = nextTransitionAt(item.state);
    let next: RoomItem = { ...item, state: await upToDate(item.state, now) };
    if (next.state.version !== item.state.version && planned)
      publishMetrics(
        {},
        { [TELEMETRY.roomTransitionLateness]: [(micros(now) - micros(planned)) / 1000, 'Milliseconds'] },
      );
    if (isEnded(next.state) && !next.posted && due(next.retryAt ?? now, now)) next = await postResults(next, now);
    if (next.posted && !next.audited && due(next.retryAt ?? now, now)) next = await attachAudit(next, now);
    if (sameItem(item, next)) return orderOf(item);
    if (await save(item, next)) {
      await broadcast(next);
      return orderOf(next);
    }
    if (version !== undefined) return undefined; // someone else wrote the room, and armed its timer
  }
  return undefined;
}

const sameItem = (a: RoomItem, b: RoomItem) => JSON.stringify(a) === JSON.stringify(b);

/** Posts the results once (the auction's status guards it); then the names are revealed. */
async function postResults(item: RoomItem, now: string): Promise<RoomItem> {
  const { state } = item;
  try {
    await postAuctionResults(
      {
        principal: { name: 'auction-room', role: 'auction', levels: '' },
        now: micros(now),
        auctions: auctionRepository,
        sequences,
        type: state.procurementMethodType,
        auctionSite: config().auctionSite,
        calendar: serviceCalendar(),
      },
      state.auctionId,
      results(state) as never,
    );
  } catch (error) {
    if (!(await alreadyPosted(state.auctionId))) {
      const attempts = (item.postAttempts ?? 0) + 1;
      log().error('room: posting the results failed; retried', {
        auction: state.auctionId,
        attempts,
        error: error as Error,
      });
      publishMetrics({}, { [TELEMETRY.roomResultsPostFailures]: [1, 'Count'] });
      return { ...item, postAttempts: attempts, retryAt: formatKyiv(micros(now) + retryPause(attempts)) };
    }
  }
  publishMetrics({}, { RoomResultsPosted: [1, 'Count'] });
  const { retryAt: _, postAttempts: __, ...rest } = item;
  return { ...rest, posted: now, state: revealNames(state, now) };
}

/**
 * The audit document (every stage, every bid the room saw, accepted or refused, with its time) stored in the document
 * service and attached to the auction (once: the auction remembers it); a failure is retried like a results post.
 */
async function attachAudit(item: RoomItem, now: string): Promise<RoomItem> {
  const id = item.state.auctionId;
  try {
    const audit = auditDocument(item.state, await roomRepository.journalEntries(id));
    const bytes = Buffer.from(JSON.stringify(audit, null, 2), 'utf8');
    const md5 = md5Hex(bytes);
    const key = newFileKey();
    await fileStore().put(key, bytes, md5);
    const ports = await documentPorts();
    const base = config().publicUrl ?? '';
    const docservice = ports.docservice(base);
    const hash = `md5:${md5}`;
    await attachRoomAudit(
      auctionRepository,
      id,
      {
        title: `audit_${id}.json`,
        url: fileUrl(ports.keyring, docservice, key, hash),
        hash,
        format: 'application/json',
      },
      {
        keyring: ports.keyring,
        docservice,
        collection: `${auctionType(item.state.procurementMethodType).apiBase}/${id}/documents`,
        baseUrl: base,
        nowSeconds: Math.floor(micros(now) / 1e6),
        attached: [],
      },
      micros(now),
    );
    await ports.markAttached([key]);
    const { retryAt: _, postAttempts: __, ...rest } = item;
    return { ...rest, audited: true };
  } catch (error) {
    const attempts = (item.postAttempts ?? 0) + 1;
    log().error('room: attaching the audit document failed; retried', { auction: id, attempts, error: error as Error });
    return { ...item, postAttempts: attempts, retryAt: formatKyiv(micros(now) + retryPause(attempts)) };
  }
}

/** The results reached the auction already (a post whose answer was lost, a second timer): it left active.auction. */
async function alreadyPosted(auctionId: string): Promise<boolean> {
  const auction = await auctionRepository.get(auctionId);
  return !!auction && auction.root.status !== 'active.auction';
}

// ------------------------------------------------------------------------------------------------------ bids

export interface BidAnswer {
  type: 'bid';
  outcome: 'accepted' | 'sealed' | 'refused';
  amount: number;
  code?: string;
  message?: string;
}

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
): Promise<void> {
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
    await roomRepository.journal(item.state.auctionId, outcome.entry);
    // The bidder hears first; then the timer and everyone else (a large audience takes a while to tell).
    await reply(
      outcome.kind === 'refused'
        ? refused(outcome.refusal.code, outcome.refusal.message)
        : { type: 'bid', outcome: outcome.kind === 'sealed' ? 'sealed' : 'accepted', amount },
    );
    if (changed) {
      const order = orderOf(advanced);
      if (order) await roomPorts().arm(order);
      await broadcast(advanced);
    } else if (outcome.kind === 'sealed')
      await sendTo(advanced, connections(await roomRepository.connections(connection.auctionId), bidderId));
    return;
  }
  await reply(refused('busy', 'Another bid is already processing'));
}

const connections = (all: RoomConnection[], bidderId: string) => all.filter((c) => c.bidderId === bidderId);

// ------------------------------------------------------------------------------------------------------ documents

/** The room message of one connection: the public document, or the bidder's (with their own sealed bid). */
export function roomMessage(item: RoomItem, bidderId: string | undefined, sealed: SealedBid[], now: string): string {
  const { state } = item;
  const document = bidderId
    ? bidderDocument(
        state,
        bidderId,
        sealed.find((s) => s.bidderId === bidderId),
        now,
      )
    : publicDocument(state, now);
  return JSON.stringify({
    type: 'room',
    document,
    ...(isEnded(state) && { results: item.posted ? 'posted' : 'waiting' }),
    ...(item.closed && { closed: true }),
  });
}

/** The room document for one connection now (`resume`). */
export async function documentFor(connection: RoomConnection): Promise<string | undefined> {
  const item = await roomRepository.get(connection.auctionId);
  if (!item) return undefined;
  const sealed = connection.bidderId ? await roomRepository.sealedBids(connection.auctionId) : [];
  return roomMessage(item, connection.bidderId, sealed, nowText());
}

/** Every connection of the room gets its document; connections API Gateway says are gone are forgotten. */
export async function broadcast(item: RoomItem): Promise<void> {
  await sendTo(item, await roomRepository.connections(item.state.auctionId));
}

async function sendTo(item: RoomItem, targets: RoomConnection[]): Promise<void> {
  if (!targets.length) return;
  const now = nowText();
  const sealed = targets.some((c) => c.bidderId) ? await roomRepository.sealedBids(item.state.auctionId) : [];
  const shared = roomMessage(item, undefined, [], now);
  const { gone, failed } = await fanOut(
    targets.map((c) => ({
      connectionId: c.connectionId,
      message: c.bidderId ? roomMessage(item, c.bidderId, sealed, now) : shared,
    })),
  );
  await Promise.all(
    gone.map((connectionId) => roomRepository.disconnect({ connectionId, auctionId: item.state.auctionId })),
  );
  if (failed) log().warn('room: some connections could not be told', { auction: item.state.auctionId, failed });
}

/** The audit document of an ended room: every stage, every bid the room saw (accepted, sealed, refused) with its time. */
export async function auditOf(auctionId: string): Promise<unknown> {
  const item = await roomRepository.get(auctionId);
  if (!item) return undefined;
  return auditDocument(item.state, await roomRepository.journalEntries(auctionId));
}

/** A refusal of the API's kind, for the handlers' answers. */
export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
