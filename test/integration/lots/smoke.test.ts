import { describe, expect, it } from 'vitest';
import { aLot } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

describe('lots smoke', () => {
  it('creates and reads a lot', async () => {
    const created = await api.post('/api/0.1/lots', aLot());
    expect(created.status).toBe(201);
    const got = await api.get(`/api/0.1/lots/${created.body.data.id}`);
    expect(got.body.data).toEqual(created.body.data);
    expect(got.requests).toBe(1);
  });
});
