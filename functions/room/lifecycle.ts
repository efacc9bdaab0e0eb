import { postAuctionResults } from '#domain/auctions/commands.ts';
import { attachRoomAudit, markRoom, roomAuctionOf } from '#domain/auctions/room.ts';
import { roomDue } from '#domain/auctions/room-due.ts';
import { fileUrl, md5Hex, newFileKey } from '#domain/documents/docservice.ts';
import { formatKyiv } from '#domain/kernel/time.ts';
import { auditDocument, isEnded, nextTransitionAt, planRoom, results, revealNames } from '#domain/room/engine.ts';
import { roomResultsContext } from '#runtime/contexts.ts';
import { auctionDocuments } from '#runtime/documents.ts';
import { log, publishMetrics } from '#runtime/observability.ts';
import { TELEMETRY } from '#runtime/telemetry.ts';
import { auctionRepository } from '#store/auction-repository.ts';
import { fileStore } from '#store/files/configured-store.ts';
import { roomRepository, type RoomItem } from '#store/room-repository.ts';
import { roomPorts, type TimerOrder } from './ports.ts';
import {
  broadcast,
  due,
  JOURNALED_REFUSALS,
  micros,
  nextAt,
  nowText,
  orderOf,
  retryPause,
  save,
  upToDate,
} from './room.ts';

/**
 * The room's life outside bids: planning it when its auction enters active.auction, closing it when the auction is
 * cancelled, and the timers' work up to the end (the results posted once, the names revealed, the audit filed). Only
 * the timer and the room bot load this (with the auction commands and the document service); the message routes
 * never do.
 *
 * The end: the results are posted through the same domain command as `POST /auction` (the auction's own status
 * makes it happen once: a second post finds the auction out of active.auction and is taken as done), then the names
 * are revealed and the audit filed. A failed step is retried with a growing pause; the room shows `results: waiting`.
 */

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
    await markRoom(auctionRepository, auctionId, 'planned', micros(nowText()));
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
    await markRoom(auctionRepository, auctionId, 'closed', micros(nowText()));
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
    // Each step returns what it was given when nothing is due (upToDate the same state), a new object when it changes it.
    const state = await upToDate(item.state, now);
    let next: RoomItem = state === item.state ? item : { ...item, state };
    if (next.state.version !== item.state.version && planned)
      publishMetrics(
        {},
        { [TELEMETRY.roomTransitionLateness]: [(micros(now) - micros(planned)) / 1000, 'Milliseconds'] },
      );
    if (isEnded(next.state) && !next.posted && due(next.retryAt ?? now, now)) next = await postResults(next, now);
    if (next.posted && !next.audited && due(next.retryAt ?? now, now)) next = await attachAudit(next, now);
    if (next === item) return orderOf(item);
    if (await save(item, next)) {
      await broadcast(next);
      return orderOf(next);
    }
    if (version !== undefined) return undefined; // someone else wrote the room, and armed its timer
  }
  return undefined;
}

/** Posts the results once (the auction's status guards it); then the names are revealed. */
async function postResults(item: RoomItem, now: string): Promise<RoomItem> {
  const { state } = item;
  try {
    await postAuctionResults(
      roomResultsContext(state.procurementMethodType, micros(now)),
      state.auctionId,
      results(state),
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
  publishMetrics({}, { [TELEMETRY.roomResultsPosted]: [1, 'Count'] });
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
    const [journal, refusals] = await Promise.all([
      roomRepository.journalEntries(id),
      roomRepository.refusalCounts(id),
    ]);
    const unjournaled = refusals.map((r) => ({ bidderId: r.bidderId, count: r.refused - JOURNALED_REFUSALS }));
    const audit = auditDocument(
      item.state,
      journal,
      unjournaled.filter((r) => r.count > 0),
    );
    const bytes = Buffer.from(JSON.stringify(audit, null, 2), 'utf8');
    const md5 = md5Hex(bytes);
    const key = newFileKey();
    await fileStore().put(key, bytes, md5);
    const { files, markAttached } = await auctionDocuments(item.state.procurementMethodType, id, micros(now));
    const hash = `md5:${md5}`;
    await attachRoomAudit(
      auctionRepository,
      id,
      {
        title: `audit_${id}.json`,
        url: fileUrl(files.keyring, files.docservice, key, hash),
        hash,
        format: 'application/json',
      },
      files,
      micros(now),
    );
    await markAttached([key]);
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
