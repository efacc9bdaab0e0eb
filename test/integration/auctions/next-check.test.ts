import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, draftAuction, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';

const service = useService({ journal: true });
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

/** Kyiv time with microseconds, as every other date the service shows. */
const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+0[23]:00$/;

async function listed(base: string, id: string) {
  await service.journaled(); // the listing reads the journal
  const page = (await api.get(`${base}?mode=test&descending=1&opt_fields=next_check,status`)).body.data as {
    id: string;
    next_check?: string;
  }[];
  return page.find((a) => a.id === id);
}

describe('next_check', () => {
  it('shows when the chronograph looks next at a dgfInsider auction, in its view and its listing', async () => {
    const { id, auction } = await tenderingInsider(api);
    expect(auction.next_check).toMatch(DATE);
    expect(auction.next_check).toBe(auction.enquiryPeriod.endDate);
    expect((await api.get(`${INSIDER}/${id}`)).body.data.next_check).toBe(auction.enquiryPeriod.endDate);
    expect((await listed(INSIDER, id))?.next_check).toBe(auction.enquiryPeriod.endDate);
  });

  it('follows a landlease auction through its periods, and is absent while nothing is due', async () => {
    const { id, token, created } = await draftAuction(api);
    expect(created.body.data).not.toHaveProperty('next_check');
    const committed = (await api.patch(`${AUCTIONS}/${id}`, { status: 'active.rectification' }, { token })).body.data;
    expect(committed.next_check).toMatch(DATE);
    expect(committed.next_check).toBe(committed.rectificationPeriod.endDate);
    await clock.passTo(committed.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const tendering = (await api.get(`${AUCTIONS}/${id}`)).body.data;
    expect(tendering).toMatchObject({ status: 'active.tendering', next_check: committed.tenderPeriod.endDate });
    expect((await listed(AUCTIONS, id))?.next_check).toBe(committed.tenderPeriod.endDate);
  });

  it('shows the planned end of a dgfInsider auction in active.auction, plans it again once that passed, and moves on with the results', async () => {
    // insider auction-url.http: start 17:48:55.444253, next_check 01:04:45.444253 the next day (upstream
    // calc_auction_end_time: 7 h 15 min 50 s later).
    const END = (7 * 3600 + 15 * 60 + 50) * 1000;
    const { id, auction } = await tenderingInsider(api);
    const bid = await insiderBid(api, id);
    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    // The room bot plans the room first (the work index gives the auction to the room until it has); the room,
    // due to start long after this test's clock, runs no stage here.
    await service.bot('room');
    const scheduled = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(scheduled.status).toBe('active.auction');
    expect(scheduled.next_check).toMatch(DATE);
    expect(Date.parse(scheduled.next_check) - Date.parse(scheduled.auctionPeriod.startDate)).toBe(END);
    expect((await listed(INSIDER, id))?.next_check).toBe(scheduled.next_check);

    // No results by then (its room stopped: the local room's timers follow the clock, and would run it through now):
    // the auction starts again after that end, as upstream's shouldStartAfter moved on.
    const stop = await fetch(`${service.url}/_local/room/timers/${id}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(stop.status).toBe(204);
    await clock.passTo(scheduled.next_check);
    await service.bot('chronograph');
    const replanned = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(replanned.status).toBe('active.auction');
    expect(Date.parse(replanned.auctionPeriod.startDate)).toBe(Date.parse(scheduled.next_check));
    expect(Date.parse(replanned.next_check) - Date.parse(scheduled.next_check)).toBe(END);

    const results = await api.post(
      `${INSIDER}/${id}/auction`,
      { bids: [{ id: bid.id, value: { amount: 200000 } }] },
      {
        as: 'auction',
      },
    );
    expect(results.status).toBe(200);
    const qualifying = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(qualifying.status).toBe('active.qualification');
    expect(qualifying.next_check).not.toBe(replanned.next_check);
  });
});
