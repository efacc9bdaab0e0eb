import { describe, expect, it } from 'vitest';
import { assetIn } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { lotIn, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

describe('deleting a lot', () => {
  it('lets the owner delete a pending lot outright, which is then final', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const lot = await lotIn(api, 'pending', { assets: [asset.id] });
    const res = await patchAs(api, lot, 'owner', { status: 'deleted' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'deleted', owner: 'broker' });
    expect(res.body.data.date).toBe(res.body.data.dateModified);
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.status).toBe('deleted');
    // Nothing for the concierge to do: the assets of a pending lot are free already.
    expect(await service.bot('concierge')).toMatchObject({ due: 0, changed: 0 });
    expect((await api.get(asset.url)).body.data).toEqual(asset.asset);
    const after = await patchAs(api, lot, 'owner', { status: 'pending' });
    expect(after.status).toBe(403);
    expect(after.body.errors).toEqual([
      { location: 'body', name: 'data', description: "Can't update lot in current (deleted) status" },
    ]);
  });

  it.each(['draft', 'verification', 'active.salable'])('refuses the owner deleting a lot in %s', async (status) => {
    const lot = await lotIn(api, status);
    const res = await patchAs(api, lot, 'owner', { status: 'deleted' });
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'data', description: `Can't update lot in current (${status}) status` },
    ]);
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.status).toBe(status);
  });

  it('refuses anyone but the owner (and an admin) deleting a pending lot', async () => {
    const lot = await lotIn(api, 'pending');
    expect((await patchAs(api, lot, 'stranger', { status: 'deleted' })).body.errors).toEqual([
      { location: 'url', name: 'role', description: 'Forbidden' },
    ]);
    for (const bot of ['concierge', 'convoy'])
      expect((await patchAs(api, lot, bot, { status: 'deleted' })).status).toBe(403);
    expect((await patchAs(api, lot, 'admin', { status: 'deleted' })).body.data.status).toBe('deleted');
  });

  it('keeps the concierge path: pending.deleted, then deleted by the concierge', async () => {
    const lot = await lotIn(api, 'pending');
    expect((await patchAs(api, lot, 'owner', { status: 'pending.deleted' })).body.data.status).toBe('pending.deleted');
    await service.bot('concierge');
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.status).toBe('deleted');
  });
});
