import { runTimedEvents } from '#domain/auctions/commands.ts';
import { recordTransition } from '#runtime/observability.ts';
import { auctionRepository, AUCTION_KIND } from '#store/auction-repository.ts';
import { serviceCalendar } from '#runtime/calendar.ts';
import { config } from '#runtime/config.ts';
import { type BotReport, sweep } from './sweep.ts';

/**
 * The chronograph: applies the due timed events of auctions (period ends). It Queries the work index for what is
 * due (`WORK#chronograph`, due <= now), never Scans, and applies each auction's events in one conditional write.
 * Idempotent: an auction already moved on has nothing due and is left alone.
 */
export async function run(): Promise<BotReport> {
  const site = config().auctionSite;
  const calendar = serviceCalendar(); // awarding deadlines count working days
  return sweep('chronograph', AUCTION_KIND, async (id, now) => {
    const applied = await runTimedEvents({ auctions: auctionRepository, now, calendar, auctionSite: site }, id);
    for (const event of applied) recordTransition(event);
    return applied.length > 0;
  });
}

export const handler = async (): Promise<BotReport> => run();
