import { afterEach, describe, expect, it } from 'vitest';
import { seedCalendar } from '../../../functions/domain/calendar/calendar-changes.ts';
import { addCalendarDays } from '../../../functions/domain/calendar/working-days.ts';
import { CALENDAR_COVERAGE_DAYS, TELEMETRY } from '../../../functions/platform/telemetry.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { captureStdout, useLogsAndMetrics } from '../../support/stdout.ts';
import { AUCTIONS, clockOf, draftAuction } from '../../support/auctions.ts';

/**
 * The working-day calendar as data the operator owns (issue 43): public to read, changed by an admin only, every
 * change checked whole (a bad one changes nothing) and recorded in its change log; the chronograph publishes how far
 * it reaches (the coverage alarm's metric); and a landlease auction whose periods fall past the coverage is refused
 * until the calendar is extended through the admin route.
 */
useLogsAndMetrics();
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const CALENDAR = '/api/calendar';
const end = seedCalendar().coverage.to;
const anonymous = { as: undefined };

/** The chronograph's run, and the CalendarCoverageDays it published. */
async function coverageMetric(): Promise<number[]> {
  const out = captureStdout();
  try {
    await service.bot('chronograph');
  } finally {
    out.stop();
  }
  return out
    .lines()
    .filter((l) => TELEMETRY.calendarCoverageDays in l)
    .map((l) => l[TELEMETRY.calendarCoverageDays]);
}

describe('GET /api/calendar', () => {
  it('is public: the shipped calendar, with its coverage and sources, until an admin changes it', async () => {
    const res = await api.get(CALENDAR, anonymous);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      coverage: seedCalendar().coverage,
      holidays: [],
      workingWeekends: [],
      mode: 'martial-law',
    });
    expect(res.body.data.source).toMatch(/Law No\. 2136-IX/);
    expect(res.body.data.peacetimeHolidays).toContain('2028-12-25');
    expect(res.requests).toBe(1);
  });
});

describe('PATCH /api/calendar', () => {
  it('is refused to anonymous callers (401) and broker keys (403), and changes nothing', async () => {
    const change = { coverage: { to: addCalendarDays(end, 365) } };
    expect((await api.patch(CALENDAR, change, anonymous)).status).toBe(401);
    const broker = await api.patch(CALENDAR, change, { as: 'broker' });
    expect(broker.status).toBe(403);
    expect(broker.body.status).toBe('error');
    expect((await api.patch(CALENDAR, change, { as: 'concierge' })).status).toBe(403);
    expect((await api.get(CALENDAR, anonymous)).body.data.coverage.to).toBe(end);
  });

  it.each([
    ['a date that does not exist', { add: { holidays: ['2028-02-30'] } }, 'add.holidays'],
    ['a holiday on a Saturday', { add: { holidays: ['2028-01-01'] } }, 'holidays'],
    ['a working weekend on a weekday', { add: { workingWeekends: ['2028-01-03'] } }, 'workingWeekends'],
    ['a day outside the coverage', { add: { peacetimeHolidays: [addCalendarDays(end, 1)] } }, 'peacetimeHolidays'],
    ['a coverage made shorter', { coverage: { to: addCalendarDays(end, -1) } }, 'coverage.to'],
    ['a coverage spanning a century', { coverage: { to: '2124-12-31' } }, 'coverage'],
    ['removing a day not listed', { remove: { peacetimeHolidays: ['2028-01-04'] } }, 'remove.peacetimeHolidays'],
    ['adding a day listed already', { add: { peacetimeHolidays: ['2028-12-25'] } }, 'add.peacetimeHolidays'],
    ['nothing to change', {}, 'data'],
  ])('refuses %s with a 422 in the error envelope, and changes nothing', async (_, change, name) => {
    const before = (await api.get(CALENDAR, anonymous)).body.data;
    const res = await api.patch(CALENDAR, change, { as: 'admin' });
    expect(res.status).toBe(422);
    expect(res.body.status).toBe('error');
    expect(res.body.errors.map((e: { name: string }) => e.name)).toContain(name);
    expect((await api.get(CALENDAR, anonymous)).body.data).toEqual(before);
    expect((await api.get(`${CALENDAR}/revisions`, anonymous)).status).toBe(404); // still never changed
  });

  it('refuses an unknown field (Rogue field) and a date in another form', async () => {
    const rogue = await api.patch(CALENDAR, { coverage: { to: '2029-12-31', until: '2030' } }, { as: 'admin' });
    expect(rogue.status).toBe(422);
    expect(JSON.stringify(rogue.body.errors)).toMatch(/Rogue field/);
    const form = await api.patch(CALENDAR, { coverage: { to: '31.12.2029' } }, { as: 'admin' });
    expect(form.status).toBe(422);
    expect((await api.get(CALENDAR, anonymous)).body.data.coverage.to).toBe(end);
  });
});

describe('a landlease auction past the coverage', () => {
  it('is refused, the coverage metric falls under the alarm threshold, and after the admin extends the calendar it publishes', async () => {
    // 100 days before the coverage ends: the chronograph's metric is what the alarm fires on.
    await clock.passTo(`${addCalendarDays(end, -100)}T09:00:00+02:00`);
    const before = await coverageMetric();
    expect(before.length).toBeGreaterThan(0);
    expect(before.at(-1)).toBeLessThan(CALENDAR_COVERAGE_DAYS);
    expect(before.at(-1)).toBe(100);

    // An auction three weeks after the last covered day: its periods cannot be counted.
    const startDate = addCalendarDays(end, 21);
    const { id, token } = await draftAuction(api, {
      mode: undefined,
      procurementMethodDetails: undefined,
      auctionPeriod: { startDate },
    });
    const refused = await api.patch(`${AUCTIONS}/${id}`, { status: 'active.rectification' }, { token });
    expect(refused.status).toBe(403);
    expect(refused.body.status).toBe('error');
    expect(JSON.stringify(refused.body.errors)).toContain(`covers ${seedCalendar().coverage.from}..${end} only`);

    const to = addCalendarDays(end, 365);
    const extended = await api.patch(
      CALENDAR,
      { coverage: { to }, source: `${seedCalendar().source} Extended by the operator: no change under martial law.` },
      { as: 'admin' },
    );
    expect(extended.status).toBe(200);
    expect(extended.body.data.coverage).toEqual({ from: seedCalendar().coverage.from, to });
    expect(extended.body.data.dateModified).toBeTruthy();
    expect((await api.get(CALENDAR, anonymous)).body.data).toEqual(extended.body.data);

    const published = await api.patch(`${AUCTIONS}/${id}`, { status: 'active.rectification' }, { token });
    expect(published.status).toBe(200);
    expect(published.body.data.status).toBe('active.rectification');
    expect(published.body.data.auctionPeriod.startDate.slice(0, 10)).toBe(startDate);

    expect((await coverageMetric()).at(-1)).toBe(465);

    // The change log: the shipped calendar as revision 1, the admin's extension as revision 2, both public.
    const log = await api.get(`${CALENDAR}/revisions`, anonymous);
    expect(log.status).toBe(200);
    expect(log.body.data.map((r: { author: unknown }) => r.author)).toEqual([
      { role: 'system', name: 'ukraine-calendar.json' },
      { role: 'admin', name: 'admin' },
    ]);
    expect(log.body.data[1].changes).toContainEqual({ op: 'replace', path: '/coverage/to', value: to });
    expect(log.body.data[1].previousHash).toBe(log.body.data[0].hash);

    // Days can be added and removed again, each a revision.
    const added = await api.patch(CALENDAR, { add: { workingWeekends: [addCalendarDays(end, 6)] } }, { as: 'admin' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const removed = await api.patch(
      CALENDAR,
      { remove: { workingWeekends: [addCalendarDays(end, 6)] } },
      { as: 'admin' },
    );
    expect(removed.body.data.workingWeekends).toEqual([]);
    expect((await api.get(`${CALENDAR}/revisions`, anonymous)).body.data).toHaveLength(4);
  });
});

describe('a calendar no change can lock', () => {
  it('takes `from` far back and still extends `to`; refuses whole a change that leaves too little coverage ahead', async () => {
    const back = await api.patch(CALENDAR, { coverage: { from: '1999-01-04' } }, { as: 'admin' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    // A bound between the two ends refused every later `to` here, and `from` may never move forward: locked.
    const to = addCalendarDays((await api.get(CALENDAR, anonymous)).body.data.coverage.to, 365);
    const extended = await api.patch(CALENDAR, { coverage: { to } }, { as: 'admin' });
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect(extended.body.data.coverage).toEqual({ from: '1999-01-04', to });

    // 100 days before the end: a change that leaves fewer than the alarm's days ahead is refused, saying what to do.
    await clock.passTo(`${addCalendarDays(to, -100)}T09:00:00+02:00`);
    const saturday = [0, 1, 2, 3, 4, 5, 6]
      .map((n) => addCalendarDays(to, -20 - n))
      .find((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 6)!;
    const before = (await api.get(CALENDAR, anonymous)).body.data;
    const short = await api.patch(CALENDAR, { add: { workingWeekends: [saturday] } }, { as: 'admin' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([
      {
        location: 'body',
        name: 'coverage.to',
        description: [expect.stringContaining(`extend coverage.to to ${addCalendarDays(to, 20)} or later`)],
      },
    ]);
    expect((await api.get(CALENDAR, anonymous)).body.data).toEqual(before);
    const both = await api.patch(
      CALENDAR,
      { add: { workingWeekends: [saturday] }, coverage: { to: addCalendarDays(to, 365) } },
      { as: 'admin' },
    );
    expect(both.status, JSON.stringify(both.body)).toBe(200);
  });
});

describe('a PATCH that leaves the calendar as it is', () => {
  it('answers the calendar as it was, and neither records a revision nor moves dateModified', async () => {
    const before = (await api.get(CALENDAR, anonymous)).body.data;
    const log = (await api.get(`${CALENDAR}/revisions`, anonymous)).body.data;
    const same = [{ coverage: { to: before.coverage.to } }, { source: before.source }, { coverage: before.coverage }];
    for (const change of same) {
      const res = await api.patch(CALENDAR, change, { as: 'admin' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual(before);
    }
    expect((await api.get(CALENDAR, anonymous)).body.data).toEqual(before);
    expect((await api.get(`${CALENDAR}/revisions`, anonymous)).body.data).toEqual(log);
  });
});
