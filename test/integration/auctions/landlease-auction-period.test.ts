import { afterEach, describe, expect, it } from 'vitest';
import { TZDate } from '@date-fns/tz';
import { aLandleaseAuction } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, activeBid, clockOf, draftAuction, kyivDayIn } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

/** Kyiv midnight of a day, with that day's offset (+02:00 in winter, +03:00 in summer). */
const midnight = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  const offset = new TZDate(y, m - 1, d, 0, 0, 0, 'Europe/Kyiv').getTimezoneOffset();
  return `${day}T00:00:00+0${-offset / 60}:00`;
};

describe('landlease auctionPeriod.startDate', () => {
  it('shows a draft the requested day as Kyiv midnight with its offset, without shouldStartAfter', async () => {
    const day = kyivDayIn(25);
    const { id, created } = await draftAuction(api, { auctionPeriod: { startDate: day } });
    expect(created.body.data.auctionPeriod).toEqual({ startDate: midnight(day) });
    expect((await api.get(`${AUCTIONS}/${id}`)).body.data.auctionPeriod).toEqual({ startDate: midnight(day) });
  });

  it('takes a date-time as its Kyiv day, and follows a draft edit of the day', async () => {
    const day = kyivDayIn(26);
    const { id, token, created } = await draftAuction(api, { auctionPeriod: { startDate: `${day}T15:30:00+02:00` } });
    expect(created.body.data.auctionPeriod.startDate.slice(0, 10)).toBe(day);
    const later = kyivDayIn(33);
    const edited = await api.patch(`${AUCTIONS}/${id}`, { auctionPeriod: { startDate: later } }, { token });
    expect(edited.body.data.auctionPeriod).toEqual({ startDate: midnight(later) });
    expect((await api.patch(`${AUCTIONS}/${id}`, { auctionPeriod: { startDate: 'soon' } }, { token })).status).toBe(
      422,
    );
    expect((await api.patch(`${AUCTIONS}/${id}`, { auctionPeriod: {} }, { token })).status).toBe(422);
  });

  it('keeps the planned start next to shouldStartAfter from the phase commit on, outside the sandbox', async () => {
    const day = kyivDayIn(30);
    const { id, token } = await draftAuction(api, {
      mode: undefined,
      procurementMethodDetails: undefined,
      auctionPeriod: { startDate: day },
    });
    const committed = (await api.patch(`${AUCTIONS}/${id}`, { status: 'active.rectification' }, { token })).body.data;
    expect(committed.auctionPeriod).toEqual({ startDate: midnight(day), shouldStartAfter: midnight(day) });
    const read = (await api.get(`${AUCTIONS}/${id}`)).body.data;
    expect(read.auctionPeriod).toEqual(committed.auctionPeriod);
    // A rectification edit leaves it alone (auctionPeriod is not editable then).
    const edited = (
      await api.patch(
        `${AUCTIONS}/${id}`,
        { title: 'Інша назва', auctionPeriod: { startDate: kyivDayIn(40) } },
        { token },
      )
    ).body.data;
    expect(edited.auctionPeriod).toEqual(committed.auctionPeriod);
  });

  it('shows the sandbox planned day beside the accelerated shouldStartAfter, and the scheduled start once the auction is set', async () => {
    const day = kyivDayIn(21);
    const { id, token } = await draftAuction(api, { auctionPeriod: { startDate: day } });
    const committed = (await api.patch(`${AUCTIONS}/${id}`, { status: 'active.rectification' }, { token })).body.data;
    expect(committed.auctionPeriod.startDate).toBe(midnight(day));
    expect(Date.parse(committed.auctionPeriod.shouldStartAfter)).toBeLessThan(Date.parse(midnight(day)));

    await clock.passTo(committed.rectificationPeriod.endDate);
    await service.bot('chronograph');
    await activeBid(api, id, 1, 'broker2');
    await activeBid(api, id, 2, 'broker');
    await clock.passTo(committed.tenderPeriod.endDate);
    await service.bot('chronograph');
    await clock.passTo(committed.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const running = (await api.get(`${AUCTIONS}/${id}`)).body.data;
    expect(running.status).toBe('active.auction');
    expect(running.auctionPeriod).toEqual({
      startDate: committed.auctionPeriod.shouldStartAfter,
      shouldStartAfter: committed.auctionPeriod.shouldStartAfter,
    });
  });

  it('is required on create', async () => {
    const { auctionPeriod: _, ...body } = aLandleaseAuction(kyivDayIn(21));
    const res = await api.post(AUCTIONS, body);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].name).toBe('auctionPeriod');
  });
});
