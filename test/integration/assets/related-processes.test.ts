import { describe, expect, it } from 'vitest';
import { assetIn, createAsset, patchAs, type CreatedAsset } from '../../support/assets.ts';
import { hex32 } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

const HEX = /^[0-9a-f]{32}$/;
const processesOf = (a: CreatedAsset) => `${a.url}/related_processes`;
const link = (a: CreatedAsset, data: Record<string, unknown>, as = 'concierge') =>
  api.post(processesOf(a), data, { as });
const read = async (a: CreatedAsset) => (await api.get(a.url)).body.data;

describe('bounce asset related processes', () => {
  it('lets the concierge link an asset to a lot; the asset shows it in relatedProcesses', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const lotId = hex32();
    const res = await link(asset, {
      type: 'lot',
      relatedProcessID: lotId,
      identifier: 'UA-LR-DGF-2026-11-23-000001',
      id: 'ignored',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(HEX),
      type: 'lot',
      relatedProcessID: lotId,
      identifier: 'UA-LR-DGF-2026-11-23-000001',
    });
    expect(res.headers.get('location')).toMatch(
      new RegExp(`/api/2\\.4/assets/${asset.id}/related_processes/${res.body.data.id}$`),
    );
    const after = await read(asset);
    expect(after.relatedProcesses).toEqual([res.body.data]);
    expect(after.dateModified).not.toBe(asset.asset.dateModified);
    expect((await api.get(processesOf(asset))).body.data).toEqual([res.body.data]);
    expect((await api.get(`${processesOf(asset)}/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('takes `type` as lot when it is not sent, and lists nothing on an asset without links', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    expect((await api.get(processesOf(asset))).body).toEqual({ data: [] });
    const res = await link(asset, { relatedProcessID: hex32() });
    expect(res.status).toBe(201);
    expect(res.body.data.type).toBe('lot');
  });

  it('changes a related process by PATCH (its id stays) and removes it by DELETE without moving dateModified', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const created = (await link(asset, { relatedProcessID: hex32() })).body.data;
    const url = `${processesOf(asset)}/${created.id}`;
    const patched = await api.patch(url, { identifier: 'UA-LR-DGF-1', id: hex32() }, { as: 'concierge' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ ...created, identifier: 'UA-LR-DGF-1' });
    expect((await read(asset)).relatedProcesses).toEqual([patched.body.data]);
    const before = (await read(asset)).dateModified;
    const removed = await api.del(url, { as: 'concierge' });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ data: null });
    const after = await read(asset);
    expect(after.relatedProcesses).toBeUndefined();
    expect(after.dateModified).toBe(before);
    expect((await api.get(url)).status).toBe(404);
  });

  it('refuses brokers, the owner included, and validates the body (422)', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const owner = await api.post(processesOf(asset), { relatedProcessID: hex32() }, { token: asset.token });
    expect(owner.status).toBe(403);
    const missing = await link(asset, { type: 'lot' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { location: 'body', name: 'relatedProcessID', description: ['This field is required.'] },
    ]);
    const badType = await link(asset, { type: 'auction', relatedProcessID: hex32() });
    expect(badType.status).toBe(422);
    expect(badType.body.errors[0].name).toBe('type');
    const notAnId = await link(asset, { relatedProcessID: 'lot-1' });
    expect(notAnId.status).toBe(422);
    expect((await read(asset)).relatedProcesses).toBeUndefined();
  });

  it('holds at most one related process', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    expect((await link(asset, { relatedProcessID: hex32() })).status).toBe(201);
    const second = await link(asset, { relatedProcessID: hex32() });
    expect(second.status).toBe(422);
    expect(second.body.errors).toEqual([
      { location: 'body', name: 'relatedProcesses', description: ['Please provide no more than 1 item.'] },
    ]);
    expect((await read(asset)).relatedProcesses).toHaveLength(1);
  });

  it('answers 404 for an unknown asset or related process, and at the basic assets path', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    expect((await api.get(`/api/2.4/assets/${hex32()}/related_processes`)).body.errors).toEqual([
      { location: 'url', name: 'asset_id', description: 'Not Found' },
    ]);
    const unknown = await api.patch(`${processesOf(asset)}/${hex32()}`, { identifier: 'x' }, { as: 'concierge' });
    expect(unknown.body.errors).toEqual([{ location: 'url', name: 'relatedProcess_id', description: 'Not Found' }]);
    expect((await api.del(`${processesOf(asset)}/${hex32()}`, { as: 'concierge' })).status).toBe(404);
    const basic = await createAsset(api, 'basic');
    expect(
      (await api.post(`${basic.url}/related_processes`, { relatedProcessID: hex32() }, { as: 'concierge' })).status,
    ).toBe(404);
  });

  it('attaches an asset to a lot through a related process: verification and active without relatedLot, detach frees it and keeps the process', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const lotId = hex32();
    // No lot yet: the concierge cannot claim the asset.
    const early = await patchAs(api, asset, 'concierge', { status: 'verification' });
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual([
      { location: 'body', name: 'relatedLot', description: ['This field is required.'] },
    ]);
    await link(asset, { type: 'lot', relatedProcessID: lotId });
    const claimed = await patchAs(api, asset, 'concierge', { status: 'verification' });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data.status).toBe('verification');
    expect(claimed.body.data.relatedLot).toBeUndefined();
    const active = await patchAs(api, asset, 'concierge', { status: 'active' });
    expect(active.body.data).toMatchObject({
      status: 'active',
      relatedProcesses: [{ type: 'lot', relatedProcessID: lotId }],
    });
    // An active asset keeps its lot.
    const rp = active.body.data.relatedProcesses[0];
    const orphan = await api.del(`${processesOf(asset)}/${rp.id}`, { as: 'concierge' });
    expect(orphan.status).toBe(422);
    expect(orphan.body.errors).toEqual([
      { location: 'body', name: 'relatedProcesses', description: ['Asset must have related lot to become active.'] },
    ]);
    // As the original's detached view (bounce detached-from-lot-asset-view.http): pending, the process still listed.
    const detached = await patchAs(api, asset, 'concierge', { status: 'pending' });
    expect(detached.body.data).toMatchObject({ status: 'pending', relatedProcesses: [rp] });
    expect(detached.body.data.relatedLot).toBeUndefined();
  });

  it('completes an asset attached through a related process, which keeps the link, with no relatedLot', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    await link(asset, { relatedProcessID: hex32() });
    for (const status of ['verification', 'active', 'complete']) {
      expect((await patchAs(api, asset, 'concierge', { status })).body.data.status).toBe(status);
    }
    const complete = await read(asset);
    expect(complete.relatedProcesses).toHaveLength(1);
    expect(complete.relatedLot).toBeUndefined();
  });

  it('refuses to take an asset without a lot to verification, and to complete an asset that is not active', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const unlinked = await patchAs(api, asset, 'concierge', { status: 'verification' });
    expect(unlinked.status).toBe(422);
    await link(asset, { relatedProcessID: hex32() });
    expect((await patchAs(api, asset, 'concierge', { status: 'verification' })).status).toBe(200);
    const early = await patchAs(api, asset, 'concierge', { status: 'complete' });
    expect(early.status).toBe(403);
    expect((await read(asset)).status).toBe('verification');
  });

  it('keeps relatedLot working beside related processes', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const lotId = hex32();
    const res = await patchAs(api, asset, 'concierge', { status: 'verification', relatedLot: lotId });
    expect(res.body.data).toMatchObject({ status: 'verification', relatedLot: lotId });
  });
});

describe('concierge bot and related processes', () => {
  it('settles a lot whose asset is linked to it by a related process, and releases it on recomposition', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const lot = await lotIn(api, 'verification', { assets: [asset.id] });
    await link(asset, { type: 'lot', relatedProcessID: lot.id });
    await service.bot('concierge');
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.status).toBe('active.salable');
    const active = await read(asset);
    expect(active).toMatchObject({ status: 'active', relatedProcesses: [{ relatedProcessID: lot.id }] });
    expect(active.relatedLot).toBeUndefined();

    expect((await api.patch(`/api/0.1/lots/${lot.id}`, { status: 'recomposed' }, { token: lot.token })).status).toBe(
      200,
    );
    await service.bot('concierge');
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.status).toBe('pending');
    const freed = await read(asset);
    expect(freed.status).toBe('pending');
    expect(freed.relatedProcesses).toEqual(active.relatedProcesses);

    // Free again: another lot takes it by relatedLot, the old process kept as history.
    const next = await lotIn(api, 'verification', { assets: [asset.id] });
    await service.bot('concierge');
    await service.bot('concierge');
    expect((await api.get(`/api/0.1/lots/${next.id}`)).body.data.status).toBe('active.salable');
    expect(await read(asset)).toMatchObject({ status: 'active', relatedLot: next.id });
  });

  it('refuses an asset another lot holds', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const first = await lotIn(api, 'verification', { assets: [asset.id] });
    await service.bot('concierge');
    expect((await read(asset)).relatedLot).toBe(first.id);
    const lot = await lotIn(api, 'verification', { assets: [asset.id] });
    await service.bot('concierge');
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.status).toBe('pending');
    expect((await read(asset)).relatedLot).toBe(first.id);
  });
});
