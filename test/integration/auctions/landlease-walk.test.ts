import { afterAll, describe, expect, it } from 'vitest';
import { aBid, aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, draftAuction } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterAll(() => clock.reset());

describe('landlease auction', () => {
  it('walks from draft to the auction through HTTP alone, accelerated, with the chronograph on demand', async () => {
    // Draft: the 2.5 server fields.
    const { id, token, created } = await draftAuction(api);
    const url = `${AUCTIONS}/${id}`;
    const draft = created.body.data;
    expect(draft).toMatchObject({
      status: 'draft',
      minNumberOfQualifiedBids: 2,
      value: { valueAddedTaxIncluded: true },
      minimalStep: { valueAddedTaxIncluded: true },
      budgetSpent: { valueAddedTaxIncluded: true },
    });
    expect(draft.auctionPeriod).toEqual({ startDate: expect.stringMatching(/T00:00:00\+0[23]:00$/) });

    // Phase commit: the periods appear.
    const committed = await api.patch(url, { status: 'active.rectification' }, { token });
    expect(committed.status).toBe(200);
    const periods = committed.body.data;
    expect(periods.status).toBe('active.rectification');
    for (const p of ['rectificationPeriod', 'tenderPeriod', 'enquiryPeriod'])
      expect(periods[p]).toHaveProperty('endDate');
    expect(periods.next_check).toBe(periods.rectificationPeriod.endDate);

    // Rectification: an editable field changes (documents and questions: the contract suite).
    expect((await api.patch(url, { title: 'Оренда ділянки (уточнено)' }, { token })).body.data.title).toBe(
      '[ТЕСТУВАННЯ] Оренда ділянки (уточнено)',
    );

    // Tendering.
    await clock.passTo(periods.rectificationPeriod.endDate);
    expect(await service.bot('chronograph')).toMatchObject({ changed: 1 });
    expect((await api.get(url)).body.data.status).toBe('active.tendering');

    // Two bidders register and activate: one in a single PATCH, the other in several.
    const bids = `${url}/bids`;
    const first = await api.post(bids, aBid(), { as: 'broker2' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ status: 'draft' });
    expect(first.body.data).not.toHaveProperty('qualified');
    const firstToken = first.body.access.token;
    const firstUrl = `${bids}/${first.body.data.id}`;
    const pending = await api.patch(firstUrl, { status: 'pending' }, { as: 'broker2', token: firstToken });
    expect(pending.body.data).toMatchObject({ status: 'pending', qualified: false });
    const eligibility = await api.post(`${firstUrl}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), {
      as: 'broker2',
      token: firstToken,
    });
    expect(eligibility.body.data).toMatchObject({ documentOf: 'bid' });
    const firstActive = await api.patch(
      firstUrl,
      { status: 'active', qualified: true, bidNumber: 1 },
      { as: 'broker2', token: firstToken },
    );
    expect(firstActive.body.data).toMatchObject({ status: 'active', qualified: true, bidNumber: 1 });

    const second = await api.post(bids, aBid(), { as: 'broker' });
    const secondToken = second.body.access.token;
    const secondUrl = `${bids}/${second.body.data.id}`;
    await api.patch(secondUrl, { status: 'pending' }, { token: secondToken });
    await api.post(`${secondUrl}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), {
      token: secondToken,
    });
    await api.patch(secondUrl, { qualified: true }, { token: secondToken });
    await api.patch(secondUrl, { bidNumber: 2 }, { token: secondToken });
    expect((await api.patch(secondUrl, { status: 'active' }, { token: secondToken })).body.data.status).toBe('active');

    // A third bid stays a draft and is dropped when tendering ends.
    const third = await api.post(bids, aBid(), { as: 'broker2' });
    expect(third.status).toBe(201);

    // Enquiry: draft bids are gone.
    await clock.passTo(periods.tenderPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(url)).body.data.status).toBe('active.enquiry');
    expect(
      (await api.get(`${bids}/${third.body.data.id}`, { as: 'broker2', token: third.body.access.token })).status,
    ).toBe(404);

    // Auction: scheduled with the two active bids (results, award and contract: the contract suite).
    await clock.passTo(periods.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(url)).body.data).toMatchObject({ status: 'active.auction', numberOfBids: 2 });
  });
});
