import { describe, expect, it } from 'vitest';
import { hex32 } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { createLot, lotIn, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

describe('PATCH /api/0.1/lots/{id}', () => {
  it('takes the owner token from acc_token, X-Access-Token or body access.token', async () => {
    const lot = await createLot(api);
    const viaHeader = await api.patch(
      `/api/0.1/lots/${lot.id}`,
      { status: 'pending' },
      { token: lot.token, tokenIn: 'header' },
    );
    expect(viaHeader.status).toBe(200);
    const viaBody = await api.call('PATCH', `/api/0.1/lots/${lot.id}`, undefined, {
      as: 'broker',
      raw: JSON.stringify({ data: { description: 'from body token' }, access: { token: lot.token } }),
    });
    expect(viaBody.status).toBe(200);
    expect(viaBody.body.data.description).toBe('from body token');
  });

  it('refuses a wrong token, and to another broker holding the right token a draft is not there', async () => {
    const lot = await createLot(api);
    const wrong = await api.patch(`/api/0.1/lots/${lot.id}`, { status: 'pending' }, { token: hex32() });
    expect(wrong.status).toBe(403);
    const other = await api.patch(
      `/api/0.1/lots/${lot.id}`,
      { status: 'pending' },
      { as: 'broker2', token: lot.token },
    );
    expect([other.status, other.body.errors]).toEqual([
      404,
      [{ location: 'url', name: 'lot_id', description: 'Not Found' }],
    ]);
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.status).toBe('draft');
  });

  it('drops fields the role may not change in the status, silently', async () => {
    const lot = await createLot(api);
    const draft = await patchAs(api, lot, 'owner', {
      status: 'pending',
      title: 'new title',
      lotID: 'UA-x',
      owner: 'me',
    });
    expect(draft.status).toBe(200);
    expect(draft.body.data).toMatchObject({
      status: 'pending',
      title: lot.lot.title,
      lotID: lot.lot.lotID,
      owner: 'broker',
    });
    const pending = await patchAs(api, lot, 'owner', {
      title: 'new title',
      description: 'new',
      date: '2000-01-01',
      owner: 'me',
    });
    expect(pending.body.data).toMatchObject({
      title: 'new title',
      description: 'new',
      date: draft.body.data.date,
      owner: 'broker',
    });
    const salable = await lotIn(api, 'active.salable');
    const convoy = await patchAs(api, salable, 'convoy', { title: 'convoy title', auctions: [hex32()] });
    expect(convoy.status).toBe(200);
    expect(convoy.body.data.title).toBe(salable.lot.title);
    expect(convoy.body.data.auctions).toHaveLength(1);
  });

  it('does not move dateModified when nothing changes', async () => {
    const lot = await lotIn(api, 'pending');
    const same = await patchAs(api, lot, 'owner', { title: lot.lot.title, status: 'pending' });
    expect(same.status).toBe(200);
    expect(same.body.data.dateModified).toBe(lot.lot.dateModified);
    const changed = await patchAs(api, lot, 'owner', { description: 'changed' });
    expect(Date.parse(changed.body.data.dateModified)).toBeGreaterThanOrEqual(Date.parse(lot.lot.dateModified));
    expect(changed.body.data.dateModified).not.toBe(lot.lot.dateModified);
    expect(changed.body.data.date).toBe(lot.lot.date);
  });

  it('validates the patched lot and changes nothing when it is invalid', async () => {
    const lot = await lotIn(api, 'pending');
    const res = await patchAs(api, lot, 'owner', { assets: [], title: 'kept?' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].name).toBe('assets');
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data).toEqual(lot.lot);
  });

  it('refuses a status that is not a string (422), changing nothing', async () => {
    const lot = await createLot(api);
    for (const status of [['pending'], { pending: true }, 7, null]) {
      const res = await patchAs(api, lot, 'owner', { status });
      expect(res.status, JSON.stringify(status)).toBe(422);
      expect(res.body.errors[0].name).toBe('status');
    }
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data).toEqual(lot.lot);
  });

  it('treats __proto__ in a body as nothing, not as a prototype that would satisfy validation', async () => {
    const lot = await lotIn(api, 'pending');
    const res = await api.call('PATCH', `/api/0.1/lots/${lot.id}?acc_token=${lot.token}`, undefined, {
      as: 'broker',
      raw: '{"data": {"lotCustodian": {"__proto__": {"name": "zzz"}, "name": null}}}',
    });
    expect(res.status).toBe(422);
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data).toEqual(lot.lot);
  });

  it('merges nested objects and replaces lists', async () => {
    const lot = await lotIn(api, 'pending');
    const asset = hex32();
    const res = await patchAs(api, lot, 'owner', {
      lotCustodian: { contactPoint: { telephone: '+380000000001' } },
      assets: [asset],
    });
    expect(res.body.data.lotCustodian.contactPoint).toEqual({
      ...lot.lot.lotCustodian.contactPoint,
      telephone: '+380000000001',
    });
    expect(res.body.data.lotCustodian.name).toBe(lot.lot.lotCustodian.name);
    expect(res.body.data.assets).toEqual([asset]);
  });

  it('answers 404 for an unknown lot', async () => {
    const res = await api.patch(`/api/0.1/lots/${hex32()}`, { status: 'pending' }, { as: 'concierge' });
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toEqual({ location: 'url', name: 'lot_id', description: 'Not Found' });
  });

  it('loses no acknowledged change when many writers PATCH one lot at once', async () => {
    const lot = await lotIn(api, 'pending');
    const fields = [
      'title',
      'title_en',
      'title_ru',
      'description',
      'description_en',
      'description_ru',
      'lotIdentifier',
    ];
    const answers = await Promise.all(fields.map((field) => patchAs(api, lot, 'owner', { [field]: `${field} v2` })));
    expect(answers.map((a) => a.status)).toEqual(fields.map(() => 200));
    const read = (await api.get(`/api/0.1/lots/${lot.id}`)).body.data;
    for (const field of fields) expect(read[field]).toBe(`${field} v2`);
  });

  it('lets the concierge and a status change race without losing either', async () => {
    const lot = await lotIn(api, 'active.salable');
    const [owner, convoy] = await Promise.all([
      patchAs(api, lot, 'owner', { status: 'recomposed' }),
      patchAs(api, lot, 'convoy', { auctions: [hex32()] }),
    ]);
    const read = (await api.get(`/api/0.1/lots/${lot.id}`)).body.data;
    // Both were checked against the state each saw: the first acknowledged write is always kept.
    if (owner.status === 200) expect(read.status).toBe('recomposed');
    if (convoy.status === 200) expect(read.auctions).toHaveLength(1);
  });
});
