import { afterEach, describe, expect, it } from 'vitest';
import { aBounceAsset, ASSET_TYPES } from '../../support/assets.ts';
import { aBid, aDocument, aLandItem, aLot, anInsiderBid, anOrganization, aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import {
  AUCTIONS,
  clockOf,
  draftAuction,
  INSIDER,
  insiderBid,
  qualifyingInsider,
  rectifyingAuction,
  tenderingInsider,
} from '../../support/auctions.ts';
import { createLot, patchAs } from '../../support/lots.ts';

/** Issue 22: the fields of the original models accepted, each with its refusal (a rogue sibling: 422 at its path). */
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const rogue = (res: { status: number; body: any }, name: string) => {
  expect(res.status).toBe(422);
  return expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ name })]));
};
const contact = { name: 'Черговий', telephone: '+380440000000' };

describe('bounce assetCustodian and assetHolder (EA AssetCustodian, AssetHolder)', () => {
  it('take additionalContactPoints; the holder needs no address or contact point', async () => {
    const { address: _a, contactPoint: _c, ...holder } = anOrganization();
    const res = await api.post(
      ASSET_TYPES.bounce.path,
      aBounceAsset({
        assetCustodian: anOrganization({ additionalContactPoints: [contact], kind: 'general' }),
        assetHolder: { ...holder, additionalContactPoints: [contact] },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.assetCustodian.additionalContactPoints).toEqual([contact]);
    expect(res.body.data.assetHolder.additionalContactPoints).toEqual([contact]);
  });

  it('refuses an unknown field inside a contact point', async () => {
    const res = await api.post(
      ASSET_TYPES.bounce.path,
      aBounceAsset({ assetCustodian: anOrganization({ additionalContactPoints: [{ ...contact, colour: 'x' }] }) }),
    );
    rogue(res, 'assetCustodian');
    expect(res.body.errors[0].description).toEqual({ additionalContactPoints: [{ colour: ['Rogue field'] }] });
  });
});

describe('the top level of a PATCH', () => {
  it('drops a known field the role may not write, refuses an unknown one (lot)', async () => {
    const lot = await createLot(api);
    const known = await patchAs(api, lot, 'owner', { lotID: 'x', title: 'Нова назва' });
    expect(known.status).toBe(200);
    expect(known.body.data.lotID).not.toBe('x');
    const res = await patchAs(api, lot, 'owner', { titel: 'typo' });
    rogue(res, 'titel');
    expect(res.body.errors).toEqual([{ location: 'body', name: 'titel', description: ['Rogue field'] }]);
  });
});

describe('an unknown field inside a known one (the originals imported the whole model strictly first)', () => {
  it('is refused inside a field the role may not write, not dropped with it (lot owner)', async () => {
    const lot = await createLot(api);
    const res = await patchAs(api, lot, 'owner', { lotCustodian: { contactPoint: { rogue: 1 } } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'lotCustodian', description: { contactPoint: { rogue: ['Rogue field'] } } },
    ]);
    const known = await patchAs(api, lot, 'owner', { lotCustodian: { contactPoint: { name: 'Інший' } } });
    expect(known.status).toBe(200);
  });

  it('refuses `__proto__` and `constructor` members like any other unknown field, at any depth', async () => {
    const lot = await createLot(api);
    const url = `/api/0.1/lots/${lot.id}?acc_token=${lot.token}`;
    const proto = await api.patch(url, undefined, { raw: '{"data":{"title":"Нова","__proto__":{"status":"x"}}}' });
    expect(proto.status).toBe(422);
    expect(proto.body.errors).toEqual([{ location: 'body', name: '__proto__', description: ['Rogue field'] }]);
    const deep = await api.patch(url, undefined, {
      raw: '{"data":{"lotCustodian":{"contactPoint":{"constructor":"c"}}}}',
    });
    expect(deep.status).toBe(422);
    expect(deep.body.errors[0]).toMatchObject({ name: 'lotCustodian' });
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.title).toBe(lot.lot.title);
  });
});

describe('dgfInsider create (AC Auction create role)', () => {
  it('takes the rationale and criteria texts, hasEnquiries, an empty features list; drops numberOfBidders', async () => {
    const a = await tenderingInsider(api, {
      procurementMethodRationale: 'Причина',
      awardCriteriaDetails_en: 'Details',
      submissionMethodDetails_en: 'quick',
      hasEnquiries: true,
      features: [],
      numberOfBidders: 3,
    });
    expect(a.auction).toMatchObject({ procurementMethodRationale: 'Причина', hasEnquiries: true });
    expect(a.auction).not.toHaveProperty('numberOfBidders');
  });

  it('refuses an unknown sibling of them', async () => {
    await expect(tenderingInsider(api, { procurementMethodRationale: 'x', rationale: 'x' })).rejects.toThrow(
      /"name":"rationale","description":\["Rogue field"\]/,
    );
  });
});

describe('bids and questions', () => {
  it('a bid create drops known server fields and refuses unknown ones', async () => {
    const a = await tenderingInsider(api);
    const ok = await insiderBid(api, a.id, 'broker2', { participationUrl: 'https://x', date: '2020-01-01' });
    expect(ok.bid.participationUrl).not.toBe('https://x');
    const res = await api.post(`${INSIDER}/${a.id}/bids`, anInsiderBid({ colour: 'blue' }), { as: 'broker2' });
    rogue(res, 'colour');
  });

  it('a dgfInsider bid value is dropped on create and edit (insider Bid roles, register-2nd-bidder.http)', async () => {
    const a = await tenderingInsider(api);
    const { id, token, bid } = await insiderBid(api, a.id, 'broker2', { value: { amount: 501 } });
    expect(bid.value).toBeUndefined();
    const url = `${INSIDER}/${a.id}/bids/${id}`;
    const edited = await api.patch(url, { value: { amount: 700, currency: 'UAH' } }, { as: 'broker2', token });
    expect(edited.status).toBe(200);
    expect(edited.body.data.value).toBeUndefined();
    expect((await api.get(url, { as: 'broker2', token })).body.data.value).toBeUndefined();
    rogue(await api.post(`${INSIDER}/${a.id}/bids`, anInsiderBid({ value: { amount: 1 }, valu: 1 })), 'valu');
    rogue(await api.patch(url, { value: { amount: 1 }, valu: 1 }, { as: 'broker2', token }), 'valu');
  });

  it('a dgfInsider question may be about one of the items (relatedItem), never about a stranger', async () => {
    const a = await tenderingInsider(api);
    const itemId = a.auction.items[0].id;
    const ok = await api.post(`${INSIDER}/${a.id}/questions`, aQuestion({ questionOf: 'item', relatedItem: itemId }));
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ questionOf: 'item', relatedItem: itemId });
    const stranger = await api.post(
      `${INSIDER}/${a.id}/questions`,
      aQuestion({ questionOf: 'item', relatedItem: 'f'.repeat(32) }),
    );
    expect(stranger.status).toBe(422);
    rogue(await api.post(`${INSIDER}/${a.id}/questions`, aQuestion({ relatedItem: itemId, about: 'x' })), 'about');
  });
});

describe('landlease rectification (GEB auction_edit_rectification_role)', () => {
  it('edits the translations of the title and description, refuses an unknown field', async () => {
    const a = await rectifyingAuction(api);
    const url = `${AUCTIONS}/${a.id}`;
    const res = await api.patch(url, { title_en: 'Land lease', description_ru: 'Аренда' }, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.data.title_en).toContain('Land lease');
    expect(res.body.data.description_ru).toBe('Аренда');
    rogue(await api.patch(url, { title_en: 'x', title_de: 'y' }, { token: a.token }), 'title_de');
  });
});

describe('auction results (AC auction_post role)', () => {
  it('take each bid full value and date as GET /auction shows them; refuse an unknown field of a bid', async () => {
    const a = await tenderingInsider(api);
    const bids = [await insiderBid(api, a.id, 'broker2'), await insiderBid(api, a.id, 'broker')];
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const url = `${INSIDER}/${a.id}/auction`;
    const value = (amount: number) => ({ amount, currency: 'UAH', valueAddedTaxIncluded: true });
    const sent = (extra = {}) => ({
      bids: bids.map((b, i) => ({ id: b.id, value: value(100000), date: `2030-01-01T10:0${i}:00+02:00`, ...extra })),
    });
    rogue(await api.post(url, sent({ colour: 'x' }), { as: 'auction' }), 'bids');
    const res = await api.post(url, sent(), { as: 'auction' });
    expect(res.status).toBe(200);
    // A tie goes to the earlier date: the first bid's.
    const awards = (await api.get(`${INSIDER}/${a.id}/awards`)).body.data;
    expect(awards.find((w: any) => w.status === 'pending').bid_id).toBe(bids[0]!.id);
  });
});

describe('award and contract edits (insider award-active-disqualify, tutorial auction-contract-period)', () => {
  it('the owner writes the award title and description, the contract period; unknown fields are refused', async () => {
    const a = await qualifyingInsider(api, service, clock);
    const award = a.auction.awards.find((w: { status: string }) => w.status === 'pending');
    const awardUrl = `${a.url}/awards/${award.id}`;
    rogue(await api.patch(awardUrl, { awardStatus: 'active' }, { token: a.token }), 'awardStatus');
    const titled = await api.patch(awardUrl, { title: 'Протокол', description_en: 'Protocol' }, { token: a.token });
    expect(titled.status).toBe(200);
    expect(titled.body.data).toMatchObject({ title: 'Протокол', description_en: 'Protocol', status: 'pending' });
    await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token: a.token });
    expect((await api.patch(awardUrl, { status: 'active' }, { token: a.token })).status).toBe(200);

    const contract = (await api.get(a.url)).body.data.contracts[0];
    const contractUrl = `${a.url}/contracts/${contract.id}`;
    const period = { startDate: '2030-01-01T00:00:00+02:00', endDate: '2031-01-01T00:00:00+02:00' };
    const res = await api.patch(contractUrl, { period }, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.data.period).toEqual(period);
    rogue(await api.patch(contractUrl, { period: { ...period, length: 'P1Y' } }, { token: a.token }), 'period');
    rogue(await api.patch(contractUrl, { signed: true }, { token: a.token }), 'signed');
  });
});

describe('landlease bids and questions (GEB roles)', () => {
  it('a pending bid edits its tenderers (its value stays the auction value); unknown fields are refused', async () => {
    const a = await rectifyingAuction(api);
    await clock.passTo(a.auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const bids = `${AUCTIONS}/${a.id}/bids`;
    const created = await api.post(bids, aBid(), { as: 'broker2' });
    expect(created.status).toBe(201);
    const bidUrl = `${bids}/${created.body.data.id}`;
    const auth = { as: 'broker2', token: created.body.access.token };
    // A draft bid takes only its status (bid_edit_draft_role): the tenderers are dropped.
    const renamed = anOrganization({ name: 'ТОВ Нова назва' });
    expect((await api.patch(bidUrl, { tenderers: [renamed] }, auth)).body.data.tenderers[0].name).not.toBe(
      'ТОВ Нова назва',
    );
    await api.patch(bidUrl, { status: 'pending' }, auth);
    const edited = await api.patch(bidUrl, { tenderers: [renamed] }, auth);
    expect(edited.status).toBe(200);
    expect(edited.body.data.tenderers[0].name).toBe('ТОВ Нова назва');
    const wrongValue = await api.patch(bidUrl, { value: { amount: 1 } }, auth);
    expect(wrongValue.status).toBe(422);
    rogue(await api.patch(bidUrl, { bidNumbr: 3 }, auth), 'bidNumbr');
  });

  it('a landlease question may name a relatedItem, but is only about the auction', async () => {
    const a = await rectifyingAuction(api);
    const questions = `${AUCTIONS}/${a.id}/questions`;
    const ok = await api.post(questions, aQuestion({ relatedItem: a.auction.items[0].id }));
    expect(ok.status).toBe(201);
    const about = await api.post(questions, aQuestion({ questionOf: 'item', relatedItem: a.auction.items[0].id }));
    expect(about.status).toBe(422);
    expect(about.body.errors).toEqual([
      { location: 'body', name: 'questionOf', description: ["Value must be one of ['tender']."] },
    ]);
  });

  it('a cancellation PATCH refuses an unknown field', async () => {
    const a = await rectifyingAuction(api);
    const created = await api.post(`${AUCTIONS}/${a.id}/cancellations`, { reason: 'Рішення' }, { token: a.token });
    const url = `${AUCTIONS}/${a.id}/cancellations/${created.body.data.id}`;
    rogue(await api.patch(url, { reasn: 'typo' }, { token: a.token }), 'reasn');
    expect((await api.patch(url, { reason_en: 'Decision', date: 'x' }, { token: a.token })).status).toBe(200);
  });
});

describe('landlease create (GEB Item, EA BankAccount)', () => {
  const contractPeriod = { startDate: '2030-01-01T00:00:00+02:00', endDate: '2035-01-01T00:00:00+02:00' };
  const item = aLandItem({
    classification: { ...aLandItem().classification, uri: 'https://cav.example/06121000-6' },
    unit: { code: 'HAR', name: 'гектар', name_en: 'hectare', value: { amount: 10, currency: 'UAH' } },
    contractPeriod,
    relatedLot: 'a'.repeat(32),
  });
  const bankAccount = {
    bankName: 'АТ КБ ПриватБанк',
    accountIdentification: [{ scheme: 'UA-IBAN', id: 'UA213223130000026007233566001', description_en: 'IBAN' }],
  };

  it('takes item uris, unit translations and value, contractPeriod, account translations; drops relatedLot', async () => {
    const { id } = await draftAuction(api, { items: [item], bankAccount, submissionMethodDetails: 'quick' });
    const auction = (await api.get(`${AUCTIONS}/${id}`)).body.data;
    expect(auction.items[0]).toMatchObject({ unit: { name_en: 'hectare' }, contractPeriod });
    expect(auction.items[0]).not.toHaveProperty('relatedLot');
    expect(auction.bankAccount.accountIdentification[0].description_en).toBe('IBAN');
    expect(auction.submissionMethodDetails).toBe('quick');
  });

  it('refuses an unknown sibling inside an item', async () => {
    await expect(draftAuction(api, { items: [{ ...item, unit: { ...item.unit, price: 1 } }] })).rejects.toThrow(
      /"price":\["Rogue field"\]/,
    );
  });
});

describe('lots, basic assets and related processes', () => {
  it('a lot takes sandboxParameters, refuses an unknown sibling', async () => {
    const lot = await createLot(api, { sandboxParameters: 'quick' });
    expect(lot.lot.sandboxParameters).toBe('quick');
    expect((await api.post('/api/0.1/lots', aLot({ sandboxParams: 'quick' }))).status).toBe(422);
  });

  it('a basic asset unit carries a value (EA ocds.py Unit); an unknown field in it is refused', async () => {
    const unit = { code: 'E54', name: 'штука', value: { amount: 5, currency: 'UAH', valueAddedTaxIncluded: true } };
    const ok = await api.post(ASSET_TYPES.basic.path, ASSET_TYPES.basic.build({ unit }));
    expect(ok.status).toBe(201);
    expect(ok.body.data.unit).toEqual(unit);
    const res = await api.post(ASSET_TYPES.basic.path, ASSET_TYPES.basic.build({ unit: { ...unit, price: 1 } }));
    rogue(res, 'unit');
  });
});
