import { describe, expect, it } from 'vitest';
import { aDecision, anItem, assetIn, createAsset } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);
const HEX = /^[0-9a-f]{32}$/;

// Upstream bounce views/asset_item.py and asset_decisions.py: the owner adds items and decisions one by one.
describe.each([
  ['items', anItem({ quantity: 7 }), (data: Record<string, unknown>) => ({ ...anItem({ quantity: 7 }), ...data })],
  [
    'decisions',
    aDecision({ decisionID: '2222-7' }),
    (data: Record<string, unknown>) => ({ ...aDecision({ decisionID: '2222-7' }), decisionOf: 'asset', ...data }),
  ],
] as const)('POST /api/2.4/assets/{id}/%s', (collection, body, expected) => {
  it.each(['draft', 'pending'])('adds one to an asset in %s: a server id, the asset shows it', async (status) => {
    const asset = status === 'draft' ? await createAsset(api, 'bounce') : await assetIn(api, 'bounce', 'pending');
    const res = await api.post(`${asset.url}/${collection}`, { ...body, id: 'mine' }, { token: asset.token });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual(expected({ id: expect.stringMatching(HEX) }));
    expect(res.headers.get('location')).toMatch(new RegExp(`${asset.url}/${collection}/${res.body.data.id}$`));
    const read = (await api.get(asset.url)).body.data;
    expect(read[collection]).toEqual([...asset.asset[collection], res.body.data]);
    expect(read.dateModified).not.toBe(asset.asset.dateModified);
  });

  it('refuses a stranger, another status, an unknown field and a missing one, writing nothing', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const url = `${asset.url}/${collection}`;
    expect((await api.post(url, body)).body.errors).toEqual([
      { location: 'url', name: 'role', description: 'Forbidden' },
    ]);
    const rogue = await api.post(url, { ...body, colour: 'red' }, { token: asset.token });
    expect(rogue.status).toBe(422);
    expect(rogue.body.errors).toEqual([{ location: 'body', name: 'colour', description: ['Rogue field'] }]);
    const missing = await api.post(
      url,
      { ...body, [collection === 'items' ? 'quantity' : 'decisionID']: undefined },
      {
        token: asset.token,
      },
    );
    expect(missing.status).toBe(422);
    expect((await api.get(asset.url)).body.data[collection]).toEqual(asset.asset[collection]);

    const active = await assetIn(api, 'bounce', 'active');
    const closed = await api.post(`${active.url}/${collection}`, body, { token: active.token });
    expect(closed.status).toBe(403);
    expect(closed.body.errors[0].description).toBe(
      collection === 'items'
        ? "Can't update or create item in current (active) asset status"
        : "Can't update decisions in current (active) asset status",
    );
  });
});
