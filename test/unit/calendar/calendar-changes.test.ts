import { describe, expect, it } from 'vitest';
import {
  changeCalendar,
  coverageDaysLeft,
  MAX_CALENDAR_DATES,
  seedCalendar,
} from '../../../functions/domain/calendar/calendar-changes.ts';
import { DomainError } from '../../../functions/domain/kernel/errors.ts';

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
  });

  it('counts the days left to the coverage end', () => {
    expect(coverageDaysLeft(seedCalendar(), '2028-09-22')).toBe(100);
    expect(coverageDaysLeft(seedCalendar(), '2029-01-01')).toBe(-1);
  });
});
