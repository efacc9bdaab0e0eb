import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { atKyivTime, workingDaysLater } from '../../../functions/domain/calendar/periods.ts';
import { ukraineCalendar } from '../../../functions/domain/calendar/working-days.ts';
import data from '../../../functions/domain/calendar/ukraine-calendar.json' with { type: 'json' };
import { formatKyiv, parseInstant } from '../../../functions/domain/kernel/time.ts';
import { resetConfig } from '../../../functions/platform/config.ts';
import { anInsiderAuction } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, INSIDER, clockOf, draftAuction, kyivDayIn } from '../../support/auctions.ts';

/**
 * AGORA_CALENDAR reaches the periods: this file's service runs with the peacetime calendar (set before the service
 * reads its configuration), so a statutory day off that martial law works through is skipped.
 */
const saved = process.env.AGORA_CALENDAR;
process.env.AGORA_CALENDAR = 'peacetime';
afterAll(() => {
  if (saved === undefined) delete process.env.AGORA_CALENDAR;
  else process.env.AGORA_CALENDAR = saved;
  resetConfig();
});

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const peace = ukraineCalendar('peacetime');
const martial = ukraineCalendar('martial-law');

/** The next peacetime weekday holiday at least `days` ahead (martial law works on it). */
function holidayAfter(days: number): string {
  const from = kyivDayIn(days);
  const day = data.peacetimeHolidays.find((d) => d >= from && martial.isWorkingDay(d));
  if (!day) throw new Error(`ukraine-calendar.json has no peacetime holiday after ${from}: extend it`);
  return day;
}

describe('the configured working-day calendar (AGORA_CALENDAR=peacetime)', () => {
  it('counts the landlease tender period back over working days of the peacetime calendar', async () => {
    const day = peace.addWorkingDays(holidayAfter(10), 1); // the first working day after the holiday
    const tenderEnd = (calendar: typeof peace) => formatKyiv(atKyivTime(calendar.addWorkingDays(day, -3), 20));
    expect(tenderEnd(peace)).not.toBe(tenderEnd(martial)); // the holiday lies in the three days counted back
    const { id, token } = await draftAuction(api, {
      mode: undefined,
      procurementMethodDetails: undefined,
      auctionPeriod: { startDate: day },
    });
    const res = await api.patch(`${AUCTIONS}/${id}`, { status: 'active.rectification' }, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.tenderPeriod.endDate).toBe(tenderEnd(peace));
  });

  it('gives a dgfInsider auction created the day before the holiday a rectification period that skips it', async () => {
    const holiday = holidayAfter(2);
    await clock.passTo(formatKyiv(atKyivTime(martial.addWorkingDays(holiday, -1), 12)));
    const res = await api.post(INSIDER, anInsiderAuction(peace.addWorkingDays(holiday, 10)));
    expect(res.status).toBe(201);
    const now = parseInstant(res.body.data.rectificationPeriod.startDate)!;
    expect(formatKyiv(workingDaysLater(now, 2, peace))).not.toBe(formatKyiv(workingDaysLater(now, 2, martial)));
    expect(res.body.data.rectificationPeriod.endDate).toBe(formatKyiv(workingDaysLater(now, 2, peace)));
  });
});
