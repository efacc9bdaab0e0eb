import AjvDraft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

describe('item schemas, served read-only', () => {
  it('lists the land-parcel families', async () => {
    const res = await api.get('/api/schemas');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { code: '06', version: '001', id: 'urn:cav:06000000-2.001', title: 'Земельна ділянка' },
      { code: '061', version: '001', id: 'urn:cav:06100000-3.001', title: 'Земельна ділянка в населеному пункті' },
    ]);
  });

  it.each([
    ['06110000-6', 'urn:cav:06100000-3.001'],
    ['0611', 'urn:cav:06100000-3.001'],
    ['061', 'urn:cav:06100000-3.001'],
    ['06000000-2', 'urn:cav:06000000-2.001'],
    ['06200000-4', 'urn:cav:06000000-2.001'],
    ['06', 'urn:cav:06000000-2.001'],
  ])('serves for %s the most specific family whose code prefixes it', async (code, id) => {
    const res = await api.get(`/api/schemas/${code}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(id);
  });

  it.each(['04000000-8', '0', '6', 'abc'])('answers %s, which no family prefixes, with 404', async (code) => {
    const res = await api.get(`/api/schemas/${code}`);
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([{ location: 'url', name: 'code', description: 'Not Found' }]);
  });

  it('chooses a version by query, latest by default, 404 for an unknown one', async () => {
    expect((await api.get('/api/schemas/06?version=001')).body.data.id).toBe('urn:cav:06000000-2.001');
    expect((await api.get('/api/schemas/06?version=latest')).body.data.id).toBe('urn:cav:06000000-2.001');
    const missing = await api.get('/api/schemas/06?version=002');
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([{ location: 'querystring', name: 'version', description: 'Not Found' }]);
  });

  it('serves documents that are themselves valid JSON Schema draft-04, with every property required', async () => {
    const ajv = new AjvDraft04.default({ strict: false });
    for (const { code } of (await api.get('/api/schemas')).body.data) {
      const schema = (await api.get(`/api/schemas/${code}`)).body.data;
      expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
      expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
      expect(schema.additionalProperties).toBe(false);
      expect([...schema.required].sort()).toEqual(Object.keys(schema.properties).sort());
    }
  });

  it('is read-only: other methods are unknown routes (404)', async () => {
    const res = await api.put('/api/schemas/06', { title: 'x' });
    expect(res.status).toBe(404);
  });
});
