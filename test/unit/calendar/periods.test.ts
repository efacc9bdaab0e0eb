import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../../functions/domain/kernel/errors.ts';
import { formatKyiv, parseInstant, type Micros } from '../../../functions/domain/kernel/time.ts';
import {
  accelerator,
  atKyivTime,
  insiderPeriods,
  kyivMidnight,
  landleasePeriods,
  PERIODS_INCORRECT,
  workingDaysLater,
} from '../../../functions/domain/calendar/periods.ts';
import {
  CalendarCoverageError,
  createCalendar,
  ukraineCalendar,
} from '../../../functions/domain/calendar/working-days.ts';

const at = (text: string): Micros => parseInstant(text)!;
const utc = (micros: Micros): string => new Date(micros / 1000).toISOString();
const MINUTE = 60_000_000;
const martial = ukraineCalendar('martial-law');

describe('accelerator', () => {
  it('reads N from procurementMethodDetails in test mode', () => {
    expect(accelerator('quick, accelerator=1440', 'test')).toBe(1440);
    expect(accelerator('accelerator=60', 'test')).toBe(60);
  });

  it('is 1 outside test mode, without a value, or with a nonsensical one', () => {
    expect(accelerator('quick, accelerator=1440')).toBe(1);
    expect(accelerator('quick, accelerator=1440', 'real')).toBe(1);
    expect(accelerator('quick', 'test')).toBe(1);
    expect(accelerator(undefined, 'test')).toBe(1);
    expect(accelerator('quick, accelerator=0', 'test')).toBe(1);
  });
});

describe('atKyivTime and kyivMidnight', () => {
  it('uses +02:00 in winter and +03:00 in summer', () => {
    expect(utc(atKyivTime('2026-03-28', 20))).toBe('2026-03-28T18:00:00.000Z');
    expect(utc(atKyivTime('2026-03-29', 20))).toBe('2026-03-29T17:00:00.000Z');
    expect(utc(atKyivTime('2026-10-24', 20))).toBe('2026-10-24T17:00:00.000Z');
    expect(utc(atKyivTime('2026-10-25', 20))).toBe('2026-10-25T18:00:00.000Z');
    expect(utc(atKyivTime('2026-12-03', 16, 15))).toBe('2026-12-03T14:15:00.000Z');
  });

  it('puts midnight on the right side of each DST change', () => {
    expect(utc(kyivMidnight('2026-03-29'))).toBe('2026-03-28T22:00:00.000Z');
    expect(utc(kyivMidnight('2026-03-30'))).toBe('2026-03-29T21:00:00.000Z');
    expect(utc(kyivMidnight('2026-10-25'))).toBe('2026-10-24T21:00:00.000Z');
    expect(utc(kyivMidnight('2026-10-26'))).toBe('2026-10-25T22:00:00.000Z');
    // the DST-change days last 23 and 25 hours
    expect(kyivMidnight('2026-03-30') - kyivMidnight('2026-03-29')).toBe(23 * 60 * MINUTE);
    expect(kyivMidnight('2026-10-26') - kyivMidnight('2026-10-25')).toBe(25 * 60 * MINUTE);
  });
});

describe('landleasePeriods', () => {
  const now = at('2026-11-23T10:00:00.123456+02:00'); // a Monday

  it('builds rectification, tender and enquiry periods from now and the auction day', () => {
    const p = landleasePeriods({ now, calendar: martial, auctionStartDay: '2026-12-07', accelerator: 1 });
    expect(p.rectificationPeriod).toEqual({ startDate: now, endDate: at('2026-11-25T10:00:00.123456+02:00') });
    // 3 business days before Monday 7 Dec: Fri 4, Thu 3, Wed 2
    expect(p.tenderPeriod).toEqual({
      startDate: p.rectificationPeriod.endDate,
      endDate: at('2026-12-02T20:00:00+02:00'),
    });
    expect(p.enquiryPeriod).toEqual({ startDate: now, endDate: at('2026-12-06T20:00:00+02:00') });
    expect(formatKyiv(p.auctionShouldStartAfter)).toBe('2026-12-07T00:00:00+02:00');
  });

  it('keeps 20:00 and midnight in Kyiv time across the spring DST change', () => {
    const p = landleasePeriods({
      now: at('2026-03-20T12:00:00+02:00'),
      calendar: martial,
      auctionStartDay: '2026-03-30',
      accelerator: 1,
    });
    expect(utc(p.rectificationPeriod.endDate)).toBe('2026-03-22T10:00:00.000Z');
    expect(formatKyiv(p.tenderPeriod.endDate)).toBe('2026-03-25T20:00:00+02:00');
    expect(formatKyiv(p.enquiryPeriod.endDate)).toBe('2026-03-29T20:00:00+03:00');
    expect(utc(p.enquiryPeriod.endDate)).toBe('2026-03-29T17:00:00.000Z');
    expect(utc(p.auctionShouldStartAfter)).toBe('2026-03-29T21:00:00.000Z');
  });

  it('keeps 20:00 and midnight in Kyiv time across the autumn DST change', () => {
    const p = landleasePeriods({
      now: at('2026-10-12T09:00:00+03:00'),
      calendar: martial,
      auctionStartDay: '2026-10-26',
      accelerator: 1,
    });
    expect(utc(p.tenderPeriod.endDate)).toBe('2026-10-21T17:00:00.000Z');
    expect(utc(p.enquiryPeriod.endDate)).toBe('2026-10-25T18:00:00.000Z');
    expect(utc(p.auctionShouldStartAfter)).toBe('2026-10-25T22:00:00.000Z');
  });

  it('counts business days back past a weekend and the holidays of the chosen calendar', () => {
    const input = {
      now: at('2025-08-01T10:00:00+03:00'),
      auctionStartDay: '2025-08-27',
      accelerator: 1,
      calendar: martial,
    };
    // Wed 27 Aug 2025: Tue 26, Mon 25, Fri 22 — or, with Mon 25 off (Independence Day moved from Sunday), Thu 21
    expect(formatKyiv(landleasePeriods(input).tenderPeriod.endDate)).toBe('2025-08-22T20:00:00+03:00');
    expect(
      formatKyiv(landleasePeriods({ ...input, calendar: ukraineCalendar('peacetime') }).tenderPeriod.endDate),
    ).toBe('2025-08-21T20:00:00+03:00');
  });

  it('uses an injected calendar with a working Saturday and an extra holiday', () => {
    const calendar = createCalendar({
      coverage: { from: '2026-11-01', to: '2026-12-31' },
      holidays: ['2026-12-02'],
      workingWeekends: ['2026-12-05'],
    });
    const p = landleasePeriods({ now, auctionStartDay: '2026-12-07', accelerator: 1, calendar });
    // back from Mon 7 Dec: Sat 5 (working), Fri 4, Thu 3
    expect(formatKyiv(p.tenderPeriod.endDate)).toBe('2026-12-03T20:00:00+02:00');
  });

  it('accepts the earliest auction day whose tender period still ends after rectification', () => {
    // Mon 30 Nov: tender ends Wed 25 Nov 20:00, after rectification ends Wed 25 Nov 10:00
    const p = landleasePeriods({ now, calendar: martial, auctionStartDay: '2026-11-30', accelerator: 1 });
    expect(p.tenderPeriod.endDate).toBeGreaterThan(p.tenderPeriod.startDate);
  });

  it('refuses an auction day too close for the periods to be in order', () => {
    for (const auctionStartDay of ['2026-11-27', '2026-11-24', '2026-11-23', '2026-11-01']) {
      let error: unknown;
      try {
        landleasePeriods({ now, calendar: martial, auctionStartDay, accelerator: 1 });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).status).toBe(403);
      expect((error as ForbiddenError).entries).toEqual([
        { location: 'body', name: 'data', description: PERIODS_INCORRECT },
      ]);
    }
  });

  it('refuses the same too-close day in the sandbox', () => {
    expect(() =>
      landleasePeriods({ now, calendar: martial, auctionStartDay: '2026-11-27', accelerator: 1440 }),
    ).toThrow(PERIODS_INCORRECT);
  });

  it('divides every wait by the accelerator, measured from now', () => {
    const normal = landleasePeriods({ now, calendar: martial, auctionStartDay: '2026-12-07', accelerator: 1 });
    const fast = landleasePeriods({ now, calendar: martial, auctionStartDay: '2026-12-07', accelerator: 1440 });
    const scaled = (t: Micros) => now + Math.round((t - now) / 1440);
    expect(fast.rectificationPeriod).toEqual({ startDate: now, endDate: now + 2 * MINUTE });
    expect(fast.tenderPeriod).toEqual({ startDate: now + 2 * MINUTE, endDate: scaled(normal.tenderPeriod.endDate) });
    expect(fast.enquiryPeriod).toEqual({ startDate: now, endDate: scaled(normal.enquiryPeriod.endDate) });
    expect(fast.auctionShouldStartAfter).toBe(scaled(normal.auctionShouldStartAfter));
    // the whole walk, two weeks in real time, takes about fourteen minutes, in the same order
    expect(fast.auctionShouldStartAfter - now).toBeLessThan(15 * MINUTE);
    expect(fast.rectificationPeriod.endDate).toBeLessThan(fast.tenderPeriod.endDate);
    expect(fast.tenderPeriod.endDate).toBeLessThan(fast.enquiryPeriod.endDate);
    expect(fast.enquiryPeriod.endDate).toBeLessThan(fast.auctionShouldStartAfter);
  });

  it('refuses an auction day outside the calendar data', () => {
    expect(() => landleasePeriods({ now, calendar: martial, auctionStartDay: '2029-01-04', accelerator: 1 })).toThrow(
      CalendarCoverageError,
    );
  });
});

describe('insiderPeriods', () => {
  const now = at('2026-11-23T10:00:00+02:00'); // a Monday

  it('builds enquiry, tender and rectification periods for a dgfInsider auction', () => {
    const p = insiderPeriods({ now, calendar: martial, auctionStartDay: '2026-12-03', accelerator: 1 });
    expect(p.enquiryPeriod).toEqual({ startDate: now, endDate: at('2026-12-02T20:00:00+02:00') });
    expect(p.tenderPeriod).toEqual({ startDate: now, endDate: at('2026-12-03T16:15:00+02:00') });
    expect(p.rectificationPeriod).toEqual({ startDate: now, endDate: at('2026-11-25T10:00:00+02:00') });
    expect(p.auctionShouldStartAfter).toBe(at('2026-12-03T00:00:00+02:00'));
  });

  it('ends tendering ten minutes after enquiries in quick mode', () => {
    const p = insiderPeriods({ now, calendar: martial, auctionStartDay: '2026-12-03', accelerator: 1440, quick: true });
    expect(p.tenderPeriod.endDate).toBe(p.enquiryPeriod.endDate + 10 * MINUTE);
  });

  it('counts an accelerated start later today back from its start instant, as the original recording did', () => {
    // auction-post-acceleration.http: (on 2018-03-13) created 17:48:58 Kyiv, start 17:53:55.444611, enquiry end 17:53:00.697774.
    const created = at('2026-11-24T17:48:58.955888+02:00');
    const p = insiderPeriods({
      now: created,
      calendar: martial,
      auctionStartDay: '2026-11-24',
      auctionStart: at('2026-11-24T17:53:55.444611+02:00'),
      accelerator: 1440,
      quick: true,
    });
    expect(formatKyiv(p.enquiryPeriod.endDate)).toBe('2026-11-24T17:53:00.697774+02:00');
    expect(p.tenderPeriod.endDate).toBe(p.enquiryPeriod.endDate + 10 * MINUTE);
  });

  it('divides every wait by the accelerator, measured from now', () => {
    const normal = insiderPeriods({ now, calendar: martial, auctionStartDay: '2026-12-03', accelerator: 1 });
    const fast = insiderPeriods({ now, calendar: martial, auctionStartDay: '2026-12-03', accelerator: 1440 });
    const scaled = (t: Micros) => now + Math.round((t - now) / 1440);
    expect(fast.enquiryPeriod.endDate).toBe(scaled(normal.enquiryPeriod.endDate));
    expect(fast.tenderPeriod.endDate).toBe(scaled(normal.tenderPeriod.endDate));
    expect(fast.rectificationPeriod.endDate).toBe(now + 2 * MINUTE);
    expect(fast.auctionShouldStartAfter).toBe(scaled(normal.auctionShouldStartAfter));
  });

  it('uses 20:00 and 16:15 Kyiv summer time after the spring DST change', () => {
    const p = insiderPeriods({
      now: at('2026-03-20T12:00:00+02:00'),
      calendar: martial,
      auctionStartDay: '2026-03-30',
      accelerator: 1,
    });
    expect(utc(p.enquiryPeriod.endDate)).toBe('2026-03-29T17:00:00.000Z');
    expect(utc(p.tenderPeriod.endDate)).toBe('2026-03-30T13:15:00.000Z');
  });
});

describe('workingDaysLater', () => {
  const calendar = ukraineCalendar('martial-law');

  it('keeps the Kyiv wall-clock time, microseconds included, across a weekend', () => {
    expect(formatKyiv(workingDaysLater(at('2026-11-26T15:30:00.654321+02:00'), 2, calendar))).toBe(
      '2026-11-30T15:30:00.654321+02:00',
    );
  });

  it('keeps the Kyiv wall-clock time across the spring DST change', () => {
    const later = workingDaysLater(at('2026-03-27T10:00:00+02:00'), 2, calendar);
    expect(formatKyiv(later)).toBe('2026-03-31T10:00:00+03:00');
    expect(utc(later)).toBe('2026-03-31T07:00:00.000Z');
  });

  it('starts from midnight of the next working day when now is a day off, leaving whole working days', () => {
    expect(formatKyiv(workingDaysLater(at('2026-11-28T15:00:00+02:00'), 2, calendar))).toBe(
      '2026-12-02T00:00:00+02:00',
    );
  });

  it('skips peacetime holidays', () => {
    const peace = ukraineCalendar('peacetime');
    expect(formatKyiv(workingDaysLater(at('2026-04-10T09:00:00+03:00'), 2, peace))).toBe('2026-04-15T09:00:00+03:00');
  });
});
