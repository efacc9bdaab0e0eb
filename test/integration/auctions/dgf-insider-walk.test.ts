import { afterAll, describe, expect, it } from 'vitest';
import { aDocument, anInsiderAuction, aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, INSIDER, insiderBid, kyivDayIn, SANDBOX, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterAll(() => clock.reset());

describe('dgfInsider auction', () => {
  it('walks from creation in active.tendering to complete through HTTP alone, accelerated', async () => {
    // Creation: straight into tendering, server fields, the legal-details document, 2.3 media type and Location.
    const { id, token, auction, created } = await tenderingInsider(api);
    const url = `${INSIDER}/${id}`;
    expect(created.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(created.headers.get('location')).toBe(`${service.url}${url}`);
    expect(created.body.access).toEqual({ token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(auction).toMatchObject({
      status: 'active.tendering',
      procurementMethodType: 'dgfInsider',
      procurementMethod: 'open',
      submissionMethod: 'electronicAuction',
      awardCriteria: 'highestCost',
      minimalStep: { amount: 0, currency: 'UAH' },
      auctionParameters: { type: 'insider', dutchSteps: 80 },
      dgfID: 'N-0000000000',
      dgfDecisionID: '0101/17',
      dgfDecisionDate: '2017-01-01',
      eligibilityCriteria: expect.stringContaining('Учасником електронного аукціону'),
      eligibilityCriteria_en: expect.stringContaining('The borrower'),
      eligibilityCriteria_ru: expect.stringContaining('Участником электронного аукциона'),
      owner: 'broker',
    });
    expect(auction.auctionID).toMatch(/^UA-EA-\d{4}-\d{2}-\d{2}-\d{6}$/);
    expect(auction.next_check).toBe(auction.enquiryPeriod.endDate);
    expect(auction.enquiryPeriod.startDate).toBe(auction.date);
    expect(auction.tenderPeriod.startDate).toBe(auction.date);
    expect(auction.rectificationPeriod.startDate).toBe(auction.date);
    expect(Date.parse(auction.rectificationPeriod.endDate)).toBeLessThan(Date.parse(auction.enquiryPeriod.endDate));
    expect(Date.parse(auction.enquiryPeriod.endDate)).toBeLessThan(Date.parse(auction.auctionPeriod.shouldStartAfter));
    expect(auction.documents).toEqual([
      expect.objectContaining({ documentType: 'x_dgfPlatformLegalDetails', documentOf: 'tender', url: 'http://torgi.fg.gov.ua/prozorrosale' }),
    ]);
    const read = await api.get(url);
    expect(read.requests).toBe(1);
    expect(read.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(read.body.data).toEqual(auction);

    // Rectification: an editable field changes; a server period sent by the client is ignored.
    const edited = await api.patch(url, { title: 'Права вимоги (уточнено)', tenderPeriod: { endDate: clock.now() } }, { token });
    expect(edited.status).toBe(200);
    expect(edited.body.data.title).toBe('[ТЕСТУВАННЯ] Права вимоги (уточнено)');
    expect(edited.body.data.tenderPeriod).toEqual(auction.tenderPeriod);

    // Documents: a notice, a new version of it, illustrations.
    const notice = await api.post(`${url}/documents`, aDocument(), { token });
    expect(notice.status).toBe(201);
    expect(notice.body.data).toMatchObject({ documentOf: 'tender', author: 'auction_owner' });
    const v2 = await api.put(`${url}/documents/${notice.body.data.id}`, aDocument({ title: 'Notice-v2.pdf' }), { token });
    expect(v2.status).toBe(200);
    expect(v2.body.data).toMatchObject({ id: notice.body.data.id, title: 'Notice-v2.pdf', datePublished: notice.body.data.datePublished });

    // Questions during the enquiry period, answered by the owner.
    const question = await api.post(`${url}/questions`, aQuestion(), { as: 'broker2' });
    expect(question.status).toBe(201);
    const answer = await api.patch(`${url}/questions/${question.body.data.id}`, { answer: 'Так' }, { token });
    expect(answer.body.data).toMatchObject({ answer: 'Так', questionOf: 'tender' });

    // Bids: two active bidders; registering does not touch the auction's dateModified.
    const before = (await api.get(url)).body.data.dateModified;
    const first = await insiderBid(api, id, 'broker2');
    expect(first.bid).toMatchObject({ status: 'active', qualified: true, eligible: true });
    const second = await insiderBid(api, id, 'broker', { status: 'draft' });
    expect(second.bid.status).toBe('draft');
    const activated = await api.patch(`${url}/bids/${second.id}`, { status: 'active' }, { token: second.token });
    expect(activated.body.data.status).toBe('active');
    expect((await api.get(url)).body.data.dateModified).toBe(before);
    expect((await api.get(url)).body.data).not.toHaveProperty('bids');

    // After rectification, edits are ignored silently.
    await clock.passTo(auction.rectificationPeriod.endDate);
    const ignored = await api.patch(url, { title: 'Пізно', dgfID: 'N-9' }, { token });
    expect(ignored.status).toBe(200);
    expect(ignored.body.data).toMatchObject({ title: '[ТЕСТУВАННЯ] Права вимоги (уточнено)', dgfID: 'N-0000000000', dateModified: before });

    // The enquiry period ends: the chronograph schedules the auction.
    await clock.passTo(auction.enquiryPeriod.endDate);
    expect(await service.bot('chronograph')).toMatchObject({ changed: 1 });
    const running = (await api.get(url)).body.data;
    expect(running).toMatchObject({ status: 'active.auction', numberOfBids: 2, auctionUrl: expect.stringContaining(id) });
    expect(running).not.toHaveProperty('next_check');
    const mine = (await api.get(`${url}/bids/${first.id}`, { as: 'broker2', token: first.token })).body.data;
    expect(mine.participationUrl).toMatch(new RegExp(`^${running.auctionUrl}/login\\?bidder_id=${first.id}&signature=[0-9a-f]{64}$`));

    // The auction system reports results: a chain of awards, the best pending, the other waiting.
    const results = await api.post(
      `${url}/auction`,
      { bids: [{ id: first.id, value: { amount: 150000 } }, { id: second.id, value: { amount: 120000 } }] },
      { as: 'auction' },
    );
    expect(results.status).toBe(200);
    const qualifying = (await api.get(url)).body.data;
    expect(qualifying.status).toBe('active.qualification');
    expect(qualifying.awards).toMatchObject([
      { status: 'pending', bid_id: first.id, value: { amount: 150000 }, verificationPeriod: { startDate: expect.any(String) } },
      { status: 'pending.waiting', bid_id: second.id, value: { amount: 120000 } },
    ]);
    expect(qualifying.awards[1]).not.toHaveProperty('verificationPeriod');

    // Protocol, award activation (auction awarded), contract signing: complete.
    const awardUrl = `${url}/awards/${qualifying.awards[0].id}`;
    expect((await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token })).status).toBe(201);
    expect((await api.patch(awardUrl, { status: 'active' }, { token })).body.data.status).toBe('active');
    const awarded = (await api.get(url)).body.data;
    expect(awarded.status).toBe('active.awarded');
    expect(awarded.contracts).toMatchObject([{ status: 'pending', awardID: qualifying.awards[0].id, contractID: `${auction.auctionID}-1` }]);
    const contractUrl = `${url}/contracts/${awarded.contracts[0].id}`;
    expect((await api.patch(contractUrl, { dateSigned: clock.now() }, { token })).status).toBe(200);
    expect((await api.patch(contractUrl, { status: 'active' }, { token })).body.data.status).toBe('active');
    const done = (await api.get(url)).body.data;
    expect(done.status).toBe('complete');
    expect(done.bids).toHaveLength(2);
  });

  it('can be created as a draft and committed to active.tendering (two-phase commit)', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { ...SANDBOX, status: 'draft' }));
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('draft');
    expect(res.body.data).not.toHaveProperty('next_check');
    const listed = async () => (await api.get(`${INSIDER}?mode=test`)).body.data.map((r: { id: string }) => r.id);
    expect(await listed()).not.toContain(res.body.data.id);
    const url = `${INSIDER}/${res.body.data.id}`;
    const token = res.body.access.token;
    const committed = await api.patch(url, { status: 'active.tendering' }, { token });
    expect(committed.status).toBe(200);
    expect(committed.body.data).toMatchObject({ status: 'active.tendering', next_check: committed.body.data.enquiryPeriod.endDate });
    expect(committed.body.data.enquiryPeriod).toEqual(res.body.data.enquiryPeriod);
    expect(await listed()).toContain(res.body.data.id);
  });

  it('ignores another status sent on create and starts in active.tendering', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { ...SANDBOX, status: 'complete' }));
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('active.tendering');
  });
});
