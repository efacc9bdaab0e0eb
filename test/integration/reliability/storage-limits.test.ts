import { describe, expect, it } from 'vitest';
import { aBid, aLot, anOrganization } from '../../support/builders.ts';
import { aBounceAsset, anItem } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, rectifyingAuction } from '../../support/auctions.ts';
import { itemCount, partition } from './fuzz-support.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);

/** Fuzz cases that were 500s, reduced: content DynamoDB cannot store is a 422 that stores nothing. */
describe('content past what DynamoDB stores', () => {
  it('refuses a constructor key (the marshaller took it for a class instance) as a rogue field, storing nothing', async () => {
    const before = await itemCount();
    const raw = JSON.stringify({ data: aLot({ lotCustodian: { ...anOrganization(), constructor: [1, 2] } }) });
    const res = await api.call('POST', '/api/0.1/lots', undefined, { as: 'broker', raw });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'lotCustodian', description: { constructor: ['Rogue field'] } },
    ]);
    expect(await itemCount()).toBe(before);
  });

  it('refuses an object over the item size limit with 422, storing nothing', async () => {
    // The day's assetID counter is taken before the write (a refused write leaves a gap in the numbers): make it exist.
    expect((await api.post('/api/2.4/assets', aBounceAsset())).status).toBe(201);
    const before = await itemCount();
    // A body over the item size is refused before it is parsed (413); two bodies under it can still make one item over it.
    const big = 'x'.repeat(450_000);
    const tooBig = await api.post(
      '/api/2.4/assets',
      aBounceAsset({ items: [anItem({ address: { countryName: 'Україна', locality: big } })] }),
    );
    expect(tooBig.status).toBe(413);
    expect(await itemCount()).toBe(before);
    // Every string is bounded (20,000 characters of text): nine items of the longest descriptions, in Cyrillic (two
    // bytes each), make a body under the limit, and the longest asset descriptions then take the object over the 400 KB
    // it may take as JSON (its answer), before DynamoDB's item limit.
    const text = 'ж'.repeat(20_000);
    const created = await api.post(
      '/api/2.4/assets',
      aBounceAsset({ items: Array.from({ length: 9 }, () => anItem({ description: text })) }),
    );
    expect(created.status).toBe(201);
    const stored = await itemCount();
    const res = await api.patch(
      `/api/2.4/assets/${created.body.data.id}`,
      { description: text, description_en: text, description_ru: text },
      { token: created.body.access.token },
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      status: 'error',
      errors: [{ location: 'body', name: 'data', description: 'The object is too large: at most 400 KB as JSON' }],
    });
    expect(await itemCount()).toBe(stored);
  });

  it('refuses nesting deeper than DynamoDB keeps with 422, storing nothing', async () => {
    let deep: unknown = 'deep';
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const before = await itemCount();
    const res = await api.post(
      '/api/2.4/assets',
      aBounceAsset({ items: [anItem({ address: { countryName: 'Україна', deep } })] }),
    );
    expect(res.status).toBe(422);
    expect(await itemCount()).toBe(before);
  });

  it('refuses an empty field name with 422, storing nothing', async () => {
    const auction = await rectifyingAuction(api);
    await clock.passTo(auction.auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const pk = `AUCTION#${auction.id}`;
    const before = await partition(pk);
    const tenderer = anOrganization({ name: 'ТОВ Учасник' });
    const res = await api.post(
      `${AUCTIONS}/${auction.id}/bids`,
      aBid({ tenderers: [{ ...tenderer, address: { ...(tenderer.address as object), owner: { '': 1 } } }] }),
      { as: 'broker2' },
    );
    await clock.reset();
    // Unknown nested fields are refused by the schema now, before DynamoDB sees the empty name.
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toMatch(/Rogue field|An empty string cannot be a field name/);
    expect(await partition(pk)).toBe(before);
  });
});
