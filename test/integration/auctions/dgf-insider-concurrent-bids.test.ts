import { afterEach, describe, expect, it } from 'vitest';
import { aDocument, anInsiderBid, anOrganization } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { partition } from '../reliability/fuzz-support.ts';

/** The bids stored under the auction, by id. */
async function storedBids(auctionId: string): Promise<Map<string, { status: string; tenderers?: { name: string }[] }>> {
  const items = JSON.parse(await partition(`AUCTION#${auctionId}`)) as { SK: string; data: any }[];
  return new Map(items.filter((i) => /^BID#[^#]+$/.test(i.SK)).map((i) => [i.data.id, i.data]));
}

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

  it('takes 32 bids and 8 bid changes sent at once without refusing any, in 2 DynamoDB requests a bid', async () => {
    const a = await tenderingInsider(api);
    const url = `${INSIDER}/${a.id}`;
    const earlier = await Promise.all(Array.from({ length: 8 }, () => insiderBid(api, a.id)));
    const creates = Array.from({ length: 32 }, (_, i) =>
      api.post(`${url}/bids`, anInsiderBid(), { as: i % 2 ? 'broker' : 'broker2' }),
    );
    const patches = earlier.map((b, i) =>
      // A dgfInsider bidder edits its tenderers (its value comes from the auction's results only, as upstream).
      api.patch(
        `${url}/bids/${b.id}`,
        { tenderers: [anOrganization({ name: `ТОВ ${i}` })] },
        { as: 'broker2', token: b.token },
      ),
    );
    const [made, changed] = await Promise.all([Promise.all(creates), Promise.all(patches)]);
    expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    expect(changed.map((r) => r.status)).toEqual(changed.map(() => 200));
    // One read of the auction (its root alone) and one write, whatever the auction holds.
    expect(made.map((r) => r.requests)).toEqual(made.map(() => 2));
    const stored = await storedBids(a.id);
    expect(stored.size).toBe(40);
    for (const r of made) expect(stored.get(r.body.data.id)?.status).toBe('active');
    for (const [i, b] of earlier.entries()) expect(stored.get(b.id)?.tenderers?.[0]?.name).toBe(`ТОВ ${i}`);
  });

  it('takes 32 bid documents sent at once to 32 bids without refusing any, in 2 DynamoDB requests each', async () => {
    const a = await tenderingInsider(api);
    const url = `${INSIDER}/${a.id}`;
    const bids = await Promise.all(Array.from({ length: 32 }, () => insiderBid(api, a.id)));
    const added = await Promise.all(
      bids.map((b) =>
        api.post(`${url}/bids/${b.id}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), {
          as: 'broker2',
          token: b.token,
        }),
      ),
    );
    expect(added.map((r) => r.status)).toEqual(added.map(() => 201));
    // One read of the auction and one write each: no upload waited for another's.
    expect(added.map((r) => r.requests)).toEqual(added.map(() => 2));
    const items = JSON.parse(await partition(`AUCTION#${a.id}`)) as { SK: string }[];
    for (const [i, b] of bids.entries())
      expect(items.filter((item) => item.SK.startsWith(`BID#${b.id}#DOC#${added[i].body.data.id}`))).toHaveLength(1);
  });

  it('never keeps a document of a bid withdrawn while it was being added', async () => {
    const a = await tenderingInsider(api);
    const url = `${INSIDER}/${a.id}`;
    const bids = await Promise.all(Array.from({ length: 10 }, () => insiderBid(api, a.id)));
    const owner = (b: { token: string }) => ({ as: 'broker2', token: b.token });
    const answers = await Promise.all(
      bids.flatMap((b) => [
        ...Array.from({ length: 3 }, () =>
          api.post(`${url}/bids/${b.id}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), owner(b)),
        ),
        api.del(`${url}/bids/${b.id}`, owner(b)),
      ]),
    );
    for (const r of answers) expect([200, 201, 403, 404]).toContain(r.status);
    const items = JSON.parse(await partition(`AUCTION#${a.id}`)) as { SK: string }[];
    expect(items.filter((i) => i.SK.startsWith('BID#'))).toEqual([]);
  });

  it('never lets a bid in after the enquiry end: every bid answered 201 is counted, the rest are refused', async () => {
    const a = await tenderingInsider(api);
    const url = `${INSIDER}/${a.id}`;
    await insiderBid(api, a.id);
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    // Bids keep coming while the chronograph ends the enquiry (the tender period itself is still open).
    const racing = Array.from({ length: 24 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 5));
      return api.post(`${url}/bids`, anInsiderBid(), { as: 'broker2' });
    });
    const [answers] = await Promise.all([Promise.all(racing), service.bot('chronograph')]);
    await service.bot('chronograph'); // an auction still tendering after the race moves now
    const accepted = answers.filter((r) => r.status === 201).map((r) => r.body.data.id as string);
    for (const r of answers.filter((r) => r.status !== 201)) expect(r.status).toBe(403);
    const auction = (await api.get(url)).body.data;
    expect(auction).toMatchObject({ status: 'active.auction', numberOfBids: accepted.length + 1 });
    const stored = await storedBids(a.id);
    expect(stored.size).toBe(accepted.length + 1);
    for (const id of accepted) expect(stored.get(id)?.status).toBe('active');
  });
});
