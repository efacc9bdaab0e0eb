import { describe, expect, it } from 'vitest';
import { assetIn, createAsset, type AssetTypeName, type CreatedAsset } from '../../support/assets.ts';
import { hex32 } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { createLot, lotIn, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

const read = async (path: string) => (await api.get(path)).body.data;
const readAsset = (a: CreatedAsset) => read(a.url);
const readLot = (id: string) => read(`/api/0.1/lots/${id}`);

async function pendingAssets(...types: AssetTypeName[]) {
  return Promise.all(types.map((t) => assetIn(api, t, 'pending')));
}

/** A lot over these asset ids, moved by its owner to `status` (pending or verification). */
async function lotOver(ids: string[], status: 'pending' | 'verification' = 'verification') {
  return lotIn(api, status, { assets: ids });
}

describe('concierge bot', () => {
  it('does nothing, in one Query, when no lot is due', async () => {
    await lotIn(api, 'pending');
    const report = await service.bot('concierge');
    expect(report).toEqual({ bot: 'concierge', due: 0, changed: 0, requests: 1 });
  });

  it('makes a lot under verification salable and its assets active, attached to it', async () => {
    const [bounce, basic] = await pendingAssets('bounce', 'basic');
    const lot = await lotOver([bounce.id, basic.id]);
    const report = await service.bot('concierge');
    // One Query of the work index; per lot and step (claim, then activate): the lot, its assets, one transaction.
    expect(report).toEqual({ bot: 'concierge', due: 1, changed: 1, requests: 7 });
    const settled = await readLot(lot.id);
    expect(settled).toMatchObject({ status: 'active.salable', owner: 'broker' });
    expect(Date.parse(settled.dateModified)).toBeGreaterThan(Date.parse(lot.lot.dateModified));
    for (const a of [bounce, basic]) {
      const asset = await readAsset(a);
      expect(asset).toMatchObject({ status: 'active', relatedLot: lot.id, owner: 'broker' });
      expect(asset.dateModified).not.toBe(a.asset.dateModified);
    }
    expect(await service.bot('concierge')).toMatchObject({ due: 0, changed: 0 });
  });

  it.each([
    ['an asset that does not exist', async () => hex32()],
    ['an asset still in draft', async () => (await createAsset(api, 'basic')).id],
    ['an asset attached to another lot', async () => (await assetIn(api, 'basic', 'active')).id],
    ['a deleted asset', async () => (await assetIn(api, 'basic', 'deleted')).id],
  ])('sends the lot back to pending over %s, leaving the free assets as they were', async (_, unavailable) => {
    const [free] = await pendingAssets('bounce');
    const other = await unavailable();
    const before = (await api.get(`/api/0.1/assets/${other}`)).body;
    const lot = await lotOver([free.id, other]);
    await service.bot('concierge');
    expect((await readLot(lot.id)).status).toBe('pending');
    expect(await readAsset(free)).toEqual(free.asset);
    expect((await api.get(`/api/0.1/assets/${other}`)).body).toEqual(before);
  });

  it('lets exactly one of two lots claiming the same asset win; the other goes back to pending', async () => {
    const [shared, onlyB] = await pendingAssets('basic', 'basic');
    const a = await lotOver([shared.id]);
    const b = await lotOver([onlyB.id, shared.id]);
    // Two bot runs at once: their transactions race for the shared asset.
    await Promise.all([service.bot('concierge'), service.bot('concierge')]);
    await service.bot('concierge');
    const statuses = [(await readLot(a.id)).status, (await readLot(b.id)).status].sort();
    expect(statuses).toEqual(['active.salable', 'pending']);
    const winner = (await readLot(a.id)).status === 'active.salable' ? a : b;
    expect(await readAsset(shared)).toMatchObject({ status: 'active', relatedLot: winner.id });
    // The loser's own asset was never left claimed: its claim failed as a whole, or was released.
    const loserAsset = await readAsset(onlyB);
    expect(loserAsset.status).toBe(winner === b ? 'active' : 'pending');
    if (winner === a) expect(loserAsset.relatedLot).toBeUndefined();
  });

  it('converges when two runs settle the same lots at once', async () => {
    const assets = await pendingAssets('basic', 'basic', 'bounce');
    const lots = await Promise.all(assets.map((a) => lotOver([a.id])));
    await Promise.all([service.bot('concierge'), service.bot('concierge')]);
    await service.bot('concierge');
    for (const [i, lot] of lots.entries()) {
      expect((await readLot(lot.id)).status).toBe('active.salable');
      expect(await readAsset(assets[i])).toMatchObject({ status: 'active', relatedLot: lot.id });
    }
  });

  it.each([
    ['recomposed', 'pending'],
    ['pending.dissolution', 'dissolved'],
  ])('settles a %s lot as %s and frees its assets', async (status, settledAs) => {
    const assets = await pendingAssets('bounce', 'basic');
    const lot = await lotOver(assets.map((a) => a.id));
    await service.bot('concierge');
    expect((await patchAs(api, lot, 'owner', { status })).body.data.status).toBe(status);
    await service.bot('concierge');
    expect((await readLot(lot.id)).status).toBe(settledAs);
    for (const a of assets) {
      const asset = await readAsset(a);
      expect(asset.status).toBe('pending');
      expect(asset.relatedLot).toBeUndefined();
    }
  });

  it('deletes a pending.deleted lot and leaves its free assets pending', async () => {
    const [asset] = await pendingAssets('basic');
    const lot = await lotOver([asset.id], 'pending');
    await patchAs(api, lot, 'owner', { status: 'pending.deleted' });
    await service.bot('concierge');
    expect((await readLot(lot.id)).status).toBe('deleted');
    expect((await readAsset(asset)).status).toBe('pending');
  });

  it('makes a pending.sold lot sold and its assets complete', async () => {
    const assets = await pendingAssets('bounce', 'basic');
    const lot = await lotOver(assets.map((a) => a.id));
    await service.bot('concierge');
    for (const status of ['active.awaiting', 'active.auction', 'pending.sold']) {
      expect((await patchAs(api, lot, 'convoy', { status })).status).toBe(200);
    }
    await service.bot('concierge');
    expect((await readLot(lot.id)).status).toBe('sold');
    for (const a of assets) expect(await readAsset(a)).toMatchObject({ status: 'complete', relatedLot: lot.id });
  });

  it('settles a lot of 100 assets, past the 100-item transaction limit', async () => {
    const assets: CreatedAsset[] = [];
    for (let i = 0; i < 100; i += 20)
      assets.push(...(await Promise.all(Array.from({ length: 20 }, () => assetIn(api, 'basic', 'pending')))));
    const lot = await lotOver(assets.map((a) => a.id));
    await service.bot('concierge');
    expect((await readLot(lot.id)).status).toBe('active.salable');
    const listed = await Promise.all(assets.map(readAsset));
    expect(listed.every((a) => a.status === 'active' && a.relatedLot === lot.id)).toBe(true);
  });

  it('leaves a lot that is not due alone', async () => {
    const lot = await createLot(api);
    await service.bot('concierge');
    expect(await readLot(lot.id)).toEqual(lot.lot);
  });
});
