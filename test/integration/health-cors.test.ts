import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../support/http.ts';
import { useService } from '../support/service.ts';
import { resetConfig } from '../../functions/platform/config.ts';

const service = useService();
const api = client(() => service.url);
const preflight = (origin: string) =>
  fetch(`${service.url}/api/0.1/lots`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });

describe('GET /api/health', () => {
  it('answers 200 without a key when the table answers', async () => {
    const res = await api.call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ok', checks: { table: 'ok' } } });
  });

  it('answers 503 when the table does not', async () => {
    const table = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'no_such_table';
    resetConfig();
    try {
      const res = await api.call('GET', '/api/health');
      expect(res.status).toBe(503);
      expect(res.body.data).toEqual({ status: 'unavailable', checks: { table: 'unavailable' } });
    } finally {
      process.env.TABLE_NAME = table;
      resetConfig();
    }
  });
});

describe('CORS (AGORA_CORS_ORIGINS locally, context corsOrigins in AWS)', () => {
  afterEach(() => {
    delete process.env.AGORA_CORS_ORIGINS;
  });

  it('is off by default: a preflight is a 404 and answers carry no CORS header', async () => {
    const res = await preflight('https://app.example.org');
    expect(res.status).toBe(404);
    const get = await api.get('/api/0.1/lots', { as: 'broker', headers: { origin: 'https://app.example.org' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers the preflight of an allowed origin and marks its answers readable', async () => {
    process.env.AGORA_CORS_ORIGINS = 'https://app.example.org';
    const res = await preflight('https://app.example.org');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-access-token');
    const get = await api.get('/api/0.1/lots', { as: 'broker', headers: { origin: 'https://app.example.org' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(get.headers.get('access-control-expose-headers')).toContain('location');
  });

  it('gives another origin no CORS header', async () => {
    process.env.AGORA_CORS_ORIGINS = 'https://app.example.org';
    const res = await preflight('https://evil.example.net');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await api.get('/api/0.1/lots', { as: 'broker', headers: { origin: 'https://evil.example.net' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});
