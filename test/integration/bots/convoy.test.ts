import { afterAll, describe, expect, it } from 'vitest';
import { assetIn, type CreatedAsset } from '../../support/assets.ts';
import { aDocument, anInsiderAuction, aLandItem, aLandleaseAuction } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { lotIn, patchAs, type CreatedLot } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, INSIDER, insiderBid, kyivDayIn, SANDBOX } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterAll(() => clock.reset());

const read = async (path: string) => (await api.get(path)).body.data;
const readLot = (lot: CreatedLot) => read(`/api/0.1/lots/${lot.id}`);

/** Two pending assets, a lot over them, verified by the concierge: the lot is for sale. */
async function salableLot(): Promise<{ lot: CreatedLot; assets: CreatedAsset[] }> {
  const assets = [await assetIn(api, 'bounce', 'pending'), await assetIn(api, 'basic', 'pending')];
  const lot = await lotIn(api, 'verification', { assets: assets.map((a) => a.id) });
  await service.bot('concierge');
  expect((await readLot(lot)).status).toBe('active.salable');
  return { lot, assets };
}

/** An auction of `path` created from the lot: no items of its own, they come from the lot's assets. */
async function auctionFrom(lot: CreatedLot, path = INSIDER, days = 14) {
  const build = path === INSIDER ? anInsiderAuction : aLandleaseAuction;
  const { items: _, ...body } = build(kyivDayIn(days), { ...SANDBOX, merchandisingObject: lot.id });
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    id: res.body.data.id as string,
    token: res.body.access.token as string,
    url: `${path}/${res.body.data.id}`,
    auction: res.body.data,
  };
}

describe('convoy bot and the whole sale', () => {
  it('sells a lot: assets, lot, concierge, auction from the lot, convoy, bids, results, award, contract, convoy, concierge', async () => {
    const { lot, assets } = await salableLot();
    const { id, token, url, auction } = await auctionFrom(lot);
    expect(auction).toMatchObject({ status: 'pending.verification', merchandisingObject: lot.id });
    expect(auction).not.toHaveProperty('items');

    // The convoy checks the lot, claims it for this auction and releases the auction with the assets' items.
    expect(await service.bot('convoy')).toMatchObject({ due: 1, changed: 1 });
    const released = await read(url);
    expect(released.status, released.statusReason).toBe('active.tendering');
    expect(released.items.map((i: any) => i.description)).toEqual([
      ...assets[0].asset.items.map((i: any) => i.description),
      assets[1].asset.title,
    ]);
    expect(await readLot(lot)).toMatchObject({ status: 'active.auction', auctions: [id] });
    expect(await service.bot('convoy')).toMatchObject({ due: 0 });

    // Bids, the auction, results, the award and the contract.
    const first = await insiderBid(api, id, 'broker2');
    const second = await insiderBid(api, id, 'broker');
    await clock.passTo(released.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await read(url)).status).toBe('active.auction');
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
    expect(results.status, JSON.stringify(results.body)).toBe(200);
    const award = (await read(url)).awards[0];
    expect(
      (await api.post(`${url}/awards/${award.id}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token }))
        .status,
    ).toBe(201);
    expect((await api.patch(`${url}/awards/${award.id}`, { status: 'active' }, { token })).status).toBe(200);
    const contract = (await read(url)).contracts[0];
    await api.patch(`${url}/contracts/${contract.id}`, { dateSigned: clock.now() }, { token });
    expect((await api.patch(`${url}/contracts/${contract.id}`, { status: 'active' }, { token })).status).toBe(200);
    expect((await read(url)).status).toBe('complete');

    // The convoy reports the sale to the lot, once; the concierge closes it.
    expect(await service.bot('convoy')).toMatchObject({ due: 1, changed: 1 });
    expect((await readLot(lot)).status).toBe('pending.sold');
    expect(await service.bot('convoy')).toMatchObject({ due: 0 });
    await service.bot('concierge');
    expect((await readLot(lot)).status).toBe('sold');
    for (const a of assets) expect(await read(a.url)).toMatchObject({ status: 'complete', relatedLot: lot.id });
    await clock.reset();
  });

  it('puts the lot back on sale when its auction fails, and auctions it again', async () => {
    const { lot } = await salableLot();
    const failed = await auctionFrom(lot);
    await service.bot('convoy');
    const tendering = await read(failed.url);
    await clock.passTo(tendering.enquiryPeriod.endDate);
    await service.bot('chronograph'); // no bids: unsuccessful
    expect((await read(failed.url)).status).toBe('unsuccessful');
    await service.bot('convoy');
    expect(await readLot(lot)).toMatchObject({ status: 'active.salable', auctions: [failed.id] });
    await clock.reset();

    const again = await auctionFrom(lot);
    await service.bot('convoy');
    expect((await read(again.url)).status).toBe('active.tendering');
    expect(await readLot(lot)).toMatchObject({ status: 'active.auction', auctions: [failed.id, again.id] });
  });

  it('refuses an auction from a lot that is not for sale, saying why, and leaves the lot alone', async () => {
    const lot = await lotIn(api, 'pending');
    const { url } = await auctionFrom(lot);
    await service.bot('convoy');
    const refused = await read(url);
    expect(refused.status).toBe('invalid');
    expect(refused.statusReason).toBe(
      `Lot ${lot.lot.lotID} is pending: an auction can be created only from a lot in active.salable status.`,
    );
    expect(await readLot(lot)).toEqual(lot.lot);
  });

  it('refuses a second auction while the lot is already being auctioned', async () => {
    const { lot } = await salableLot();
    const first = await auctionFrom(lot);
    const second = await auctionFrom(lot);
    await service.bot('convoy');
    const statuses = [(await read(first.url)).status, (await read(second.url)).status].sort();
    expect(statuses).toEqual(['active.tendering', 'invalid']);
    expect((await readLot(lot)).auctions).toHaveLength(1);
  });

  it('refuses an auction whose type cannot take the lot items, and gives the lot back', async () => {
    const { lot } = await salableLot();
    // landlease items need kvtspz and cadastralNumber classifications, which these assets lack.
    const { url } = await auctionFrom(lot, AUCTIONS, 30);
    await service.bot('convoy');
    const refused = await read(url);
    expect(refused.status).toBe('invalid');
    expect(refused.statusReason).toMatch(/^The lot's assets do not make a valid auction: items:/);
    expect(await readLot(lot)).toMatchObject({ status: 'active.salable' });
  });

  it('releases a landlease auction from a lot of land parcels into active.rectification, its periods counted from now', async () => {
    const parcels = await Promise.all(
      [1, 2].map(() =>
        assetIn(api, 'bounce', 'pending', { items: [aLandItem({ registrationDetails: { status: 'unknown' } })] }),
      ),
    );
    const lot = await lotIn(api, 'verification', { assets: parcels.map((a) => a.id) });
    await service.bot('concierge');
    const { url, id } = await auctionFrom(lot, AUCTIONS, 30);
    await service.bot('convoy');
    const released = await read(url);
    expect(released.status, released.statusReason).toBe('active.rectification');
    expect(released.items).toHaveLength(2);
    expect(released.items[0].additionalClassifications.map((c: any) => c.scheme).sort()).toEqual([
      'cadastralNumber',
      'kvtspz',
    ]);
    expect(Date.parse(released.rectificationPeriod.startDate)).toBeGreaterThan(Date.parse(lot.lot.dateModified));
    expect(Date.parse(released.tenderPeriod.endDate)).toBeLessThan(Date.parse(released.enquiryPeriod.endDate));
    expect(await readLot(lot)).toMatchObject({ status: 'active.auction', auctions: [id] });
  });

  it('converges when two runs handle the same auctions at once', async () => {
    const { lot } = await salableLot();
    const { url, id } = await auctionFrom(lot);
    await Promise.all([service.bot('convoy'), service.bot('convoy')]);
    await service.bot('convoy');
    expect((await read(url)).status).toBe('active.tendering');
    expect(await readLot(lot)).toMatchObject({ status: 'active.auction', auctions: [id] });
  });

  it('refuses a malformed merchandisingObject with 422', async () => {
    const { items: _, ...body } = anInsiderAuction(kyivDayIn(14), { ...SANDBOX, merchandisingObject: 'lot-1' });
    const res = await api.post(INSIDER, body);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].name).toBe('merchandisingObject');
  });

  it('lets only the convoy touch a lot under auction', async () => {
    const { lot } = await salableLot();
    await auctionFrom(lot);
    await service.bot('convoy');
    expect((await patchAs(api, lot, 'owner', { status: 'recomposed' })).status).toBe(403);
  });
});
