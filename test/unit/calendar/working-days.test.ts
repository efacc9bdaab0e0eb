import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  CalendarCoverageError,
  createCalendar,
  ukraineCalendar,
} from '../../../functions/domain/calendar/working-days.ts';
import data from '../../../functions/domain/calendar/ukraine-calendar.json' with { type: 'json' };

const martial = ukraineCalendar('martial-law');
const peace = ukraineCalendar('peacetime');

describe('isWorkingDay', () => {
  it('treats Monday to Friday as working and Saturday and Sunday as days off', () => {
    expect(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'].map(martial.isWorkingDay)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(martial.isWorkingDay('2026-11-28')).toBe(false);
    expect(martial.isWorkingDay('2026-11-29')).toBe(false);
  });

  it('keeps public holidays as working days under martial law', () => {
    expect(martial.isWorkingDay('2026-08-24')).toBe(true); // Independence Day, a Monday
    expect(martial.isWorkingDay('2026-04-13')).toBe(true); // the Monday after Easter
    expect(martial.isWorkingDay('2025-12-25')).toBe(true);
  });

  it('gives the statutory days off in the peacetime calendar, weekend holidays moved to the next working day', () => {
    expect(peace.isWorkingDay('2026-08-24')).toBe(false);
    expect(peace.isWorkingDay('2026-04-13')).toBe(false); // Easter 2026-04-12 → Monday
    expect(peace.isWorkingDay('2025-03-10')).toBe(false); // 8 March 2025 was a Saturday
    expect(peace.isWorkingDay('2027-05-03')).toBe(false); // 1 May 2027, a Saturday
    expect(peace.isWorkingDay('2027-05-04')).toBe(false); // Easter 2027-05-02, a Sunday, after 1 May's day off
    expect(peace.isWorkingDay('2027-12-27')).toBe(false); // Christmas 2027 is a Saturday
    expect(peace.isWorkingDay('2026-11-23')).toBe(true);
  });

  it('honours working weekends and holidays of an injected calendar', () => {
    const cal = createCalendar({
      coverage: { from: '2026-11-01', to: '2026-12-31' },
      holidays: ['2026-12-02'],
      workingWeekends: ['2026-11-28'],
    });
    expect(cal.isWorkingDay('2026-11-28')).toBe(true);
    expect(cal.isWorkingDay('2026-11-29')).toBe(false);
    expect(cal.isWorkingDay('2026-12-02')).toBe(false);
  });

  it('refuses a day outside the data rather than guessing', () => {
    expect(() => martial.isWorkingDay('2029-01-03')).toThrow(CalendarCoverageError);
    expect(() => martial.isWorkingDay('2023-12-29')).toThrow(/covers 2024-01-01\.\.2028-12-31 only/);
  });

  it('rejects text that is not a calendar date', () => {
    expect(() => martial.isWorkingDay('2026-02-30')).toThrow(TypeError);
    expect(() => martial.isWorkingDay('2026-11-23T10:00')).toThrow(TypeError);
  });
});

describe('addWorkingDays', () => {
  it('skips weekends forwards and backwards', () => {
    expect(martial.addWorkingDays('2026-11-27', 1)).toBe('2026-11-30');
    expect(martial.addWorkingDays('2026-11-28', 1)).toBe('2026-11-30');
    expect(martial.addWorkingDays('2026-11-30', -1)).toBe('2026-11-27');
    expect(martial.addWorkingDays('2026-12-07', -3)).toBe('2026-12-02');
    expect(martial.addWorkingDays('2026-11-23', 10)).toBe('2026-12-07');
  });

  it('returns the day itself for zero, working or not', () => {
    expect(martial.addWorkingDays('2026-11-29', 0)).toBe('2026-11-29');
  });

  it('skips holidays of the peacetime calendar', () => {
    expect(martial.addWorkingDays('2025-08-22', 1)).toBe('2025-08-25');
    expect(peace.addWorkingDays('2025-08-22', 1)).toBe('2025-08-26');
    expect(peace.addWorkingDays('2027-05-05', -1)).toBe('2027-04-30');
  });

  it('counts an injected working Saturday and skips an injected holiday', () => {
    const cal = createCalendar({
      coverage: { from: '2026-11-01', to: '2026-12-31' },
      holidays: ['2026-12-02'],
      workingWeekends: ['2026-11-28'],
    });
    expect(cal.addWorkingDays('2026-11-27', 1)).toBe('2026-11-28');
    expect(cal.addWorkingDays('2026-12-07', -3)).toBe('2026-12-01');
  });

  it('throws when the walk leaves the data', () => {
    expect(() => martial.addWorkingDays('2024-01-02', -2)).toThrow(CalendarCoverageError);
    expect(() => martial.addWorkingDays('2028-12-28', 2)).toThrow(CalendarCoverageError);
    expect(() => martial.addWorkingDays('2029-01-10', -5)).toThrow(CalendarCoverageError);
  });

  it('refuses a fractional count', () => {
    expect(() => martial.addWorkingDays('2026-11-23', 1.5)).toThrow(TypeError);
  });
});

describe('createCalendar', () => {
  it('rejects a holiday on a weekend, a working weekday and dates outside coverage', () => {
    const coverage = { from: '2026-01-01', to: '2026-12-31' };
    expect(() => createCalendar({ coverage, holidays: ['2026-11-28'], workingWeekends: [] })).toThrow(
      /must be a weekday/,
    );
    expect(() => createCalendar({ coverage, holidays: [], workingWeekends: ['2026-11-27'] })).toThrow(
      /Saturday or Sunday/,
    );
    expect(() => createCalendar({ coverage, holidays: ['2027-01-04'], workingWeekends: [] })).toThrow(
      /within coverage/,
    );
  });
});

/** Orthodox Easter: Meeus' Julian computus, shifted 13 days to the Gregorian calendar (valid 1900-2099). */
function orthodoxEaster(year: number): string {
  const d = (19 * (year % 19) + 15) % 30;
  const e = (2 * (year % 4) + 4 * (year % 7) - d + 34) % 7;
  const month = Math.floor((d + e + 114) / 31);
  const day = ((d + e + 114) % 31) + 1;
  return addCalendarDays(`${year}-${String(month).padStart(2, '0')}-01`, day - 1 + 13);
}

describe('ukraine-calendar.json', () => {
  it('has the Orthodox Easter dates the peacetime list is built on', () => {
    expect([2024, 2025, 2026, 2027, 2028].map(orthodoxEaster)).toEqual([
      '2024-05-05',
      '2025-04-20',
      '2026-04-12',
      '2027-05-02',
      '2028-04-16',
    ]);
  });

  it('lists exactly the art. 73 days off for 2024-2028, weekend ones moved to the next free working day', () => {
    const expected: string[] = [];
    for (const year of [2024, 2025, 2026, 2027, 2028]) {
      const easter = orthodoxEaster(year);
      const fixed = ['01-01', '03-08', '05-01', '05-08', '06-28', '07-15', '08-24', '10-01', '12-25'].map(
        (md) => `${year}-${md}`,
      );
      const all = [...fixed, easter, addCalendarDays(easter, 49)].sort();
      const weekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00Z`).getUTCDay());
      const off = new Set(all.filter((day) => !weekend(day)));
      for (const day of all.filter(weekend)) {
        let moved = addCalendarDays(day, 1);
        while (weekend(moved) || off.has(moved)) moved = addCalendarDays(moved, 1);
        off.add(moved);
      }
      expected.push(...[...off].sort());
    }
    expect(data.peacetimeHolidays).toEqual(expected);
  });

  it('has no extra days off or working weekends under martial law', () => {
    expect(data.holidays).toEqual([]);
    expect(data.workingWeekends).toEqual([]);
    expect(data.coverage).toEqual({ from: '2024-01-01', to: '2028-12-31' });
  });
});
