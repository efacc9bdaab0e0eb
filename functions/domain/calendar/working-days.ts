import ukraine from './ukraine-calendar.json' with { type: 'json' };

/**
 * Working days on Kyiv calendar dates (`YYYY-MM-DD`). A day is a plain date, with no time zone:
 * the caller converts an instant to its Kyiv date first (`kyivDate` in kernel/time.ts).
 */

/** The lists a calendar is built from; `coverage` is the range over which they are known to be complete. */
export interface CalendarData {
  coverage: { from: string; to: string };
  /** Weekdays (Mon..Fri) that are not working days. */
  holidays: readonly string[];
  /** Saturdays or Sundays that are working days. */
  workingWeekends: readonly string[];
}

export interface Calendar {
  readonly coverage: { from: string; to: string };
  /** Sat/Sun are days off unless listed as working; Mon..Fri are working unless listed as holidays. */
  isWorkingDay(day: string): boolean;
  /** The n-th working day after `day` (before it when n < 0); `day` itself when n = 0. */
  addWorkingDays(day: string, n: number): string;
}

/** Asked about a day the calendar has no data for: never guess, a missing year must not pass silently. */
export class CalendarCoverageError extends Error {
  override name = 'CalendarCoverageError';
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date; throws on anything else (including 2026-02-30). */
function dayIndex(day: string): number {
  const m = DAY.exec(day);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new TypeError(`not a calendar date (YYYY-MM-DD): ${JSON.stringify(day)}`);
  }
  return ms / MS_PER_DAY;
}

const dayOf = (index: number): string => new Date(index * MS_PER_DAY).toISOString().slice(0, 10);

/** Calendar-day arithmetic on dates (no time zone involved, so no DST either). */
export function addCalendarDays(day: string, n: number): string {
  return dayOf(dayIndex(day) + n);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: string): number {
  return new Date(dayIndex(day) * MS_PER_DAY).getUTCDay();
}

const isWeekend = (day: string): boolean => {
  const wd = weekdayOf(day);
  return wd === 0 || wd === 6;
};

export function createCalendar(data: CalendarData): Calendar {
  const from = dayIndex(data.coverage.from);
  const to = dayIndex(data.coverage.to);
  if (from > to) throw new Error(`calendar coverage is empty: ${data.coverage.from}..${data.coverage.to}`);
  const covered = (day: string): boolean => {
    const i = dayIndex(day);
    return i >= from && i <= to;
  };
  // Bad data is rejected at load time rather than silently ignored at lookup time.
  for (const day of data.holidays) {
    if (!covered(day) || isWeekend(day)) throw new Error(`calendar holiday ${day} must be a weekday within coverage`);
  }
  for (const day of data.workingWeekends) {
    if (!covered(day) || !isWeekend(day))
      throw new Error(`calendar working weekend ${day} must be a Saturday or Sunday within coverage`);
  }
  const holidays = new Set(data.holidays);
  const workingWeekends = new Set(data.workingWeekends);
  const coverage = { from: data.coverage.from, to: data.coverage.to };

  function isWorkingDay(day: string): boolean {
    if (!covered(day)) {
      throw new CalendarCoverageError(
        `the working-day calendar covers ${coverage.from}..${coverage.to} only; ${day} is outside it (an admin extends it: PATCH /api/calendar, npm run calendar)`,
      );
    }
    return isWeekend(day) ? workingWeekends.has(day) : !holidays.has(day);
  }

  function addWorkingDays(day: string, n: number): string {
    if (!Number.isInteger(n)) throw new TypeError(`working days must be an integer, got ${n}`);
    isWorkingDay(day); // the start day must be covered too
    const step = Math.sign(n);
    let current = day;
    for (let left = Math.abs(n); left > 0; ) {
      current = addCalendarDays(current, step);
      if (isWorkingDay(current)) left -= 1;
    }
    return current;
  }

  return { coverage, isWorkingDay, addWorkingDays };
}

/** `martial-law`: holidays are working days (Law 2136-IX); `peacetime`: the Labour Code art. 73 days off. */
export type CalendarMode = 'martial-law' | 'peacetime';

/**
 * The Ukrainian calendar from ukraine-calendar.json in the given mode. The runtime builds it once from its configuration
 * and passes it down: nothing here holds a current calendar.
 */
export function ukraineCalendar(mode: CalendarMode): Calendar {
  return createCalendar(
    mode === 'peacetime'
      ? {
          coverage: ukraine.coverage,
          holidays: ukraine.peacetimeHolidays,
          workingWeekends: ukraine.peacetimeWorkingWeekends,
        }
      : { coverage: ukraine.coverage, holidays: ukraine.holidays, workingWeekends: ukraine.workingWeekends },
  );
}
