import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, draftAuction, INSIDER, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

/** Kyiv time with microseconds, as every other date the service shows. */
const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+0[23]:00$/;

async function listed(base: string, id: string) {
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
});
