import { runTimedEvents } from '#domain/auctions/commands.ts';
import { recordTransition } from '#runtime/observability.ts';
import { AUCTION_KIND } from '#store/auction-repository.ts';
import { publishCoverage } from '#runtime/calendar.ts';
import { timedEventsContext } from '#runtime/contexts.ts';
import { type BotReport, runDue } from '#runtime/work-index.ts';

/**
 * The chronograph: applies the due timed events of auctions (period ends). It Queries the work index for what is
 * due (`WORK#chronograph`, due <= now), never Scans, and applies each auction's events in one conditional write.
 * Idempotent: an auction already moved on has nothing due and is left alone. Each run also publishes
 * `CalendarCoverageDays`, the days the working-day calendar still covers (runtime/calendar.ts).
 */
export async function run(): Promise<BotReport> {
  return runDue(
    'chronograph',
    AUCTION_KIND,
    async (id, now) => {
      const applied = await runTimedEvents(await timedEventsContext(now), id);
      for (const event of applied) recordTransition(event);
      return applied.length > 0;
    },
    // How far the working-day calendar reaches (its alarm's metric), each run: a missing year is seen months ahead.
    async (now) => void (await publishCoverage(now)),
  );
}

export const handler = async (): Promise<BotReport> => run();
