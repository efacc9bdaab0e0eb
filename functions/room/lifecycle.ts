import { formatKyiv } from '#domain/kernel/time.ts';
import {
  auditDocument,
  isEnded,
  nextTransitionAt,
  planRoom,
  revealNames,
  type RoomAuction,
  type RoomItem,
} from '#domain/room/engine.ts';
import type { RoomAuctions, TimerOrder } from '#domain/room/ports.ts';
import { log, publishMetrics } from '#runtime/observability.ts';
import { TELEMETRY } from '#platform/telemetry.ts';
import {
  broadcast,
  due,
  JOURNALED_REFUSALS,
  micros,
  nowText,
  orderOf,
  oneStep,
  save,
  timerAt,
  upToDate,
  type RoomContext,
} from './room.ts';

/**
 * The room's life outside bids: planning it when its auction enters active.auction, closing it when the auction is
 * cancelled, and the timers' work up to the end (the results posted once, the names revealed, the audit filed). Only
 * the timer and the room bot load this; what it needs of the auction (`RoomAuctions`: the auctions and documents
 * contexts) comes in the context (auctions.ts).
 *
 * The end: the results are posted through the same domain command as `POST /auction` (the auction's own status
 * makes it happen once: a second post finds the auction out of active.auction and is taken as done), then the names
 * are revealed and the audit filed. A failed step is retried with a growing pause; the room shows `results: waiting`.
 */
export interface LifecycleContext extends RoomContext {
  auctions: RoomAuctions;
}

/** Retry pauses of a failed results post: 1 s doubling to at most a minute. */
export const retryPause = (attempts: number) => Math.min(60, 2 ** attempts) * 1_000_000;

// ------------------------------------------------------------------------------------------------------ planning

/**
 * Plans the room of an auction that entered active.auction, and closes the room of an auction that left
 * active.auction without it (a cancellation); the auction then remembers how far the room got. Returns whether it
 * did anything.
 */
export async function planOrClose(ctx: LifecycleContext, auctionId: string): Promise<boolean> {
  const work = await ctx.auctions.work(auctionId);
  if (!work) return false;
  if ('close' in work) {
    await closeRoom(ctx, auctionId);
    await ctx.auctions.mark(auctionId, 'closed', ctx.clock());
    return true;
  }
  const order = await openRoom(ctx, work.plan);
  await ctx.auctions.mark(auctionId, 'planned', ctx.clock());
  if (order) await ctx.ports.arm(order);
  return true;
}

/** The room planned once (created only if absent: another run may have planned it); its timer's order. */
export async function openRoom(ctx: RoomContext, auction: RoomAuction): Promise<TimerOrder | undefined> {
  const item: RoomItem = { state: planRoom(auction, nowText(ctx)), sealedRev: 0 };
  const created = await ctx.store.create(item, timerAt(ctx, item));
  const current = created ? item : await ctx.store.get(auction.id);
  return current && orderOf(ctx, current);
}

/**
 * The room closed (its auction was cancelled) and every connection told; a room that has ended stays as it is, and so
 * does one whose end is due: its own results took the auction out of active.auction, and its timer is writing the end
 * (closing it then would tell every page "closed" beside, or after, the end).
 */
export async function closeRoom(ctx: RoomContext, auctionId: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const item = await ctx.store.get(auctionId);
    if (!item || item.closed || item.posted) return;
    if (isEnded(await upToDate(ctx, item.state, nowText(ctx)))) return;
    const closed = { ...item, closed: nowText(ctx) };
    if (await save(ctx, item, closed)) return broadcast(ctx, closed);
  }
}

// ------------------------------------------------------------------------------------------------------ timers

/**
 * One timer's work: apply what is due (stage boundaries, the end, the results post), write it if the room is still
 * as read, tell every connection, and say when to wake next. `version`: the timer's own room version; a room that
 * moved on has its own timer, so this one stops (undefined). Without it (the backstop) the room is taken as it is.
 */
export async function transition(
  ctx: LifecycleContext,
  auctionId: string,
  version?: number,
): Promise<TimerOrder | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const item = await ctx.store.get(auctionId);
    if (!item || item.closed) return undefined;
    if (version !== undefined && item.state.version !== version) return undefined;
    const now = nowText(ctx);
    const planned = nextTransitionAt(item.state);
    // Each step returns what it was given when nothing is due (upToDate the same state), a new object when it changes it.
    const state = await upToDate(ctx, item.state, now);
    let next: RoomItem = state === item.state ? item : { ...item, state };
    if (next.state.version !== item.state.version && planned)
      publishMetrics(
        {},
        { [TELEMETRY.roomTransitionLateness]: [(micros(now) - micros(planned)) / 1000, 'Milliseconds'] },
      );
    if (isEnded(next.state) && !next.posted && due(next.retryAt ?? now, now)) next = await postResults(ctx, next, now);
    if (next.posted && !next.audited && due(next.retryAt ?? now, now)) next = await attachAudit(ctx, next, now);
    if (next === item) return orderOf(ctx, item);
    next = oneStep(item, next);
    if (await save(ctx, item, next)) {
      await broadcast(ctx, next);
      return orderOf(ctx, next);
    }
    if (version !== undefined) return undefined; // someone else wrote the room, and armed its timer
  }
  return undefined;
}

/** A failed step of the end: counted, and tried again after a growing pause. */
const retried = (item: RoomItem, now: string): RoomItem => {
  const attempts = (item.postAttempts ?? 0) + 1;
  return { ...item, postAttempts: attempts, retryAt: formatKyiv(micros(now) + retryPause(attempts)) };
};

/** Posts the results once (the auction's status guards it); then the names are revealed. */
async function postResults(ctx: LifecycleContext, item: RoomItem, now: string): Promise<RoomItem> {
  const { state } = item;
  try {
    await ctx.auctions.postResults(state, micros(now));
  } catch (error) {
    if (!(await ctx.auctions.resultsPosted(state.auctionId))) {
      const next = retried(item, now);
      log().error('room: posting the results failed; retried', {
        auction: state.auctionId,
        attempts: next.postAttempts,
        error: error as Error,
      });
      publishMetrics({}, { [TELEMETRY.roomResultsPostFailures]: [1, 'Count'] });
      return next;
    }
  }
  publishMetrics({}, { [TELEMETRY.roomResultsPosted]: [1, 'Count'] });
  const { retryAt: _, postAttempts: __, ...rest } = item;
  return { ...rest, posted: now, state: revealNames(state, now) };
}

/**
 * The audit document (every stage, every bid the room saw, accepted or refused, with its time) filed and attached to
 * the auction (once: the auction remembers it); a failure is retried like a results post.
 */
async function attachAudit(ctx: LifecycleContext, item: RoomItem, now: string): Promise<RoomItem> {
  const id = item.state.auctionId;
  try {
    const [journal, refusals] = await Promise.all([ctx.store.journalEntries(id), ctx.store.refusalCounts(id)]);
    const unjournaled = refusals.map((r) => ({ bidderId: r.bidderId, count: r.refused - JOURNALED_REFUSALS }));
    const audit = auditDocument(
      item.state,
      journal,
      unjournaled.filter((r) => r.count > 0),
    );
    await ctx.auctions.attachAudit(item.state, audit, micros(now));
    const { retryAt: _, postAttempts: __, ...rest } = item;
    return { ...rest, audited: true };
  } catch (error) {
    const next = retried(item, now);
    log().error('room: attaching the audit document failed; retried', {
      auction: id,
      attempts: next.postAttempts,
      error: error as Error,
    });
    return next;
  }
}
