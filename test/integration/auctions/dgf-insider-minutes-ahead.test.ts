import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { anInsiderAuction } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { INSIDER, SANDBOX } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const MINUTE = 60_000;

/** A Kyiv wall-clock date-time without a zone, as the original recording sent it. */
const kyivWallClock = (ms: number) => format(new TZDate(ms, 'Europe/Kyiv'), "yyyy-MM-dd'T'HH:mm:ss.SSS");

// The original recording (insider docs/source/tutorial/auction-post-acceleration.http) created an accelerated quick
// auction whose start was 5 minutes ahead: the enquiry ended 55 seconds before it, the tendering 10 minutes after that.
describe('a sandbox dgfInsider auction minutes ahead', () => {
  it('accepts an accelerated auction starting 5 minutes ahead, its periods counted back from the start', async () => {
    const start = Date.now() + 5 * MINUTE;
    const res = await api.post(
      INSIDER,
      anInsiderAuction(kyivWallClock(start), { ...SANDBOX, submissionMethodDetails: 'quick' }),
    );
    expect(res.status).toBe(201);
    const { enquiryPeriod, tenderPeriod, auctionPeriod } = res.body.data;
    const enquiryEnd = Date.parse(enquiryPeriod.endDate);
    expect(enquiryEnd).toBeGreaterThan(Date.now());
    expect(enquiryEnd).toBeLessThan(start);
    expect(Date.parse(tenderPeriod.endDate) - enquiryEnd).toBe(10 * MINUTE);
    expect(Date.parse(auctionPeriod.shouldStartAfter)).toBeGreaterThanOrEqual(enquiryEnd);
  });

  it('refuses the same start without the accelerator, and an accelerated start already past', async () => {
    const soon = kyivWallClock(Date.now() + 5 * MINUTE);
    const realTime = await api.post(INSIDER, anInsiderAuction(soon, { submissionMethodDetails: 'quick' }));
    const past = await api.post(INSIDER, anInsiderAuction(kyivWallClock(Date.now() - 5 * MINUTE), SANDBOX));
    for (const res of [realTime, past]) {
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([
        {
          location: 'body',
          name: 'data',
          description: 'auctionPeriod.startDate is incorrect, it does not allow to create periods correctly',
        },
      ]);
    }
  });

  it('still refuses an accelerated auction dated today without a time', async () => {
    const today = format(new TZDate(Date.now(), 'Europe/Kyiv'), 'yyyy-MM-dd');
    const res = await api.post(INSIDER, anInsiderAuction(today, SANDBOX));
    expect(res.status).toBe(403);
  });
});
