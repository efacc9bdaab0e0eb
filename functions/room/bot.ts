import { AUCTION_KIND } from '#store/auction-repository.ts';
import { requestNow } from '#runtime/clock.ts';
import { botRun } from '#runtime/bot-run.ts';
import { log } from '#runtime/observability.ts';
import { countRequests } from '#store/client.ts';
import { ROOM_TIMERS } from '#store/room-repository.ts';
import { dueWork } from '#store/work.ts';
import { roomPorts } from './ports.ts';
import { planOrClose, transition } from './lifecycle.ts';

/** A room whose timer is this late is taken up by the bot (a lost timer, a restart of the local service). */
const BACKSTOP_GRACE_MICROS = 3_000_000;

/**
 * The room bot: plans the room of each auction that entered active.auction and closes the room of each that left it
 * without it (work index `WORK#room`), and takes up rooms whose timer is overdue (`WORK#room-timers`): it applies
 * what is due and arms a new timer. Queries only, never a Scan; idempotent.
 */
export async function run() {
  return botRun('room', async () => {
    const { result, requests } = await countRequests(async () => {
      const now = requestNow();
      const auctions = (await dueWork('room', now)).filter((w) => w.kind === AUCTION_KIND.kind);
      const late = (await dueWork(ROOM_TIMERS, now - BACKSTOP_GRACE_MICROS)).filter((w) => w.kind === 'ROOM');
      let changed = 0;
      let failed = 0;
      const each = async (id: string, work: () => Promise<boolean>) => {
        try {
          if (await work()) changed++;
        } catch (error) {
          failed++;
          log().error('room bot: item failed', { auction: id, error: error as Error });
        }
      };
      for (const { id } of auctions) await each(id, () => planOrClose(id));
      for (const { id } of late)
        await each(id, async () => {
          const order = await transition(id);
          if (order) await roomPorts().arm(order);
          return true;
        });
      return { due: auctions.length + late.length, changed, failed };
    });
    const { failed, ...counts } = result;
    return { bot: 'room', ...counts, requests, ...(failed > 0 && { failed }) };
  });
}

export const handler = async () => run();
