import { describe, expect, it } from 'vitest';
import { formatKyiv, kyivDate, parseInstant, sortableUtc } from '../../../functions/domain/kernel/time.ts';

describe('instants', () => {
  it('read ISO dates and date-times, with or without an offset (without: Kyiv local time)', () => {
    expect(parseInstant('2026-07-01T00:00:00+03:00')).toBe(Date.parse('2026-06-30T21:00:00Z') * 1000);
    expect(parseInstant('2026-07-01')).toBe(Date.parse('2026-06-30T21:00:00Z') * 1000);
    expect(parseInstant('2026-01-01T12:00:00.123456Z')).toBe(Date.parse('2026-01-01T12:00:00Z') * 1000 + 123456);
  });

  it('refuse days and times that do not exist instead of rolling them over', () => {
    for (const text of [
      '2026-02-30',
      '2026-02-29T00:00:00Z',
      '2026-13-01',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:60:00Z',
      'yesterday',
    ]) {
      expect(parseInstant(text), text).toBeUndefined();
    }
    expect(parseInstant('2024-02-29')).toBeDefined();
  });

  it('write microseconds with the Kyiv offset of the instant, across DST', () => {
    expect(formatKyiv(parseInstant('2026-03-29T00:30:00.000042Z')!)).toBe('2026-03-29T02:30:00.000042+02:00');
    expect(formatKyiv(parseInstant('2026-03-29T00:30:00Z')!)).toBe('2026-03-29T02:30:00+02:00');
    expect(formatKyiv(parseInstant('2026-03-29T01:30:00Z')!)).toBe('2026-03-29T04:30:00+03:00');
    expect(kyivDate(parseInstant('2026-10-24T21:30:00Z')!)).toBe('2026-10-25');
  });

  it("write a whole second without a fraction, as Python's isoformat() did in the original services", () => {
    expect(formatKyiv(parseInstant('2018-11-19T22:00:00Z')!)).toBe('2018-11-20T00:00:00+02:00');
    expect(formatKyiv(parseInstant('2026-06-01T17:00:00.5Z')!)).toBe('2026-06-01T20:00:00.500000+03:00');
  });

  it('sort as time does in their UTC form, where Kyiv-offset texts do not', () => {
    const a = parseInstant('2026-10-25T03:59:00+03:00')!; // before the clocks go back
    const b = parseInstant('2026-10-25T03:01:00+02:00')!; // after, one hour later in time
    expect(formatKyiv(a) > formatKyiv(b)).toBe(true);
    expect(sortableUtc(a) < sortableUtc(b)).toBe(true);
  });
});
