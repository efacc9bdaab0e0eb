import { describe, expect, it } from 'vitest';
import {
  changeCalendar as change,
  type CalendarDocument,
  coverageDaysLeft,
  LONGEST_COUNT,
  MAX_CALENDAR_DATES,
  MAX_COVERAGE_DAYS,
  seedCalendar,
} from '../../../functions/domain/calendar/calendar-changes.ts';
import { AWARD_SIGNING_DAYS } from '../../../functions/domain/calendar/periods.ts';
import { addCalendarDays } from '../../../functions/domain/calendar/working-days.ts';
import { DomainError } from '../../../functions/domain/kernel/errors.ts';

/** Today, for these tests: the seed covers two years and more ahead of it. */
const TODAY = '2026-06-01';
const BOUNDS = { today: TODAY, daysAhead: 120 };
const changeCalendar = (current: CalendarDocument, data: unknown, bounds = BOUNDS) => change(current, data, bounds);

const names = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error.entries.map((e) => e.name);
    throw error;
  }
  throw new Error('not refused');
};

describe('changeCalendar', () => {
  it('extends the coverage and adds and removes days, sorted, leaving the document it was given as it was', () => {
    const seed = seedCalendar();
    const next = changeCalendar(seed, {
      coverage: { to: '2029-12-31' },
      add: { peacetimeHolidays: ['2029-01-01'], workingWeekends: ['2029-06-30'] },
      remove: { peacetimeHolidays: ['2028-12-25'] },
    });
    expect(next.coverage).toEqual({ from: '2024-01-01', to: '2029-12-31' });
    expect(next.peacetimeHolidays.slice(-2)).toEqual(['2028-10-02', '2029-01-01']);
    expect(next.workingWeekends).toEqual(['2029-06-30']);
    expect(seed).toEqual(seedCalendar());
  });

  it('names every fault at once', () => {
    expect(
      names(() =>
        changeCalendar(seedCalendar(), {
          coverage: { from: '2024-02-01', to: '2028-13-01' },
          add: { holidays: ['2028-01-01'], workingWeekends: ['2028-01-03'] },
        }),
      ),
    ).toEqual(['coverage.from', 'coverage.to', 'holidays', 'workingWeekends']);
  });

  it('bounds the dates listed and the span of the coverage', () => {
    const many = { ...seedCalendar(), coverage: { from: '2000-01-01', to: '2029-12-31' } };
    const weekdays: string[] = [];
    for (let d = Date.UTC(2000, 0, 3); weekdays.length <= MAX_CALENDAR_DATES; d += 86_400_000) {
      const day = new Date(d);
      if (day.getUTCDay() % 6) weekdays.push(day.toISOString().slice(0, 10));
    }
    many.holidays = weekdays.slice(0, MAX_CALENDAR_DATES);
    expect(names(() => changeCalendar(many, { add: { peacetimeHolidays: [weekdays.at(-1)!] } }))).toEqual(['data']);
    expect(names(() => changeCalendar(seedCalendar(), { coverage: { to: '2060-01-01' } }))).toEqual(['coverage']);
    expect(names(() => changeCalendar(seedCalendar(), { coverage: { from: '1990-01-01' } }))).toEqual(['coverage']);
  });

  it('bounds each end of the coverage from today, so that no accepted change locks the other end', () => {
    // A `from` taken 27 years back (the review's lock: a span bound then refused every later `to`).
    const back = changeCalendar(seedCalendar(), { coverage: { from: '1999-01-04' } });
    expect(back.coverage).toEqual({ from: '1999-01-04', to: '2028-12-31' });
    const ahead = changeCalendar(back, { coverage: { to: '2040-12-31' } });
    expect(ahead.coverage).toEqual({ from: '1999-01-04', to: '2040-12-31' });
    // As far as either bound lets, and then, as days pass, further still.
    const farthest = addCalendarDays(TODAY, MAX_COVERAGE_DAYS);
    const full = changeCalendar(ahead, { coverage: { to: farthest } });
    expect(names(() => changeCalendar(full, { coverage: { to: addCalendarDays(farthest, 1) } }))).toEqual(['coverage']);
    const tomorrow = { ...BOUNDS, today: addCalendarDays(TODAY, 1) };
    expect(changeCalendar(full, { coverage: { to: addCalendarDays(farthest, 1) } }, tomorrow).coverage.to).toBe(
      addCalendarDays(farthest, 1),
    );
    // The only-extend rule still holds: what committed auctions were counted over stays covered.
    expect(names(() => changeCalendar(full, { coverage: { from: '2000-01-01' } }))).toEqual(['coverage.from']);
  });

  it('refuses whole a change that leaves less coverage ahead than the alarm wants, or no working days to count', () => {
    const short = {
      ...seedCalendar(),
      peacetimeHolidays: [],
      peacetimeWorkingWeekends: [],
      coverage: { from: '2024-01-01', to: addCalendarDays(TODAY, 100) },
    };
    // Extended, but still under the alarm's 120 days: refused, saying how far to extend.
    const under = changeCalendar.bind(null, short, { coverage: { to: addCalendarDays(TODAY, 110) } });
    expect(names(under)).toEqual(['coverage.to']);
    expect(() => under()).toThrow(
      expect.objectContaining({
        entries: [
          expect.objectContaining({
            description: [expect.stringContaining(`extend coverage.to to ${addCalendarDays(TODAY, 120)} or later`)],
          }),
        ],
      }),
    );
    // A holiday alone on a calendar that is short already: refused too, until the change extends it.
    expect(names(() => changeCalendar(short, { source: 'x' }))).toEqual(['coverage.to']);
    expect(changeCalendar(short, { source: 'x', coverage: { to: '2027-12-31' } }).coverage.to).toBe('2027-12-31');
    // The weekdays after the alarm's window made holidays but 22, then 5 more: 20 working days no longer fit.
    const weekdays: string[] = [];
    for (let day = addCalendarDays(TODAY, 100); day <= '2028-12-31'; day = addCalendarDays(day, 1)) {
      if (![0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay())) weekdays.push(day);
    }
    const crowded = { ...seedCalendar(), holidays: weekdays.slice(0, -22) };
    expect(changeCalendar(crowded, { source: 'x' }).holidays).toHaveLength(weekdays.length - 22);
    expect(names(() => changeCalendar(crowded, { add: { holidays: weekdays.slice(-22, -17) } }))).toEqual([
      'coverage.to',
    ]);
    expect(LONGEST_COUNT).toBe(AWARD_SIGNING_DAYS);
  });

  it('counts the days left to the coverage end', () => {
    expect(coverageDaysLeft(seedCalendar(), '2028-09-22')).toBe(100);
    expect(coverageDaysLeft(seedCalendar(), '2029-01-01')).toBe(-1);
  });
});
