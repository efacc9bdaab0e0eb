import { afterAll, describe, expect, it } from 'vitest';
import { aBid, aDocument, aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, draftAuction } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterAll(() => clock.reset());

describe('landlease auction', () => {
  it('walks from draft to complete through HTTP alone, accelerated, with the chronograph on demand', async () => {
    // Draft: server fields, tokens, Location as a path.
    const { id, token, created } = await draftAuction(api);
    const url = `${AUCTIONS}/${id}`;
    expect(created.headers.get('location')).toBe(url);
    expect(created.body.access).toEqual({ token: expect.stringMatching(/^[0-9a-f]{32}$/), transfer: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const draft = created.body.data;
    expect(draft).toMatchObject({
      status: 'draft',
      procurementMethod: 'open',
      submissionMethod: 'electronicAuction',
      awardCriteria: 'highestCost',
      minNumberOfQualifiedBids: 2,
      auctionParameters: { type: 'texas' },
      value: { valueAddedTaxIncluded: true },
      minimalStep: { valueAddedTaxIncluded: true },
      budgetSpent: { valueAddedTaxIncluded: true },
      owner: 'broker',
    });
    expect(draft.auctionID).toMatch(/^UA-EA-\d{4}-\d{2}-\d{2}-\d{6}$/);
    expect(draft.auctionPeriod).toEqual({ startDate: expect.stringMatching(/T00:00:00\+0[23]:00$/) });
    expect(draft.items[0].id).toMatch(/^[0-9a-f]{32}$/);

    // Phase commit: the periods appear.
    const committed = await api.patch(url, { status: 'active.rectification' }, { token });
    expect(committed.status).toBe(200);
    const periods = committed.body.data;
    expect(periods.status).toBe('active.rectification');
    for (const p of ['rectificationPeriod', 'tenderPeriod', 'enquiryPeriod']) expect(periods[p]).toHaveProperty('endDate');
    expect(periods.next_check).toBe(periods.rectificationPeriod.endDate);

    // Rectification: an editable field changes, documents and questions are accepted.
    expect((await api.patch(url, { title: 'Оренда ділянки (уточнено)' }, { token })).body.data.title).toBe('[ТЕСТУВАННЯ] Оренда ділянки (уточнено)');
    const notice = await api.post(`${url}/documents`, aDocument(), { token });
    expect(notice.body.data).toMatchObject({ documentOf: 'auction', author: 'auction_owner' });
    const question = await api.post(`${url}/questions`, aQuestion(), { as: 'broker2' });
    expect(question.status).toBe(201);
    const answer = await api.patch(`${url}/questions/${question.body.data.id}`, { answer: 'Обтяжень немає' }, { token });
    expect(answer.body.data).toMatchObject({ answer: 'Обтяжень немає', questionOf: 'tender' });

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
    const eligibility = await api.post(`${firstUrl}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), { as: 'broker2', token: firstToken });
    expect(eligibility.body.data).toMatchObject({ documentOf: 'bid' });
    const firstActive = await api.patch(firstUrl, { status: 'active', qualified: true, bidNumber: 1 }, { as: 'broker2', token: firstToken });
    expect(firstActive.body.data).toMatchObject({ status: 'active', qualified: true, bidNumber: 1 });

    const second = await api.post(bids, aBid(), { as: 'broker' });
    const secondToken = second.body.access.token;
    const secondUrl = `${bids}/${second.body.data.id}`;
    await api.patch(secondUrl, { status: 'pending' }, { token: secondToken });
    await api.post(`${secondUrl}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), { token: secondToken });
    await api.patch(secondUrl, { qualified: true }, { token: secondToken });
    await api.patch(secondUrl, { bidNumber: 2 }, { token: secondToken });
    expect((await api.patch(secondUrl, { status: 'active' }, { token: secondToken })).body.data.status).toBe('active');

    // A third bid stays a draft and is dropped when tendering ends.
    const third = await api.post(bids, aBid(), { as: 'broker2' });
    expect(third.status).toBe(201);

    // Bids are hidden from others while the auction runs.
    const during = await api.get(url);
    expect(during.body.data).not.toHaveProperty('bids');
    expect(during.requests).toBe(1);
    expect((await api.get(firstUrl, { as: 'broker' })).status).toBe(403);
    expect((await api.get(firstUrl, { as: 'broker2', token: firstToken })).body.data.id).toBe(first.body.data.id);

    // Enquiry: draft bids are gone.
    await clock.passTo(periods.tenderPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(url)).body.data.status).toBe('active.enquiry');
    expect((await api.get(`${bids}/${third.body.data.id}`, { as: 'broker2', token: third.body.access.token })).status).toBe(404);

    // Auction: scheduled with its URL; each bidder sees its own participation link.
    await clock.passTo(periods.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const running = (await api.get(url)).body.data;
    expect(running).toMatchObject({ status: 'active.auction', numberOfBids: 2, auctionUrl: expect.stringContaining(id) });
    expect(running).not.toHaveProperty('next_check');
    const mine = (await api.get(firstUrl, { as: 'broker2', token: firstToken })).body.data;
    expect(mine.participationUrl).toBe(`${running.auctionUrl}/login?bidder_id=${first.body.data.id}&signature=${mine.participationUrl.split('signature=')[1]}`);
    expect(mine.participationUrl).toMatch(/&signature=[0-9a-f]{64}$/);

    // The auction system reads the procedure and reports the results.
    const module = await api.get(`${url}/auction`, { as: 'auction' });
    expect(module.body.data.bids.map((b: { id: string }) => b.id).sort()).toEqual([first.body.data.id, second.body.data.id].sort());
    const results = await api.post(
      `${url}/auction`,
      { bids: [{ id: first.body.data.id, value: { amount: 100000 } }, { id: second.body.data.id, value: { amount: 125000 } }] },
      { as: 'auction' },
    );
    expect(results.status).toBe(200);

    // Qualification: the best bid's award; protocol, activation, contract.
    const qualifying = (await api.get(url)).body.data;
    expect(qualifying.status).toBe('active.qualification');
    expect(qualifying.awardPeriod).toHaveProperty('startDate');
    const [award] = qualifying.awards;
    expect(award).toMatchObject({ status: 'pending', bid_id: second.body.data.id, value: { amount: 125000 } });
    const awardUrl = `${url}/awards/${award.id}`;
    const protocol = await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token });
    expect(protocol.body.data).toMatchObject({ author: 'auction_owner' });
    expect((await api.patch(awardUrl, { status: 'active' }, { token })).body.data.status).toBe('active');
    const contracts = (await api.get(`${url}/contracts`)).body.data;
    expect(contracts).toHaveLength(1);
    expect(contracts[0]).toMatchObject({ status: 'pending', awardID: award.id, contractID: `${draft.auctionID}-1` });

    // Contract: dateSigned, then active: the auction is complete.
    const contractUrl = `${url}/contracts/${contracts[0].id}`;
    expect((await api.patch(contractUrl, { dateSigned: clock.now() }, { token })).status).toBe(200);
    expect((await api.patch(contractUrl, { status: 'active' }, { token })).body.data.status).toBe('active');
    const done = (await api.get(url)).body.data;
    expect(done.status).toBe('complete');
    expect(done.awardPeriod).toHaveProperty('endDate');
    expect(done.bids).toHaveLength(2);
    expect(done.bids.every((b: Record<string, unknown>) => !('participationUrl' in b))).toBe(true);
  });
});
