import { runDueOf } from '#runtime/work-index.ts';
import { AUCTION_KIND } from '#store/auction-repository.ts';
import { ROOM_TIMERS } from '#store/room-repository.ts';
import { lifecycleContext } from './auctions.ts';
import { planOrClose, transition } from './lifecycle.ts';

/** A room whose timer is this late is taken up by the bot (a lost timer, a restart of the local service). */
const BACKSTOP_GRACE_MICROS = 3_000_000;
/** A room's timer item (`ROOM#<auctionId>` in `WORK#room-timers`). */
const ROOM_KIND = { kind: 'ROOM', entity: 'auction' };

/**
 * The room bot: plans the room of each auction that entered active.auction and closes the room of each that left it
 * without it (work index `WORK#room`), and takes up rooms whose timer is overdue (`WORK#room-timers`): it applies
 * what is due and arms a new timer. Queries only, never a Scan; idempotent.
 */
export function run() {
  return runDueOf('room', [
    { work: 'room', kind: AUCTION_KIND, handleOne: (id) => planOrClose(lifecycleContext(), id) },
    {
      work: ROOM_TIMERS,
      kind: ROOM_KIND,
      graceMicros: BACKSTOP_GRACE_MICROS,
      handleOne: async (id) => {
        const ctx = lifecycleContext();
        const order = await transition(ctx, id);
        if (order) await ctx.ports.arm(order);
        return true;
      },
    },
  ]);
}

export const handler = async () => run();
