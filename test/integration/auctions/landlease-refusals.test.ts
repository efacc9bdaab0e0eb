import { afterEach, describe, expect, it } from 'vitest';
import { aBid, aDocument, aLandItem, aLandleaseAuction, aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { activeBid, AUCTIONS, clockOf, draftAuction, kyivDayIn, rectifyingAuction } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const forbidden = (description: string) => ({
  status: 'error',
  errors: [{ location: 'body', name: 'data', description }],
});
/** A 422 naming `items`: a null item is the client's mistake, never a server crash. */
const expectItems422 = (res: { status: number; body: { errors: { name: string }[] } }) => {
  expect(res.status).toBe(422);
  expect(res.body.errors.map((e) => e.name)).toContain('items');
};

/** A sandbox auction moved to `active.tendering`. */
async function tenderingAuction() {
  const a = await rectifyingAuction(api);
  await clock.passTo(a.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  return a;
}

describe('landlease auction creation', () => {
  it('refuses invalid 2.5 fields with one 422 entry per field', async () => {
    const res = await api.post(
      AUCTIONS,
      aLandleaseAuction(kyivDayIn(21), {
        items: [aLandItem({ additionalClassifications: [{ scheme: 'kvtspz', id: '01.01', description: 'x' }] })],
        contractTerms: { type: 'lease', leaseTerms: { leaseDuration: 'five years' } },
        lotHolder: { name: 'no identifier' },
        value: { amount: 'a lot', currency: 'UAH' },
      }),
    );
    expect(res.status).toBe(422);
    const names = res.body.errors.map((e: { name: string }) => e.name).sort();
    expect(names).toEqual(['contractTerms', 'items', 'lotHolder', 'value']);
    expect(JSON.stringify(res.body)).toContain(
      'At least must be two additional classifications (kvtspz, cadastralNumber)',
    );
  });

  it('refuses a minimal step not below the value', async () => {
    const res = await api.post(
      AUCTIONS,
      aLandleaseAuction(kyivDayIn(21), { minimalStep: { amount: 200000, currency: 'UAH' } }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'minimalStep', description: ['miniamalStep.amount should be less than value.amount'] },
    ]);
  });

  it('validates schema_properties of items', async () => {
    const res = await api.post(
      AUCTIONS,
      aLandleaseAuction(kyivDayIn(21), {
        items: [aLandItem({ schema_properties: { code: '06', version: 'latest', properties: { area: 0 } } })],
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      name: 'items',
      description: [{ schema_properties: expect.any(Array) }],
    });
  });

  it('refuses a status other than draft', async () => {
    expect((await api.post(AUCTIONS, aLandleaseAuction(kyivDayIn(21), { status: 'active.tendering' }))).status).toBe(
      403,
    );
  });
});

describe('landlease phase commit', () => {
  it('allows only active.rectification as the next status', async () => {
    const { id, token } = await draftAuction(api);
    const res = await api.patch(`${AUCTIONS}/${id}`, { status: 'active.tendering' }, { token });
    expect(res.body).toEqual(forbidden("Can't switch to (active.tendering) only to status 'active.rectification'"));
    // A status that is no string (found by the fuzzer: `${status}` of an object threw a 500) is a 422, not a crash.
    const odd = await api.patch(`${AUCTIONS}/${id}`, { status: { toString: {} } }, { token });
    expect(odd.status).toBe(422);
    expect(odd.body.errors[0]).toMatchObject({ location: 'body', name: 'status' });
    expect((await api.get(`${AUCTIONS}/${id}`)).body.data.status).toBe('draft');
  });

  it('refuses an auction day too close for the periods', async () => {
    const { id, token } = await draftAuction(api, { auctionPeriod: { startDate: kyivDayIn(3) } });
    const res = await api.patch(`${AUCTIONS}/${id}`, { status: 'active.rectification' }, { token });
    expect(res.body).toEqual(
      forbidden('auctionPeriod.startDate is incorrect, it does not allow to create periods correctly'),
    );
  });

  it('stores the auction day as Kyiv midnight and computes real periods outside the sandbox', async () => {
    const day = kyivDayIn(30);
    const { id, token } = await draftAuction(api, {
      mode: undefined,
      procurementMethodDetails: undefined,
      auctionPeriod: { startDate: day },
    });
    const a = (await api.patch(`${AUCTIONS}/${id}`, { status: 'active.rectification' }, { token })).body.data;
    expect(a.auctionPeriod.shouldStartAfter.startsWith(`${day}T00:00:00+0`)).toBe(true);
    expect(a.tenderPeriod.endDate).toMatch(/T20:00:00\+0[23]:00$/);
    expect(a.enquiryPeriod.endDate).toMatch(/T20:00:00\+0[23]:00$/);
    expect(Date.parse(a.rectificationPeriod.endDate) - Date.parse(a.rectificationPeriod.startDate)).toBe(
      2 * 86_400_000,
    );
  });
});

describe('landlease rectification', () => {
  it('changes listed fields, drops the others silently', async () => {
    const { id, token, auction } = await rectifyingAuction(api);
    const res = await api.patch(
      `${AUCTIONS}/${id}`,
      { lotIdentifier: 'LL-0002', auctionPeriod: { startDate: kyivDayIn(40) }, owner: 'someone' },
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      lotIdentifier: 'LL-0002',
      auctionPeriod: auction.auctionPeriod,
      owner: 'broker',
    });
  });

  it('refuses edits once the rectification period is over, even before the chronograph ran, and nothing changes', async () => {
    const { id, token, auction } = await rectifyingAuction(api);
    await clock.passTo(auction.rectificationPeriod.endDate);
    const res = await api.patch(`${AUCTIONS}/${id}`, { title: 'Пізно' }, { token });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].description).toMatch(/^Auction can be edited only during the rectification period/);
    await service.bot('chronograph');
    const after = await api.patch(`${AUCTIONS}/${id}`, { title: 'Пізно' }, { token });
    expect(after.body).toEqual(forbidden("Can't patch auction in current (active.tendering) auction status"));
    expect((await api.get(`${AUCTIONS}/${id}`)).body.data.title).toBe(auction.title);
  });
});

describe('landlease questions', () => {
  it('are refused in draft', async () => {
    const { id } = await draftAuction(api);
    const res = await api.post(`${AUCTIONS}/${id}/questions`, aQuestion());
    expect(res.body).toEqual(
      forbidden("Can add question only in ['active.rectification', 'active.tendering', 'active.enquiry']"),
    );
  });
});

describe('landlease bids', () => {
  it('are refused before tendering', async () => {
    const { id } = await rectifyingAuction(api);
    const res = await api.post(`${AUCTIONS}/${id}/bids`, aBid());
    expect(res.body).toEqual(forbidden("Can't add bid in current (active.rectification) auction status"));
  });

  it('are refused after the tender period, even before the chronograph ran', async () => {
    const { id, auction } = await tenderingAuction();
    await clock.passTo(auction.tenderPeriod.endDate);
    const res = await api.post(`${AUCTIONS}/${id}/bids`, aBid());
    expect(res.status).toBe(403);
    expect(res.body.errors[0].description).toMatch(/^Bid can be added only during the tendering period/);
  });

  it('refuse a value other than the auction value', async () => {
    const { id } = await tenderingAuction();
    const res = await api.post(`${AUCTIONS}/${id}/bids`, aBid({ value: { amount: 1, currency: 'UAH' } }));
    expect(res.status).toBe(422);
  });

  it('go from draft only to pending', async () => {
    const { id } = await tenderingAuction();
    const bid = await api.post(`${AUCTIONS}/${id}/bids`, aBid());
    const res = await api.patch(
      `${AUCTIONS}/${id}/bids/${bid.body.data.id}`,
      { status: 'active' },
      { token: bid.body.access.token },
    );
    expect(res.body).toEqual(forbidden("Can't update bid, in draft status are only valid change status to pending"));
  });

  it('are not activated without an eligibility document, qualified: true and a bidNumber', async () => {
    const { id } = await tenderingAuction();
    const bid = await api.post(`${AUCTIONS}/${id}/bids`, aBid());
    const url = `${AUCTIONS}/${id}/bids/${bid.body.data.id}`;
    const token = bid.body.access.token;
    await api.patch(url, { status: 'pending' }, { token });
    expect((await api.patch(url, { status: 'active', qualified: true, bidNumber: 1 }, { token })).body).toEqual(
      forbidden('Can`t activate bid, need document of documentType: eligibilityDocuments'),
    );
    await api.post(`${url}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), { token });
    expect((await api.patch(url, { status: 'active', bidNumber: 1 }, { token })).body).toEqual(
      forbidden('Can`t activate bid, qualified must be True'),
    );
    expect((await api.patch(url, { status: 'active', qualified: true }, { token })).body).toEqual(
      forbidden('Can`t activate bid, you must add the bidNumber'),
    );
    expect((await api.get(url, { token })).body.data.status).toBe('pending');
  });

  it('refuse a bidNumber another bid has', async () => {
    const { id } = await tenderingAuction();
    await activeBid(api, id, 7);
    const bid = await api.post(`${AUCTIONS}/${id}/bids`, aBid());
    const url = `${AUCTIONS}/${id}/bids/${bid.body.data.id}`;
    await api.patch(url, { status: 'pending' }, { token: bid.body.access.token });
    const res = await api.patch(url, { bidNumber: 7 }, { token: bid.body.access.token });
    expect(res.body).toEqual({
      status: 'error',
      errors: [{ location: 'body', name: 'bidNumber', description: ['bidNumber must be unique'] }],
    });
  });

  it('make the auction unsuccessful when fewer than two are registered when tendering ends', async () => {
    const { id, auction } = await tenderingAuction();
    await activeBid(api, id, 1);
    await clock.passTo(auction.tenderPeriod.endDate);
    await service.bot('chronograph');
    const after = (await api.get(`${AUCTIONS}/${id}`)).body.data;
    expect(after.status).toBe('unsuccessful');
    expect(after).not.toHaveProperty('next_check');
  });
});

describe('landlease draft edits', () => {
  it('answers malformed fields with 422, never 500, and keeps the draft as it was', async () => {
    const { id, token, created } = await draftAuction(api);
    const url = `${AUCTIONS}/${id}`;
    expect((await api.patch(url, { items: { not: 'a list' } }, { token })).status).toBe(422);
    expect((await api.patch(url, { auctionPeriod: { startDate: 'soon' } }, { token })).status).toBe(422);
    expect((await api.patch(url, { value: { amount: -1 } }, { token })).status).toBe(422);
    expect((await api.get(url)).body.data).toEqual(created.body.data);
  });
});

describe('landlease cancellation', () => {
  it('removes every bid when the auction is cancelled during tendering', async () => {
    const a = await tenderingAuction();
    const url = `${AUCTIONS}/${a.id}`;
    const bid = await activeBid(api, a.id, 1, 'broker2');
    const created = await api.post(`${url}/cancellations`, { reason: 'Рішення органу' }, { token: a.token });
    expect(created.status).toBe(201);
    expect(
      (await api.patch(`${url}/cancellations/${created.body.data.id}`, { status: 'active' }, { token: a.token }))
        .status,
    ).toBe(200);
    const cancelled = (await api.get(url)).body.data;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled).not.toHaveProperty('bids');
    expect((await api.get(`${url}/bids/${bid.id}`, { as: 'broker2', token: bid.token })).status).toBe(404);
    expect(
      (await api.patch(`${url}/cancellations/${created.body.data.id}`, { status: 'pending' }, { token: a.token })).body,
    ).toEqual(forbidden("Can't update cancellation in current (cancelled) auction status"));
  });

  it('is refused for a draft', async () => {
    const { id, token } = await draftAuction(api);
    expect((await api.post(`${AUCTIONS}/${id}/cancellations`, { reason: 'Чернетка' }, { token })).body).toEqual(
      forbidden("Can't add cancellation in current (draft) auction status"),
    );
  });
});

describe('landlease items sent malformed', () => {
  it('answers 422 on items for a null item in a draft and during rectification, never a crash', async () => {
    const draft = await draftAuction(api);
    expectItems422(await api.patch(`${AUCTIONS}/${draft.id}`, { items: [null] }, { token: draft.token }));
    const { id, token } = await rectifyingAuction(api);
    expectItems422(await api.patch(`${AUCTIONS}/${id}`, { items: [null] }, { token }));
    expectItems422(await api.patch(`${AUCTIONS}/${id}`, { items: ['x', 3] }, { token }));
  });
});
