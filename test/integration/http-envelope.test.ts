import { describe, expect, it } from 'vitest';
import { aLot } from '../support/builders.ts';
import { client } from '../support/http.ts';
import { useService } from '../support/service.ts';

const service = useService();
const api = client(() => service.url);

describe('the HTTP envelope', () => {
  it('answers 401 in the envelope without a credential, and with an unknown key', async () => {
    const none = await api.call('POST', '/api/0.1/lots', aLot());
    expect(none.status).toBe(401);
    expect(none.body.status).toBe('error');
    expect(none.body.errors[0]).toMatchObject({ location: 'header', name: 'Authorization' });
    const unknown = await api.get('/api/0.1/lots', { as: 'nobody' });
    expect(unknown.status).toBe(401);
  });

  it('accepts the key as a Bearer token too', async () => {
    const res = await api.call('GET', '/api/0.1/lots', undefined, { headers: { authorization: 'Bearer broker' } });
    expect(res.status).toBe(200);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await api.call('POST', '/api/0.1/lots', undefined, {
      as: 'broker',
      raw: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.errors).toEqual([
      {
        location: 'header',
        name: 'Content-Type',
        description: "Content-Type header should be one of ['application/json']",
      },
    ]);
  });

  it('answers 422 with the parser message for unparsable JSON', async () => {
    const res = await api.call('POST', '/api/0.1/lots', undefined, { as: 'broker', raw: '{"data": ' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ location: 'body', name: 'data' });
    expect(res.body.errors[0].description).toMatch(/JSON/);
  });

  it('answers 422 "Data not available" when the body has no data object', async () => {
    for (const raw of ['{"lot": {}}', '{"data": [1]}', '[]']) {
      const res = await api.call('POST', '/api/0.1/lots', undefined, { as: 'broker', raw });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ location: 'body', name: 'data', description: 'Data not available' }]);
    }
  });

  it('answers 404 in the envelope for an unknown path or method', async () => {
    const path = await api.get('/api/0.1/nothing-here');
    expect(path.status).toBe(404);
    expect(path.body).toEqual({
      status: 'error',
      errors: [{ location: 'url', name: 'url', description: 'Not Found' }],
    });
    const method = await api.call('DELETE', '/api/0.1/lots', undefined, { as: 'broker' });
    expect(method.status).toBe(404);
  });

  it('answers 422 for numbers DynamoDB cannot store exactly, instead of failing to write them', async () => {
    for (const raw of ['9007199254740993', '1e-200', '1e308', '-1e200']) {
      const res = await api.call('POST', '/api/0.1/lots', undefined, {
        as: 'broker',
        raw: `{"data": {"lotIdentifier": ${raw}}}`,
      });
      expect(res.status, raw).toBe(422);
      expect(res.body.errors).toEqual([
        { location: 'body', name: 'lotIdentifier', description: ['Number is out of range.'] },
      ]);
    }
  });

  it('answers 404 without asking DynamoDB for an id the service never gives, and for a malformed escape', async () => {
    const res = await api.get('/api/0.1/lots/not-an-id');
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toEqual({ location: 'url', name: 'lot_id', description: 'Not Found' });
    expect(res.requests).toBe(0);
    const badEscape = await api.get('/api/0.1/lots/%E0%A4%A');
    expect(badEscape.status).toBe(404);
    expect(badEscape.body.status).toBe('error');
  });

  it('refuses an offset that is not a real instant', async () => {
    for (const offset of ['2020-02-31T00:00:00Z', '2020-01-01T24:30:00Z']) {
      expect((await api.get(`/api/0.1/lots?offset=${encodeURIComponent(offset)}`)).status, offset).toBe(404);
    }
  });

  it('writes nothing when a request is refused', async () => {
    const before = await api.get('/api/0.1/lots?mode=test');
    await api.post('/api/0.1/lots', aLot({ mode: 'test', assets: [] }));
    await api.post('/api/0.1/lots', aLot({ mode: 'test', status: 'active.salable' }));
    const after = await api.get('/api/0.1/lots?mode=test');
    expect(after.body.data).toEqual(before.body.data);
  });
});
