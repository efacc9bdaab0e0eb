import { runTimedEvents } from '#domain/auctions/commands.ts';
import { countRequests } from '#store/client.ts';
import { auctionRepository, AUCTION_KIND } from '#store/auction-repository.ts';
import { dueWork } from '#store/work.ts';
import { requestNow } from '#http-kit/clock.ts';
import type { BotReport } from '../bots.ts';
import { auctionSite, participationSecret } from '../http/auctions/context.ts';

/**
 * The chronograph: applies the due timed events of auctions (period ends). It Queries the work index for what is
 * due (`WORK#chronograph`, due <= now), never Scans, and applies each auction's events in one conditional write.
 * Idempotent: an auction already moved on has nothing due and is left alone.
 */
export async function run(): Promise<BotReport> {
  const secret = participationSecret(); // refused before any work when it is missing
  const { result, requests } = await countRequests(async () => {
    const now = requestNow();
    const due = (await dueWork('chronograph', now)).filter((w) => w.kind === AUCTION_KIND.kind);
    let changed = 0;
    for (const { id } of due) {
      try {
        const applied = await runTimedEvents({ auctions: auctionRepository, now, auctionSite: auctionSite(), participationSecret: secret }, id);
        if (applied.length) changed++;
      } catch (error) {
        // One broken auction must not stop the others; it stays due and is retried on the next run.
        console.error(JSON.stringify({ level: 'error', bot: 'chronograph', auction: id, error: String(error) }));
      }
    }
    return { due: due.length, changed };
  });
  return { bot: 'chronograph', ...result, requests };
}

export const handler = async (): Promise<BotReport> => run();
