import type { Aggregate } from '../kernel/aggregate.ts';
import { ForbiddenError, PermissionError } from '../kernel/errors.ts';
import { sameJson } from '../kernel/objects.ts';
import { actingRole, authorOf } from '../kernel/principal.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';
import { working, type Auction, type AuctionParts, type Working } from './auction.ts';
import type { AwardActor } from './awarding.ts';
import { bidRecords, isBidOwner } from './bids.ts';
import type { AuctionsContext } from './context.ts';
import type { AuctionDefinition } from './definition.ts';
import { assertChildSizes } from './limits.ts';
import { assertServedBy } from './reads.ts';
import { definitionOf } from './registry.ts';
import { withNextCheck } from './timed-events.ts';

/** What a mode asks of the write (each mode below names one of these sets). */
interface WriteHolds {
  /** The revision moves even when only children change. */
  serialize?: boolean;
  /** Only children changed: the write holds on the auction's status (and the children as read), not its revision. */
  keepStatus?: boolean;
  /** The change reads no child: only the root is read, and `next_check` is left as it was. */
  rootOnly?: boolean;
  /** The server's own write: neither a child's size nor the auction's budgets bound it. */
  server?: boolean;
}

/**
 * How a change is read and held when it writes, by who writes it:
 * - `ordered` (the default): the revision moves when the root changes (or the working asks it to, `w.serialize`);
 *   children alone merely check it, so independent children never conflict;
 * - `serialized`: the revision moves anyway, so that racing writers of related children are ordered;
 * - `bidder`: the write holds on the auction's status (and on the bid as read) instead of its revision, so bidders
 *   never refuse each other; a timed event closes the auction to them before it reads the bids;
 * - `newBid`: a bidder's write that reads no other child, so only the auction's root is read;
 * - `server`: the server's own write (the auction system's results), never refused by the auction's budgets.
 */
const MODES = {
  ordered: {},
  serialized: { serialize: true },
  bidder: { keepStatus: true },
  newBid: { keepStatus: true, rootOnly: true },
  server: { server: true },
} as const satisfies Record<string, WriteHolds>;

export type ChangeMode = keyof typeof MODES;

/**
 * Applies one command to the auction with optimistic retry; `next_check` follows every root change. How the write
 * holds (on the revision, on the status) is the mode's (`ChangeMode`).
 */
export async function change<R, C extends AuctionsContext>(
  ctx: C,
  id: string,
  apply: (w: Working, def: AuctionDefinition, attempt: C) => R,
  mode: ChangeMode = 'ordered',
): Promise<{ result: R; saved: Aggregate<Auction> }> {
  const holds: WriteHolds = MODES[mode];
  let result!: R;
  const saved = await ctx.auctions.modify(
    id,
    (current, now) => {
      assertServedBy(ctx.type, current.root);
      const def = definitionOf(current.root);
      const w = working(current);
      result = apply(w, def, { ...ctx, now });
      // `next_check` follows the root and the children (awarding deadlines live on the awards); a change that read
      // no child keeps it as it was.
      const root = holds.rootOnly ? w.root : withNextCheck(def.events, w.root, w.children);
      const rootChanged = !sameJson(root, current.root);
      if (!rootChanged && !w.put.length && !w.remove.length) return undefined;
      // A client's children are bounded one by one here, and all together by the auction's budgets (limits.ts).
      if (!holds.server) assertChildSizes(w.put);
      const keepRevision = !rootChanged && !holds.serialize && !w.serialize;
      return {
        unbudgeted: holds.server,
        root: rootChanged ? root : current.root,
        put: w.put,
        remove: w.remove,
        keepRevision,
        keepStatus: keepRevision && holds.keepStatus,
      };
    },
    { at: ctx.now, by: authorOf(ctx.principal), rootOnly: holds.rootOnly },
  );
  return { result, saved };
}

/** The auction's owner: the broker key that created it, holding its token. */
export const isOwner = (ctx: AuctionsContext, a: AuctionParts): boolean =>
  actingRole(ctx.principal, { owner: a.root.owner, tokenHash: a.tokenHash ?? '' }) === 'owner';

export function assertOwner(ctx: AuctionsContext, a: AuctionParts): void {
  if (!isOwner(ctx, a)) throw new PermissionError();
}

/** Who is acting on an award: the auction's owner and/or the owner of one of its bids. */
export const awardActor = (ctx: AuctionsContext, w: Working): AwardActor => ({
  auctionOwner: isOwner(ctx, w),
  bidOwner: (bidId: string) =>
    bidRecords(w.children).some((r) => r.bid.id === bidId && isBidOwner(ctx.principal, r.bid, r.child)),
});

/** The auction's `dateModified` moves to `now`. */
export const touch = (w: Working, now: Micros) => {
  w.root = { ...w.root, dateModified: formatKyiv(now) };
};

export function assertStatus(auction: Auction, allowed: readonly string[], message: string): void {
  if (!allowed.includes(auction.status)) throw new ForbiddenError(message);
}
