import { afterAll, describe, expect, it } from 'vitest';
import { anInsiderAuction } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, INSIDER, insiderBid, kyivDayIn, SANDBOX, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterAll(() => clock.reset());

describe('dgfInsider auction', () => {
  it('walks from creation in active.tendering to the award chain through HTTP alone, accelerated', async () => {
    // Creation: straight into tendering, the 2.3 fields and periods, the legal-details document, the 2.3 media type.
    const { id, token, auction, created } = await tenderingInsider(api);
    const url = `${INSIDER}/${id}`;
    expect(created.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(auction).toMatchObject({
      status: 'active.tendering',
      procurementMethodType: 'dgfInsider',
      minimalStep: { amount: 0, currency: 'UAH' },
      dgfID: 'N-0000000000',
      dgfDecisionID: '0101/17',
      dgfDecisionDate: '2017-01-01',
      eligibilityCriteria: expect.stringContaining('Учасником електронного аукціону'),
      eligibilityCriteria_en: expect.stringContaining('The borrower'),
      eligibilityCriteria_ru: expect.stringContaining('Участником электронного аукциона'),
    });
    expect(auction.next_check).toBe(auction.enquiryPeriod.endDate);
    expect(auction.enquiryPeriod.startDate).toBe(auction.date);
    expect(auction.tenderPeriod.startDate).toBe(auction.date);
    expect(auction.rectificationPeriod.startDate).toBe(auction.date);
    expect(Date.parse(auction.rectificationPeriod.endDate)).toBeLessThan(Date.parse(auction.enquiryPeriod.endDate));
    expect(Date.parse(auction.enquiryPeriod.endDate)).toBeLessThan(Date.parse(auction.auctionPeriod.shouldStartAfter));
    expect(auction.documents).toEqual([
      expect.objectContaining({
        documentType: 'x_dgfPlatformLegalDetails',
        documentOf: 'tender',
        url: 'http://torgi.fg.gov.ua/prozorrosale',
      }),
    ]);
    const read = await api.get(url);
    expect(read.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(read.body.data).toEqual(auction);

    // Rectification: an editable field changes; a server period sent by the client is ignored.
    const edited = await api.patch(
      url,
      { title: 'Права вимоги (уточнено)', tenderPeriod: { endDate: clock.now() } },
      { token },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data.title).toBe('[ТЕСТУВАННЯ] Права вимоги (уточнено)');
    expect(edited.body.data.tenderPeriod).toEqual(auction.tenderPeriod);

    // Bids: two active bidders; registering does not touch the auction's dateModified.
    const before = (await api.get(url)).body.data.dateModified;
    const first = await insiderBid(api, id, 'broker2');
    expect(first.bid).toMatchObject({ status: 'active', qualified: true, eligible: true });
    const second = await insiderBid(api, id, 'broker', { status: 'draft' });
    expect(second.bid.status).toBe('draft');
    const activated = await api.patch(`${url}/bids/${second.id}`, { status: 'active' }, { token: second.token });
    expect(activated.body.data.status).toBe('active');
    expect((await api.get(url)).body.data.dateModified).toBe(before);

    // After rectification, edits are ignored silently.
    await clock.passTo(auction.rectificationPeriod.endDate);
    const ignored = await api.patch(url, { title: 'Пізно', dgfID: 'N-9' }, { token });
    expect(ignored.status).toBe(200);
    expect(ignored.body.data).toMatchObject({
      title: '[ТЕСТУВАННЯ] Права вимоги (уточнено)',
      dgfID: 'N-0000000000',
      dateModified: before,
    });

    // The enquiry period ends: the chronograph schedules the auction.
    await clock.passTo(auction.enquiryPeriod.endDate);
    expect(await service.bot('chronograph')).toMatchObject({ changed: 1 });
    expect((await api.get(url)).body.data).toMatchObject({ status: 'active.auction', numberOfBids: 2 });

    // The auction system reports results: a chain of awards, the best pending, the other waiting.
    const results = await api.post(
      `${url}/auction`,
      {
        bids: [
          { id: first.id, value: { amount: 150000 } },
          { id: second.id, value: { amount: 120000 } },
        ],
      },
      { as: 'auction' },
    );
    expect(results.status).toBe(200);
    const qualifying = (await api.get(url)).body.data;
    expect(qualifying.status).toBe('active.qualification');
    expect(qualifying.awards).toMatchObject([
      {
        status: 'pending',
        bid_id: first.id,
        value: { amount: 150000 },
        verificationPeriod: { startDate: expect.any(String) },
      },
      { status: 'pending.waiting', bid_id: second.id, value: { amount: 120000 } },
    ]);
    expect(qualifying.awards[1]).not.toHaveProperty('verificationPeriod');
    // Protocol, award activation, contract signing: the contract suite.
  });

  it('keeps the periods of a draft when committed to active.tendering (two-phase commit)', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { ...SANDBOX, status: 'draft' }));
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('draft');
    expect(res.body.data).not.toHaveProperty('next_check');
    const url = `${INSIDER}/${res.body.data.id}`;
    const token = res.body.access.token;
    const committed = await api.patch(url, { status: 'active.tendering' }, { token });
    expect(committed.status).toBe(200);
    expect(committed.body.data).toMatchObject({
      status: 'active.tendering',
      next_check: committed.body.data.enquiryPeriod.endDate,
    });
    expect(committed.body.data.enquiryPeriod).toEqual(res.body.data.enquiryPeriod);
  });

  it('ignores another status sent on create and starts in active.tendering', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { ...SANDBOX, status: 'complete' }));
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('active.tendering');
  });
});
