import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

describe('concurrent bids on one auction', () => {
  it('registers ten bids sent at once, and the enquiry end counts them all', async () => {
    const a = await tenderingInsider(api);
    const url = `${INSIDER}/${a.id}`;
    const bidders = Array.from({ length: 10 }, (_, i) => (i % 2 ? 'broker' : 'broker2'));
    const bids = await Promise.all(bidders.map((as) => insiderBid(api, a.id, as)));
    expect(new Set(bids.map((b) => b.id)).size).toBe(10);
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(url)).body.data).toMatchObject({ status: 'active.auction', numberOfBids: 10 });
    const module = (await api.get(`${url}/auction`, { as: 'auction' })).body.data;
    expect(module.bids.map((b: { id: string }) => b.id).sort()).toEqual(bids.map((b) => b.id).sort());
  });
});
