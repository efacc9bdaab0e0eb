import { UnprocessableError } from '../kernel/errors.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import type { CalendarChange } from '../schemas/generated/request-types.ts';
import seed from './ukraine-calendar.json' with { type: 'json' };
import {
  addCalendarDays,
  type Calendar,
  CalendarCoverageError,
  type CalendarMode,
  createCalendar,
} from './working-days.ts';

/**
 * The working-day calendar as data the operator owns: the document stored in the table (`GET /api/calendar`), the
 * shipped ukraine-calendar.json being its seed until the first change, and the changes an admin makes to it
 * (`PATCH /api/calendar`, `npm run calendar`), each checked whole before anything is written.
 */

/** The calendar document: the shipped file's shape, both modes' lists (AGORA_CALENDAR picks one). */
export interface CalendarDocument extends JsonRecord {
  source: string;
  coverage: { from: string; to: string };
  holidays: string[];
  workingWeekends: string[];
  peacetimeHolidays: string[];
  peacetimeWorkingWeekends: string[];
}

export const CALENDAR_LISTS = ['holidays', 'workingWeekends', 'peacetimeHolidays', 'peacetimeWorkingWeekends'] as const;
type ListName = (typeof CALENDAR_LISTS)[number];

/**
 * The seed: the calendar shipped with this release, in force until an admin first changes the stored one. A
 * function, so that bundles which only import this module's types (the read routes') drop the file.
 */
export const seedCalendar = (): CalendarDocument => ({
  source: seed.source,
  coverage: { ...seed.coverage },
  holidays: [...seed.holidays],
  workingWeekends: [...seed.workingWeekends],
  peacetimeHolidays: [...seed.peacetimeHolidays],
  peacetimeWorkingWeekends: [...seed.peacetimeWorkingWeekends],
});

/**
 * Bounds: dates listed in all four lists (the item stays a few KB), and how far each end of the coverage may reach
 * from today, back (`from`) and ahead (`to`). Each end is bounded by the clock, not by the other end, so that no
 * accepted change leaves the other end unable to move: a `from` taken far back never stops `to` from being extended
 * (a span bound between the two did, for good, since `from` may never move forward).
 */
export const MAX_CALENDAR_DATES = 2000;
export const MAX_COVERAGE_DAYS = 30 * 366;
/**
 * The longest count of working days a period of an auction in progress makes: a contract's signing period
 * (periods.ts AWARD_SIGNING_DAYS; not imported, so the calendar's read route carries no period arithmetic).
 */
export const LONGEST_COUNT = 20;

/** What a change is checked against besides the calendar: today (Kyiv) and the coverage alarm's threshold. */
export interface CalendarChangeBounds {
  today: string;
  /** Days of coverage ahead of today below which the coverage alarm fires (CALENDAR_COVERAGE_DAYS). */
  daysAhead: number;
}

const DATE = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' } as const;
const dates = { type: 'array', maxItems: 400, uniqueItems: true, items: DATE } as const;
const lists = {
  type: 'object',
  properties: { holidays: dates, workingWeekends: dates, peacetimeHolidays: dates, peacetimeWorkingWeekends: dates },
} as const;

/**
 * A change: `coverage` extended (an earlier `from`, a later `to`: one range, so never a gap), dates added to or
 * removed from the lists, a new `source` (what the change rests on). At least one of them.
 */
export const calendarChangeSchema = {
  type: 'object',
  properties: {
    coverage: { type: 'object', properties: { from: DATE, to: DATE } },
    add: lists,
    remove: lists,
    source: { type: 'string', minLength: 1, maxLength: 4000 },
  },
} as const;
const checkChange: CheckOf<CalendarChange> = (data) => checkWith('calendarChange', calendarChangeSchema, data);

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Days since 1970-01-01, or NaN for anything that is not a real `YYYY-MM-DD` date (2028-02-30). */
function dayNumber(day: string): number {
  const m = DAY.exec(day);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? NaN : ms / 86_400_000;
}
const isWeekend = (day: string) => [0, 6].includes(new Date(dayNumber(day) * 86_400_000).getUTCDay());

/** The calendar of one mode built from the document (AGORA_CALENDAR: `martial-law` the first lists, `peacetime` the others). */
export function calendarOf(doc: CalendarDocument, mode: CalendarMode): Calendar {
  return createCalendar(
    mode === 'peacetime'
      ? { coverage: doc.coverage, holidays: doc.peacetimeHolidays, workingWeekends: doc.peacetimeWorkingWeekends }
      : { coverage: doc.coverage, holidays: doc.holidays, workingWeekends: doc.workingWeekends },
  );
}

/**
 * The document after a change, or a 422 naming every fault (nothing is written then): dates real, coverage only
 * extended (so the days a committed auction's periods were counted over stay covered) and each end within
 * MAX_COVERAGE_DAYS of today, a date added not yet listed and a date removed listed, holidays on weekdays and working
 * weekends on Saturdays or Sundays (so no date is both), every date within the coverage; and the calendar it leaves
 * still serves the auctions in progress: at least `daysAhead` days covered ahead of today (the coverage alarm's
 * threshold), and from the last of them still LONGEST_COUNT working days within the coverage (holidays added cannot
 * leave a period that must be counted with no working days to count).
 */
export function changeCalendar(
  current: CalendarDocument,
  data: unknown,
  { today, daysAhead }: CalendarChangeBounds,
): CalendarDocument {
  checkChange(data);
  const faults: { name: string; description: string }[] = [];
  const fault = (name: string, description: string) => faults.push({ name, description });
  const { coverage = {}, add = {}, remove = {}, source } = data;
  if (!data.coverage && !data.add && !data.remove && source === undefined)
    throw UnprocessableError.data('Nothing to change: give coverage, add, remove or source');

  const next: CalendarDocument = { ...current, coverage: { ...current.coverage } };
  if (source !== undefined) next.source = source;
  for (const end of ['from', 'to'] as const) {
    const day = coverage[end];
    if (day === undefined) continue;
    if (Number.isNaN(dayNumber(day))) fault(`coverage.${end}`, `${day} is not a calendar date`);
    else if (end === 'from' ? day > current.coverage.from : day < current.coverage.to)
      fault(`coverage.${end}`, `coverage may only be extended: ${end} is ${current.coverage[end]}, not ${day}`);
    else if (Math.abs(dayNumber(day) - dayNumber(today)) > MAX_COVERAGE_DAYS)
      fault('coverage', `coverage.${end} may be at most ${MAX_COVERAGE_DAYS} days from today (${today}), not ${day}`);
    else next.coverage[end] = day;
  }

  for (const list of CALENDAR_LISTS) {
    const listed = new Set(current[list]);
    for (const day of remove[list] ?? []) {
      if (!listed.delete(day)) fault(`remove.${list}`, `${day} is not listed`);
    }
    for (const day of add[list] ?? []) {
      if (Number.isNaN(dayNumber(day))) fault(`add.${list}`, `${day} is not a calendar date`);
      else if (listed.has(day)) fault(`add.${list}`, `${day} is listed already`);
      else listed.add(day);
    }
    next[list] = [...listed].sort();
  }
  for (const list of CALENDAR_LISTS) {
    const weekends = list.endsWith('WorkingWeekends') || list === 'workingWeekends';
    for (const day of next[list]) {
      if (Number.isNaN(dayNumber(day))) continue;
      if (day < next.coverage.from || day > next.coverage.to)
        fault(list, `${day} is outside the coverage ${next.coverage.from}..${next.coverage.to}`);
      else if (weekends !== isWeekend(day))
        fault(list, `${day} is ${weekends ? 'not a Saturday or Sunday' : 'a Saturday or Sunday, a day off already'}`);
    }
  }
  for (const [holidays, working] of [
    ['holidays', 'workingWeekends'],
    ['peacetimeHolidays', 'peacetimeWorkingWeekends'],
  ] as const satisfies readonly (readonly [ListName, ListName])[]) {
    const both = next[holidays].filter((d) => next[working].includes(d));
    if (both.length) fault(working, `${both.join(', ')} cannot be both a holiday and a working weekend`);
  }
  if (CALENDAR_LISTS.reduce((n, l) => n + next[l].length, 0) > MAX_CALENDAR_DATES)
    fault('data', `the calendar may list at most ${MAX_CALENDAR_DATES} dates`);
  if (!faults.length) {
    const windowEnd = addCalendarDays(today, daysAhead);
    if (next.coverage.to < windowEnd)
      fault(
        'coverage.to',
        `the change would leave the calendar covering fewer than ${daysAhead} days ahead (the coverage alarm's threshold): extend coverage.to to ${windowEnd} or later in the same change`,
      );
    else {
      for (const mode of ['martial-law', 'peacetime'] as const) {
        try {
          calendarOf(next, mode).addWorkingDays(windowEnd, LONGEST_COUNT);
        } catch (error) {
          if (!(error instanceof CalendarCoverageError)) throw error;
          fault(
            'coverage.to',
            `the change would leave fewer than ${LONGEST_COUNT} working days (${mode}) after ${windowEnd} within the coverage: an auction in progress could not count its periods; extend coverage.to in the same change`,
          );
        }
      }
    }
  }
  if (faults.length)
    throw new UnprocessableError(faults.map((f) => ({ location: 'body', name: f.name, description: [f.description] })));
  return next;
}

/** Whole days from `today` to the coverage's last day (negative once past it): what the coverage alarm watches. */
export const coverageDaysLeft = (doc: Pick<CalendarDocument, 'coverage'>, today: string): number =>
  dayNumber(doc.coverage.to) - dayNumber(today);
