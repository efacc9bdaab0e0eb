import { botRun } from '#runtime/bot-run.ts';
import type { TimerOrder } from '#domain/room/ports.ts';
import { lifecycleContext } from './auctions.ts';
import { transition } from './lifecycle.ts';
import { utcCeiling } from './ports.ts';

/**
 * The room's timer (a Step Functions task in AWS, an in-process timer locally): applies what is due in the room of
 * the order's version and answers the next order, or `{done: true}` when the room needs no more timers (a newer
 * version armed its own, or the room has ended and its results are posted).
 */
export async function run(order: Pick<TimerOrder, 'auctionId' | 'version'>): Promise<TimerOrder | { done: true }> {
  let next: TimerOrder | undefined;
  await botRun('room-transition', async () => {
    next = await transition(lifecycleContext(), order.auctionId, order.version);
    return { due: 1, changed: next && next.version !== order.version ? 1 : 0 };
  });
  return next ? { ...next, nextAt: utcCeiling(next.nextAt) } : { done: true };
}

export const handler = run;
