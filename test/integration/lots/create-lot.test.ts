import { describe, expect, it } from 'vitest';
import { aLot, hex32 } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

const KYIV_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+0[23]:00$/;

describe('POST /api/0.1/lots', () => {
  it('creates a draft lot with server fields, an owner token and an absolute Location', async () => {
    const sentId = hex32();
    const res = await api.post(
      '/api/0.1/lots',
      aLot({ id: sentId, owner: 'someone', lotID: 'mine', dateModified: '2000-01-01' }),
    );
    expect(res.status).toBe(201);
    const lot = res.body.data;
    expect(lot.id).toMatch(/^[0-9a-f]{32}$/);
    expect(lot.id).not.toBe(sentId);
    expect(lot).toMatchObject({ status: 'draft', owner: 'broker', lotType: 'basic', title: 'Тестовий лот' });
    expect(lot.lotID).toMatch(/^UA-LR-DGF-\d{4}-\d{2}-\d{2}-\d{6}$/);
    expect(lot.date).toMatch(KYIV_TIMESTAMP);
    expect(lot.dateModified).toBe(lot.date);
    expect(res.body.access.token).toMatch(/^[0-9a-f]{32}$/);
    expect(res.headers.get('location')).toBe(`${service.url}/api/0.1/lots/${lot.id}`);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('numbers lots of one Kyiv day in sequence', async () => {
    const a = (await api.post('/api/0.1/lots', aLot())).body.data.lotID as string;
    const b = (await api.post('/api/0.1/lots', aLot())).body.data.lotID as string;
    expect(b.slice(0, -6)).toBe(a.slice(0, -6));
    expect(Number(b.slice(-6))).toBe(Number(a.slice(-6)) + 1);
  });

  it('gives concurrent creations distinct lotIDs', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, () => api.post('/api/0.1/lots', aLot())));
    expect(new Set(created.map((r) => r.body.data.lotID)).size).toBe(10);
  });

  it('refuses a status other than draft', async () => {
    const res = await api.post('/api/0.1/lots', aLot({ status: 'pending' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      status: 'error',
      errors: [{ location: 'body', name: 'status', description: 'You can create only in draft status' }],
    });
  });

  it('answers 415 for a lotType it does not implement', async () => {
    const res = await api.post('/api/0.1/lots', aLot({ lotType: 'loki' }));
    expect(res.status).toBe(415);
    expect(res.body.errors).toEqual([{ location: 'body', name: 'lotType', description: 'Not implemented' }]);
  });

  it('lists every missing required field', async () => {
    const res = await api.post('/api/0.1/lots', { description: 'only this' });
    expect(res.status).toBe(422);
    const names = res.body.errors.map((e: any) => e.name).sort();
    expect(names).toEqual(['assets', 'lotCustodian', 'lotIdentifier', 'title']);
    expect(res.body.errors[0].description).toEqual(['This field is required.']);
  });

  it('refuses duplicate, malformed and missing assets', async () => {
    const id = hex32();
    const dup = await api.post('/api/0.1/lots', aLot({ assets: [id, id] }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([{ location: 'body', name: 'assets', description: ['Assets should be unique'] }]);
    const bad = await api.post('/api/0.1/lots', aLot({ assets: ['not-an-id'] }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].name).toBe('assets');
    const empty = await api.post('/api/0.1/lots', aLot({ assets: [] }));
    expect(empty.status).toBe(422);
  });

  it('reports nested organization errors under the field, and rogue fields', async () => {
    const res = await api.post(
      '/api/0.1/lots',
      aLot({ lotCustodian: { identifier: { scheme: 'UA-EDR' } }, colour: 'red' }),
    );
    expect(res.status).toBe(422);
    const byName = Object.fromEntries(res.body.errors.map((e: any) => [e.name, e.description]));
    expect(byName.colour).toEqual(['Rogue field']);
    expect(byName.lotCustodian.identifier).toEqual({ id: ['This field is required.'] });
    expect(byName.lotCustodian.name).toEqual(['This field is required.']);
  });

  it('refuses bots and keys of other roles', async () => {
    const bot = await api.post('/api/0.1/lots', aLot(), { as: 'concierge' });
    expect(bot.status).toBe(403);
    expect(bot.body.errors).toEqual([
      { location: 'body', name: 'accreditation', description: "Can't create lot as bot" },
    ]);
    const auction = await api.post('/api/0.1/lots', aLot(), { as: 'auction' });
    expect(auction.status).toBe(403);
    expect(auction.body.errors).toEqual([{ location: 'url', name: 'permission', description: 'Forbidden' }]);
  });

  it('marks titles of test-mode lots', async () => {
    const res = await api.post('/api/0.1/lots', aLot({ mode: 'test', title_en: 'Lot' }));
    expect(res.body.data.title).toBe('[ТЕСТУВАННЯ] Тестовий лот');
    expect(res.body.data.title_en).toBe('[TESTING] Lot');
  });
});

describe('GET /api/0.1/lots/{id}', () => {
  it('reads a lot in one DynamoDB request', async () => {
    const created = await api.post('/api/0.1/lots', aLot());
    const res = await api.get(`/api/0.1/lots/${created.body.data.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(created.body.data);
    expect(res.requests).toBe(1);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await api.get(`/api/0.1/lots/${hex32()}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      status: 'error',
      errors: [{ location: 'url', name: 'lot_id', description: 'Not Found' }],
    });
  });

  it('pretty-prints with opt_pretty=1', async () => {
    const created = await api.post('/api/0.1/lots', aLot());
    const res = await fetch(`${service.url}/api/0.1/lots/${created.body.data.id}?opt_pretty=1`, {
      headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
    });
    const text = await res.text();
    expect(text.startsWith('{\n  "data": {\n    "')).toBe(true);
    expect(JSON.parse(text)).toEqual({ data: created.body.data });
  });
});
