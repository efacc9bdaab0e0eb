import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, INSIDER, insiderBid, qualifyingInsider, qualifyingLandlease, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

/**
 * What each document route writes in `documentOf`, as the originals did: on 2.3 every auction-side document is a
 * `tender` one (the dgf Document model), on 2.5 the auction's, awards' and contracts' say `auction`, bids' `bid`.
 */
describe('documentOf', () => {
  it('is tender for every 2.3 document: auction, bid, award and contract', async () => {
    const t = await tenderingInsider(api);
    expect((await api.post(`${INSIDER}/${t.id}/documents`, aDocument(), { token: t.token })).body.data.documentOf).toBe('tender');
    const draft = await insiderBid(api, t.id, 'broker2', { status: 'draft' });
    const bidDoc = await api.post(`${INSIDER}/${t.id}/bids/${draft.id}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), { as: 'broker2', token: draft.token });
    expect(bidDoc.body.data).toMatchObject({ documentOf: 'tender', author: 'bid_owner' });

    const q = await qualifyingInsider(api, service, clock, ['broker2']);
    const awardUrl = `${q.url}/awards/${q.auction.awards[0].id}`;
    expect((await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token: q.token })).body.data.documentOf).toBe('tender');
    await api.patch(awardUrl, { status: 'active' }, { token: q.token });
    const [contract] = (await api.get(`${q.url}/contracts`)).body.data;
    expect((await api.post(`${q.url}/contracts/${contract.id}/documents`, aDocument(), { token: q.token })).body.data.documentOf).toBe('tender');
  });

  it('is auction for 2.5 auction, award and contract documents, bid for bid documents', async () => {
    const q = await qualifyingLandlease(api, service, clock);
    const shown = q.auction;
    expect(shown.documents ?? []).toEqual([]);
    const awardUrl = `${q.url}/awards/${shown.awards[0].id}`;
    expect((await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token: q.token })).body.data.documentOf).toBe('auction');
    await api.patch(awardUrl, { status: 'active' }, { token: q.token });
    const [contract] = (await api.get(`${q.url}/contracts`)).body.data;
    expect((await api.post(`${q.url}/contracts/${contract.id}/documents`, aDocument(), { token: q.token })).body.data.documentOf).toBe('auction');
    const bids = (await api.get(q.url)).body.data.bids;
    expect(bids.flatMap((b: { documents?: { documentOf: string }[] }) => b.documents ?? []).map((d: { documentOf: string }) => d.documentOf)).toEqual(['bid', 'bid']);
  });
});
