import { afterEach, describe, expect, it } from 'vitest';
import { serviceCalendar } from '../../../functions/runtime/calendar.ts';
import { calendarMode, resetConfig } from '../../../functions/runtime/config.ts';

describe('calendarMode (AGORA_CALENDAR)', () => {
  it('defaults to martial law and accepts peacetime', () => {
    expect(calendarMode(undefined)).toBe('martial-law');
    expect(calendarMode('')).toBe('martial-law');
    expect(calendarMode('martial-law')).toBe('martial-law');
    expect(calendarMode('peacetime')).toBe('peacetime');
  });

  it('rejects an unknown setting', () => {
    expect(() => calendarMode('Peacetime')).toThrow(/AGORA_CALENDAR/);
  });
});

describe('serviceCalendar', () => {
  const saved = process.env.AGORA_CALENDAR;
  const use = (mode: string | undefined) => {
    if (mode === undefined) delete process.env.AGORA_CALENDAR;
    else process.env.AGORA_CALENDAR = mode;
    resetConfig();
  };
  afterEach(() => use(saved));

  // Independence Day 2026 falls on a Monday: a working day under martial law only.
  it('is the martial-law calendar when AGORA_CALENDAR is unset', () => {
    use(undefined);
    expect(serviceCalendar().isWorkingDay('2026-08-24')).toBe(true);
  });

  it('is the peacetime calendar when configured so, built once per mode', () => {
    use('peacetime');
    const calendar = serviceCalendar();
    expect(calendar.isWorkingDay('2026-08-24')).toBe(false);
    expect(serviceCalendar()).toBe(calendar);
    use('martial-law');
    expect(serviceCalendar().isWorkingDay('2026-08-24')).toBe(true);
  });

  it('refuses an unknown mode rather than guessing', () => {
    use('Peacetime');
    expect(() => serviceCalendar()).toThrow(/AGORA_CALENDAR/);
  });
});
