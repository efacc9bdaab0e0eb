import { describe, expect, it } from 'vitest';
import { anInsiderAuction } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { draftAuction, INSIDER, kyivDayIn } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const DETAILS = 'quick, accelerator=1440';
const HOUR = 3_600_000;

describe('procurementMethodDetails on create', () => {
  it('creates a dgfInsider auction with procurementMethodDetails and no mode, in real time', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { procurementMethodDetails: DETAILS }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'active.tendering', procurementMethodDetails: DETAILS });
    expect(res.body.data).not.toHaveProperty('mode');
    // Not accelerated: the enquiry ends at 20:00 Kyiv the day before the auction, about 13 days ahead.
    expect(res.body.data.enquiryPeriod.endDate).toMatch(/T20:00:00(\.0+)?\+0[23]:00$/);
    expect(Date.parse(res.body.data.enquiryPeriod.endDate) - Date.now()).toBeGreaterThan(12 * 24 * HOUR);
  });

  it('accelerates the periods of a dgfInsider auction only with mode test', async () => {
    const res = await api.post(
      INSIDER,
      anInsiderAuction(kyivDayIn(14), { procurementMethodDetails: DETAILS, mode: 'test' }),
    );
    expect(res.status).toBe(201);
    // 14 days / 1440 ≈ 14 minutes.
    expect(Date.parse(res.body.data.enquiryPeriod.endDate) - Date.now()).toBeLessThan(HOUR);
  });

  it('creates and commits a landlease auction with procurementMethodDetails and no mode, in real time', async () => {
    const { id, token, created } = await draftAuction(api, { mode: undefined, procurementMethodDetails: DETAILS });
    expect(created.body.data.procurementMethodDetails).toBe(DETAILS);
    const committed = await api.patch(`/api/2.5/auctions/${id}`, { status: 'active.rectification' }, { token });
    expect(committed.status).toBe(200);
    const { startDate, endDate } = committed.body.data.rectificationPeriod;
    expect(Date.parse(endDate) - Date.parse(startDate)).toBe(48 * HOUR);
  });

  it('still refuses a procurementMethodDetails that is not a string', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { procurementMethodDetails: 1440 }));
    expect(res.body).toEqual({
      status: 'error',
      errors: [{ location: 'body', name: 'procurementMethodDetails', description: ['Value must be of type string.'] }],
    });
  });
});
