import { describe, expect, it } from 'vitest';
import { aBounceAsset, addDocument, anItem, assetIn, createAsset, LAND } from '../../support/assets.ts';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

const headerToken = (token: string) => ({ token, tokenIn: 'header' as const });

describe('bounce asset items', () => {
  it('lets the owner PATCH one item with X-Access-Token, returning the item', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const [item, other] = asset.asset.items;
    const res = await api.patch(
      `${asset.url}/items/${item.id}`,
      { quantity: 42.5, id: 'ignored', registrationDetails: { status: 'registering' } },
      headerToken(asset.token),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...item, quantity: 42.5, registrationDetails: { status: 'registering' } });
    const read = (await api.get(asset.url)).body.data;
    expect(read.items).toEqual([res.body.data, other]);
    expect(read.dateModified).not.toBe(asset.asset.dateModified); // microseconds: never equal after a write
  });

  it('accepts the token as acc_token too, and edits items of a draft asset', async () => {
    const asset = await createAsset(api, 'bounce');
    const item = asset.asset.items[0];
    const res = await api.patch(`${asset.url}/items/${item.id}`, { description: 'Інший опис' }, { token: asset.token });
    expect(res.body.data.description).toBe('Інший опис');
  });

  it('does not write an item PATCH that changes nothing', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const item = asset.asset.items[0];
    const res = await api.patch(`${asset.url}/items/${item.id}`, { quantity: item.quantity }, headerToken(asset.token));
    expect(res.body.data).toEqual(item);
    expect((await api.get(asset.url)).body.data.dateModified).toBe(asset.asset.dateModified);
  });

  it('refuses callers other than the owner (403)', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const url = `${asset.url}/items/${asset.asset.items[0].id}`;
    const stranger = await api.patch(url, { quantity: 1 });
    expect(stranger.body.errors).toEqual([{ location: 'url', name: 'role', description: 'Forbidden' }]);
    const wrongToken = await api.patch(url, { quantity: 1 }, headerToken('0'.repeat(32)));
    expect(wrongToken.status).toBe(403);
    const concierge = await api.patch(url, { quantity: 1 }, { as: 'concierge' });
    expect(concierge.body.errors).toEqual([{ location: 'url', name: 'permission', description: 'Forbidden' }]);
  });

  it.each(['verification', 'active', 'deleted', 'complete'])(
    'refuses item edits of a bounce asset in %s (403)',
    async (status) => {
      const asset = await assetIn(api, 'bounce', status);
      const res = await api.patch(
        `${asset.url}/items/${asset.asset.items[0].id}`,
        { quantity: 1 },
        headerToken(asset.token),
      );
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([
        {
          location: 'body',
          name: 'data',
          description: `Can't update or create item in current (${status}) asset status`,
        },
      ]);
    },
  );

  it('answers an unknown item or asset with 404', async () => {
    const asset = await createAsset(api, 'bounce');
    const item = await api.patch(`${asset.url}/items/${'0'.repeat(32)}`, { quantity: 1 }, headerToken(asset.token));
    expect(item.status).toBe(404);
    expect(item.body.errors).toEqual([{ location: 'url', name: 'item_id', description: 'Not Found' }]);
    const unknown = await api.patch(
      `/api/2.4/assets/${'0'.repeat(32)}/items/x`,
      { quantity: 1 },
      headerToken(asset.token),
    );
    expect(unknown.body.errors).toEqual([{ location: 'url', name: 'asset_id', description: 'Not Found' }]);
  });

  it('validates the merged item (422 on the field)', async () => {
    const asset = await createAsset(api, 'bounce');
    const res = await api.patch(
      `${asset.url}/items/${asset.asset.items[0].id}`,
      { quantity: 'many', unit: null },
      headerToken(asset.token),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'unit', description: ['This field is required.'] },
      { location: 'body', name: 'quantity', description: ['Value must be of type number.'] },
    ]);
  });

  it('keeps item ids when the owner sends the items back in an asset PATCH, and gives new items new ids', async () => {
    const asset = await createAsset(api, 'bounce');
    const [first] = asset.asset.items;
    // A client id that is not one of the asset's items is replaced (flip one hex digit so it never collides).
    const unknown = (first.id[0] === 'f' ? '0' : 'f') + first.id.slice(1);
    const res = await api.patch(
      asset.url,
      { items: [{ ...first, quantity: 7 }, anItem({ id: unknown })] },
      { token: asset.token },
    );
    expect(res.body.data.items[0]).toEqual({ ...first, quantity: 7 });
    expect(res.body.data.items[1].id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.data.items[1].id).not.toBe(unknown);
  });
});

describe('bounce asset item schema_properties', () => {
  const land = (code: string, properties: unknown) => ({ schema_properties: { code, properties } });

  it('accepts land-parcel properties of families 06 and 061, normalising code and version', async () => {
    const { asset } = await createAsset(api, 'bounce', {
      items: [
        anItem({
          classification: { scheme: 'CAV-PS', id: '06000000-2', description: 'Земельні ділянки' },
          ...land('06000000', LAND),
        }),
        anItem({ ...land('06121000', { ...LAND, city: 'Бровари' }) }),
      ],
    });
    expect(asset.items[0].schema_properties).toEqual({ code: '06', version: '001', properties: LAND });
    expect(asset.items[1].schema_properties).toEqual({
      code: '061',
      version: '001',
      properties: { ...LAND, city: 'Бровари' },
    });
  });

  it('refuses invalid properties in an asset body, naming the property (422 items[i].schema_properties)', async () => {
    const res = await api.post('/api/2.4/assets', aBounceAsset({ items: [anItem(), anItem(land('06121000', LAND))] }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'items', description: [{}, { schema_properties: ["'city' is a required property"] }] },
    ]);
  });

  it.each([
    ['a missing property', { ...LAND, region: undefined }, "'region' is a required property"],
    [
      'an extra property',
      { ...LAND, city: 'Бровари', pool: true },
      "Additional properties are not allowed ('pool' was unexpected)",
    ],
    ['an area of 0', { ...LAND, area: 0 }, '0 is less than the minimum of 1'],
    ['an area of 1.5', { ...LAND, area: 1.5 }, "1.5 is not of type 'integer'"],
    [
      'a wrong form of ownership',
      { ...LAND, forms_of_land_ownership: ['оренда'] },
      "'оренда' is not one of ['державна', 'приватна', 'комунальна']",
    ],
    ['a wrong type', { ...LAND, co_owners: 'ні' }, "'ні' is not of type 'boolean'"],
  ])('refuses an item PATCH with %s (422 schema_properties)', async (_case, properties, message) => {
    const asset = await createAsset(api, 'bounce');
    const url = `${asset.url}/items/${asset.asset.items[0].id}`;
    const city = (p: Record<string, unknown>) => ('city' in p ? p : { ...p, city: 'Бровари' });
    const res = await api.patch(
      url,
      land('06121000', city(properties as Record<string, unknown>)),
      headerToken(asset.token),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ location: 'body', name: 'schema_properties', description: [message] }]);
    expect((await api.get(asset.url)).body.data.items[0]).toEqual(asset.asset.items[0]);
  });

  it('refuses a code that does not match the classification (422)', async () => {
    const asset = await createAsset(api, 'bounce');
    const res = await api.patch(
      `${asset.url}/items/${asset.asset.items[0].id}`,
      land('06000000', LAND),
      headerToken(asset.token),
    );
    expect(res.body.errors).toEqual([
      {
        location: 'body',
        name: 'schema_properties',
        description: ['classification id mismatch with schema_properties code'],
      },
    ]);
  });
});

describe('bounce asset documents', () => {
  it('lets the owner add a document to a pending asset with X-Access-Token; the server sets author, documentOf, dates', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const sent = aDocument({
      documentType: 'technicalSpecifications',
      author: 'me',
      documentOf: 'lot',
      datePublished: '2020-01-01',
    });
    const res = await api.post(`${asset.url}/documents`, sent, headerToken(asset.token));
    expect(res.status).toBe(201);
    const document = res.body.data;
    expect(res.headers.get('location')).toBe(`${service.url}${asset.url}/documents/${document.id}`);
    expect(document).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      title: sent.title,
      url: `${service.url}${asset.url}/documents/${document.id}?download=${new URL(sent.url).pathname.split('/').pop()}`,
      hash: sent.hash,
      format: sent.format,
      documentType: 'technicalSpecifications',
      author: 'asset_owner',
      documentOf: 'asset',
      datePublished: expect.any(String),
      dateModified: expect.any(String),
    });
    expect(document.datePublished).toBe(document.dateModified);
    const read = (await api.get(asset.url)).body.data;
    expect(read.documents.map((d: any) => d.documentType)).toEqual(['informationDetails', 'technicalSpecifications']);
    expect(read.dateModified).toBe(document.dateModified);
    expect((await api.get(`${asset.url}/documents`)).body.data).toEqual(read.documents);
    expect((await api.get(`${asset.url}/documents?all=1`)).body.data).toEqual(read.documents);
    expect((await api.get(`${asset.url}/documents/${document.id}`)).body.data).toEqual({
      ...document,
      previousVersions: [],
    });
  });

  it.each([
    ['a hash that is not md5:<32 hex>', { hash: 'sha1:abc' }, 'hash'],
    ['no title', { title: undefined }, 'title'],
    ['no url', { url: undefined }, 'url'],
    ['a format that is not a media type', { format: 'pdf' }, 'format'],
  ])('refuses a document with %s (422)', async (_case, overrides, field) => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const res = await addDocument(api, asset, overrides);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.name)).toEqual([field]);
  });

  it.each(['draft', 'verification', 'active', 'deleted', 'complete'])(
    'refuses documents while the asset is %s (403)',
    async (status) => {
      const asset = await assetIn(api, 'bounce', status);
      const res = await addDocument(api, asset);
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([
        { location: 'body', name: 'data', description: `Can't update document in current (${status}) asset status` },
      ]);
    },
  );

  it('refuses documents from anyone but the owner', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const stranger = await api.post(`${asset.url}/documents`, aDocument());
    expect(stranger.body.errors).toEqual([{ location: 'url', name: 'role', description: 'Forbidden' }]);
    const concierge = await api.post(`${asset.url}/documents`, aDocument(), { as: 'concierge' });
    expect(concierge.status).toBe(403);
  });

  it('answers an unknown document with 404', async () => {
    const asset = await createAsset(api, 'bounce');
    const res = await api.get(`${asset.url}/documents/${'0'.repeat(32)}`);
    expect(res.body.errors).toEqual([{ location: 'url', name: 'document_id', description: 'Not Found' }]);
  });
});
