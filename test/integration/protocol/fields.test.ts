import { afterEach, describe, expect, it } from 'vitest';
import { aBounceAsset, ASSET_TYPES } from '../../support/assets.ts';
import { anInsiderBid, anOrganization, aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, INSIDER, insiderBid, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';
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
