import { placeBid, type BidEntry, type RoomConnection, type RoomItem } from '#domain/room/engine.ts';
import { log } from '#runtime/observability.ts';
import {
  audienceOf,
  JOURNALED_REFUSALS,
  nowText,
  orderOf,
  oneStep,
  save,
  sendTo,
  tell,
  upToDate,
  type RoomContext,
} from './room.ts';
import type { BidOutcomeMessage } from './generated/protocol-types.ts';

/**
 * A bidder's bid (`{"action":"bid","amount":N,"bidId"?:"..."}`), in three steps: a bid the client named is claimed
 * first (judged once, however many copies arrive), then judged on the room as it is now (`judge`), then answered (its
 * answer journaled and, for a named bid, kept) before the room tells everyone else.
 */

export type BidAnswer = BidOutcomeMessage;

const refused = (amount: number, code: string, message: string): BidAnswer => ({
  type: 'bid',
  outcome: 'refused',
  amount,
  code,
  message,
});

const OBSERVER = (amount: number) => refused(amount, 'observer', 'You are an observer and cannot bid');
const BUSY = (amount: number) => refused(amount, 'busy', 'Another bid is already processing');

/** How long a copy waits for the judged copy's answer: about 8 s in all, within a route Lambda's 10 s. */
const ANSWER_PAUSES_MS = [25, 50, 100, 200, 400, 800, 800, 800, 800, 800, 800, 800, 800, 800];
/** A bid that lost this many races in a row is refused as busy (the room is being written by others). */
const ATTEMPTS = 10;

/**
 * The bid of one connection: an observer is refused; a named bid another copy has claimed gets that copy's answer;
 * otherwise the bid is judged, journaled and answered, and a change is told to every connection of the room (a sealed
 * bid only to the bidder's own, whose documents show it).
 */
export async function bid(
  ctx: RoomContext,
  connection: RoomConnection,
  { amount, bidId }: { amount: number; bidId?: string },
): Promise<void> {
  const { auctionId, bidderId } = connection;
  if (!bidderId) return answer(ctx, connection, OBSERVER(amount));
  if (bidId && !(await ctx.store.claimBid(auctionId, bidderId, bidId, ctx.clock())))
    return answer(ctx, connection, await earlierAnswer(ctx, connection, bidderId, bidId, amount));
  const judged = await judge(ctx, auctionId, bidderId, amount);
  // The bidder hears as soon as the bid is in the journal; the audience is read meanwhile (after the write: a
  // connection that joins later reads the new room when it resumes).
  const [, audience] = await Promise.all([
    journalAndAnswer(ctx, { ...connection, bidderId }, judged, bidId),
    judged.change ? audienceOf(ctx, auctionId) : undefined,
  ]);
  if (!audience || !judged.change) return;
  const { room, heardBy } = judged.change;
  if (heardBy === 'bidder')
    return tell(
      ctx,
      room,
      { ...audience, connections: audience.connections.filter((c) => c.bidderId === bidderId) },
      false,
    );
  // The timer is armed while everyone is told; both finish before the handler does (a Lambda frozen mid-fan-out
  // would tell the rest at its next call).
  const order = orderOf(ctx, room);
  const settled = await Promise.allSettled([order && ctx.ports.arm(order), tell(ctx, room, audience)]);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
}

/** A bid judged: its answer, its journal line (none when it never met an open room), and who must hear of it. */
interface Judged {
  answer: BidAnswer;
  entry?: BidEntry;
  /** The room the bid changed (everyone hears), or took a sealed bid in (the bidder's own connections hear). */
  change?: { room: RoomItem; heardBy: 'everyone' | 'bidder' };
}

/**
 * The one bid path: the room brought up to the clock first (a bid never meets a stage that has ended), the bid judged
 * by the rules and written with a condition on the room's version (a sealed bid in its own item, in the same
 * transaction as a bump of the state's sealed-bid counter); a lost race is judged again on the room as it now is.
 */
async function judge(ctx: RoomContext, auctionId: string, bidderId: string, amount: number): Promise<Judged> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const item = await ctx.store.get(auctionId);
    if (!item) return { answer: refused(amount, 'room', 'The auction room is not open') };
    if (item.closed) return { answer: refused(amount, 'closed', 'The auction was cancelled') };
    const now = nowText(ctx);
    const state = await upToDate(ctx, item.state, now);
    const outcome = placeBid(state, { bidderId, amount }, now);
    const room = oneStep(item, { ...item, state: outcome.kind === 'state' ? outcome.state : state });
    const changed = room.state.version !== item.state.version;
    if (changed && !(await save(ctx, item, room))) continue;
    if (outcome.kind === 'sealed' && !(await ctx.store.putSealed(room, outcome.sealed))) continue;
    const heardBy = changed ? 'everyone' : outcome.kind === 'sealed' ? 'bidder' : undefined;
    return {
      answer:
        outcome.kind === 'refused'
          ? refused(amount, outcome.refusal.code, outcome.refusal.message)
          : { type: 'bid', outcome: outcome.kind === 'sealed' ? 'sealed' : 'accepted', amount },
      entry: outcome.entry,
      ...(heardBy && { change: { room, heardBy } }),
    };
  }
  return { answer: BUSY(amount) };
}

/**
 * A named bid another copy claimed (sent at the same time, or resent after its answer was lost with a dropped
 * connection) is never judged again: it hears the first answer, as soon as it is kept.
 */
async function earlierAnswer(
  ctx: RoomContext,
  { auctionId }: RoomConnection,
  bidderId: string,
  bidId: string,
  amount: number,
): Promise<BidAnswer> {
  for (const pause of ANSWER_PAUSES_MS) {
    const earlier = await ctx.store.bidAnswer<BidAnswer>(auctionId, bidderId, bidId);
    if (earlier) return earlier;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return { ...BUSY(amount), bidId };
}

/** The judged bid journaled, its answer kept when the client named the bid (the kept one is given), then given. */
async function journalAndAnswer(
  ctx: RoomContext,
  connection: RoomConnection & { bidderId: string },
  judged: Judged,
  bidId: string | undefined,
): Promise<void> {
  const { auctionId, bidderId } = connection;
  if (judged.entry) await ctx.store.journal(auctionId, judged.entry, JOURNALED_REFUSALS);
  const given = bidId
    ? await ctx.store.keepBidAnswer(auctionId, bidderId, bidId, { ...judged.answer, bidId })
    : judged.answer;
  await answer(ctx, connection, given);
}

/**
 * The bid's answer to the bidder's connection, logged (auction, bidder, outcome, refusal code; never the amount: a
 * sealed bid stays sealed in the logs too).
 */
async function answer(ctx: RoomContext, connection: RoomConnection, given: BidAnswer): Promise<void> {
  log().info('room bid', {
    auction: connection.auctionId,
    bidder: connection.bidderId ?? 'observer',
    outcome: given.outcome,
    ...(given.code && { code: given.code }),
  });
  await sendTo(ctx, connection.connectionId, given);
}
