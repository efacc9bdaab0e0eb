import type { Child } from '../kernel/aggregate.ts';
import { withoutField } from '../kernel/objects.ts';
import type { Timing } from '../calendar/periods.ts';
import type { Micros } from '../kernel/time.ts';
import { formatKyiv } from '../kernel/time.ts';
import type { Auction, Working } from './auction.ts';

/**
 * What a timed event may use besides the auction: the time it runs at with the working-day calendar (awarding
 * counts working days), and where auctions are held.
 */
export interface EventContext extends Timing {
  /** Base URL of the auction system: `auctionUrl` is built from it. */
  auctionSite: string;
}

/**
 * Time-driven behaviour as data: a definition lists its events; each says when it is due for an auction
 * (undefined: not applicable in its current state) and what it does then. Most events read the root's periods;
 * awarding deadlines read the awards (children): either way the due time is folded into the root's `next_check`,
 * which the chronograph's work index follows.
 */
export interface TimedEvent<A extends Auction = Auction> {
  name: string;
  at(auction: A, children: readonly Child[]): Micros | undefined;
  apply(w: Working<A>, ctx: EventContext): void;
}

/** The earliest due time among the events, or undefined when none applies: stored as `next_check`. */
export function nextCheck<A extends Auction>(
  events: readonly TimedEvent<A>[],
  auction: A,
  children: readonly Child[] = [],
): Micros | undefined {
  const times = events.map((e) => e.at(auction, children)).filter((t): t is Micros => t !== undefined);
  return times.length ? Math.min(...times) : undefined;
}

/** `next_check` kept in step with the auction's state: set to the next due time, removed when nothing is due. */
export function withNextCheck<A extends Auction>(
  events: readonly TimedEvent<A>[],
  auction: A,
  children: readonly Child[] = [],
): A {
  const rest = withoutField(auction, 'next_check');
  const due = nextCheck(events, rest, children);
  return due === undefined ? rest : { ...rest, next_check: formatKyiv(due) };
}

/** A chronograph walking far behind never loops forever: each event moves the status, so a few steps suffice. */
const MAX_STEPS = 16;

/**
 * Applies every event due at `now`, earliest first, until none is due (one run can cross several periods, e.g.
 * after downtime or in an accelerated sandbox) or one fills the write (`w.more`). Returns the names of the events
 * finished, in order.
 */
export function applyDueEvents<A extends Auction>(
  events: readonly TimedEvent<A>[],
  w: Working<A>,
  ctx: EventContext,
): string[] {
  const applied: string[] = [];
  for (let step = 0; step < MAX_STEPS; step++) {
    const due = events
      .map((event) => ({ event, at: event.at(w.root, w.children) }))
      .filter((d): d is { event: TimedEvent<A>; at: Micros } => d.at !== undefined && d.at <= ctx.now)
      .sort((a, b) => a.at - b.at)[0];
    if (!due) break;
    due.event.apply(w, ctx);
    if (w.more) break; // the event goes on in the next write (it stays due: its status has not moved)
    applied.push(due.event.name);
  }
  return applied;
}
