import { describe, expect, it } from 'vitest';
import { calendarOf, seedCalendar } from '../../../functions/domain/calendar/calendar-changes.ts';
import { calendarMode } from '../../../functions/platform/config.ts';

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

describe('calendarOf (the stored document in the configured mode)', () => {
  // Independence Day 2026 falls on a Monday: a working day under martial law only.
  it('is the martial-law calendar by default and the peacetime one when asked', () => {
    expect(calendarOf(seedCalendar(), calendarMode(undefined)).isWorkingDay('2026-08-24')).toBe(true);
    expect(calendarOf(seedCalendar(), 'peacetime').isWorkingDay('2026-08-24')).toBe(false);
  });
});
