import {
  type CalendarDocument,
  calendarOf,
  changeCalendar,
  coverageDaysLeft,
  seedCalendar,
} from '#domain/calendar/calendar-changes.ts';
import type { Calendar, CalendarMode } from '#domain/calendar/working-days.ts';
import { ConflictError } from '#domain/kernel/errors.ts';
import { sameJson } from '#domain/kernel/objects.ts';
import type { RevisionAuthor } from '#domain/kernel/history.ts';
import { formatKyiv, kyivDate, laterThan, type Micros } from '#domain/kernel/time.ts';
import { CalendarRaceError, readCalendar, type StoredCalendar, writeCalendar } from '#store/calendar-repository.ts';
import { tableName } from '#store/client.ts';
import { config } from '#platform/config.ts';
import { MetricUnit, publishMetrics } from './observability.ts';
import { CALENDAR_COVERAGE_DAYS, TELEMETRY } from '#platform/telemetry.ts';

/**
 * The working-day calendar of this deployment: the document in the table (the shipped seed until an admin first
 * changes it), in the mode AGORA_CALENDAR picks, handed to the commands and bots that count periods; the domain
 * never holds a current calendar. One GetItem per container, then kept CACHE_MS: a change reaches every other
 * Lambda within that time, and the one that made it at once. Kept per table and mode, so that a test which changes
 * its table or the environment (and calls `resetConfig`) gets the calendar it asked for.
 */
export const CACHE_MS = 5 * 60_000;

interface Kept {
  stored: StoredCalendar | undefined;
  at: number;
  built: Map<CalendarMode, Calendar>;
}
const kept = /* @__PURE__ */ new Map<string, Kept>();

const keep = (stored: StoredCalendar | undefined): Kept => {
  const entry = { stored, at: performance.now(), built: new Map() };
  kept.set(tableName(), entry);
  return entry;
};

async function current(): Promise<Kept> {
  const entry = kept.get(tableName());
  if (entry && performance.now() - entry.at < CACHE_MS) return entry;
  return keep(await readCalendar());
}

/** The calendar the periods are counted with (the stored document in the configured mode). */
export async function serviceCalendar(): Promise<Calendar> {
  const mode = config().calendar;
  const entry = await current();
  let calendar = entry.built.get(mode);
  if (!calendar) {
    calendar = calendarOf(entry.stored?.calendar ?? seedCalendar(), mode);
    entry.built.set(mode, calendar);
  }
  return calendar;
}

/** `GET /api/calendar`: the document as stored now (one GetItem), the mode this deployment counts in. */
export async function calendarView(): Promise<CalendarDocument & { mode: CalendarMode; dateModified?: string }> {
  const stored = await readCalendar();
  return view(stored);
}

const view = (stored: StoredCalendar | undefined) => ({
  ...(stored?.calendar ?? seedCalendar()),
  mode: config().calendar,
  ...(stored && { dateModified: stored.dateModified }),
});

/**
 * An admin's change (`PATCH /api/calendar`, `npm run calendar`): read, checked whole (a 422 writes nothing), written
 * with its revision under a condition on what was read (one that changes nothing, not at all); a lost race reads
 * again, three times at most (then 412).
 */
export async function changeServiceCalendar(author: RevisionAuthor, now: Micros, data: unknown) {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const stored = await readCalendar();
    const current = stored?.calendar ?? seedCalendar();
    const next = changeCalendar(current, data, { today: kyivDate(now), daysAhead: CALENDAR_COVERAGE_DAYS });
    // A change that leaves the calendar as it was (the coverage it has, the source it has) writes nothing: no
    // revision, no dateModified moved; the calendar is answered as it is.
    if (sameJson(next, current)) return view(stored);
    try {
      const written = await writeCalendar(stored, seedCalendar(), next, {
        dateModified: formatKyiv(laterThan(now, stored?.dateModified)),
        author,
        mode: config().calendar,
      });
      keep(written);
      return view(written);
    } catch (error) {
      if (!(error instanceof CalendarRaceError)) throw error;
    }
  }
  throw new ConflictError();
}

/**
 * Publishes how many days the calendar still covers from today (`CalendarCoverageDays`, the coverage alarm's metric):
 * the chronograph's every run, from the kept calendar (no more reads than the periods make). Answers the days.
 */
export async function publishCoverage(now: Micros): Promise<number> {
  const days = coverageDaysLeft(await serviceCalendar(), kyivDate(now));
  publishMetrics({}, { [TELEMETRY.calendarCoverageDays]: [days, MetricUnit.Count] });
  return days;
}
