import { describe, expect, it } from 'vitest';
import { ASSET_TYPES, assetIn, createAsset, patchAs, TYPE_NAMES } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { walkFeed } from '../../support/listing.ts';
import { useService } from '../../support/service.ts';
import { useChangeStream } from '../../support/webhooks.ts';

const service = useService({ changeStream: true });
const journal = useChangeStream();
const api = client(() => service.url);

const walk = async (path: string) => {
  await journal.drained();
  return walkFeed(api, path);
};

describe('asset listing and reading', () => {
  it('lists each type at its own path by dateModified, without drafts, the head and one Query a page', async () => {
    const drafts = await Promise.all(TYPE_NAMES.map((type) => createAsset(api, type)));
    const bounce = [await assetIn(api, 'bounce', 'pending'), await assetIn(api, 'bounce', 'active')];
    const basic = [await assetIn(api, 'basic', 'pending')];
    await patchAs(api, bounce[0], 'owner', { description: 'змінено' });
    const bounceFeed = await walk('/api/2.4/assets?limit=1');
    expect(bounceFeed.seen.map((r) => r.id)).toEqual([bounce[1].id, bounce[0].id]);
    expect(bounceFeed.last.next_page.uri).toBe(`${service.url}${bounceFeed.last.next_page.path}`);
    const basicFeed = await walk('/api/0.1/assets');
    expect(basicFeed.seen.map((r) => r.id)).toEqual(basic.map((a) => a.id));
    for (const draft of drafts)
      expect([...bounceFeed.seen, ...basicFeed.seen].map((r) => r.id)).not.toContain(draft.id);
  });

  it("lists each type's changes at its own path with feed=changes, in order", async () => {
    const bounce = await assetIn(api, 'bounce', 'pending');
    const basic = await assetIn(api, 'basic', 'pending');
    await patchAs(api, bounce, 'owner', { description: 'змінено' });
    await journal.drained();
    const changes = await walk('/api/2.4/assets?feed=changes&limit=1');
    const mine = changes.seen.filter((r) => r.id === bounce.id);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.map((r) => r.revision)).toEqual(mine.map((r) => r.revision).sort((x, y) => x - y));
    const final = (await api.get(bounce.url)).body.data;
    expect(mine.at(-1)).toMatchObject({ id: bounce.id, dateModified: final.dateModified, assetID: final.assetID });
    expect(changes.seen.map((r) => r.id)).not.toContain(basic.id);
    const basicChanges = await walk('/api/0.1/assets?feed=changes');
    expect(basicChanges.seen.map((r) => r.id)).toContain(basic.id);
    expect(basicChanges.seen.map((r) => r.id)).not.toContain(bounce.id);
  });

  it('serves the listing fields of opt_fields', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    await journal.drained();
    const res = await api.get('/api/2.4/assets?opt_fields=status,assetID');
    expect(res.body.data.find((r: any) => r.id === asset.id)).toEqual({
      id: asset.id,
      dateModified: asset.asset.dateModified,
      status: 'pending',
      assetID: asset.asset.assetID,
    });
  });

  it.each(TYPE_NAMES)("reads a %s asset in one Query, and not at the other type's path (404)", async (type) => {
    const asset = await createAsset(api, type);
    const read = await api.get(asset.url);
    expect(read.requests).toBe(1);
    const other = TYPE_NAMES.find((t) => t !== type)!;
    const elsewhere = await api.get(`${ASSET_TYPES[other].path}/${asset.id}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.errors).toEqual([{ location: 'url', name: 'asset_id', description: 'Not Found' }]);
    const patched = await api.patch(`${ASSET_TYPES[other].path}/${asset.id}`, { title: 'x' }, { token: asset.token });
    expect(patched.status).toBe(404);
    expect((await api.get(`${ASSET_TYPES[type].path}/${'0'.repeat(32)}`)).status).toBe(404);
  });

  it('reads assets with any valid key or none (public data), a draft its owner only, and refuses an unknown key (401)', async () => {
    const asset = await createAsset(api, 'basic');
    // A draft is its owner's until published: others meet the 404 of an unknown id.
    expect((await api.get(asset.url)).status).toBe(200);
    expect((await api.get(asset.url, { as: 'concierge' })).status).toBe(404);
    expect((await api.call('GET', asset.url)).status).toBe(404);
    expect((await api.call('GET', '/api/2.4/assets')).status).toBe(200);
    expect((await api.get('/api/2.4/assets', { as: 'nobody' })).status).toBe(401);
  });

  it('pretty-prints with opt_pretty and says nosniff', async () => {
    const asset = await createAsset(api, 'bounce');
    const res = await fetch(`${service.url}${asset.url}?opt_pretty=1`, {
      headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
    });
    expect(await res.text()).toContain('\n  "data": {');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
