import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { resetConfig } from '../../../functions/platform/config.ts';

/**
 * Per-key fairness through HTTP: the local gateway runs the same authorizer, whose token bucket per API key lives in
 * the table. This file alone sets a small limit (2 requests per second, a burst of 5), and the same per source
 * address for unknown keys and the health check (every request here comes from 127.0.0.1).
 */
const LIMITS = { AGORA_KEY_RATE: '2', AGORA_KEY_BURST: '5', AGORA_ADDRESS_RATE: '2', AGORA_ADDRESS_BURST: '5' };
beforeAll(() => {
  Object.assign(process.env, LIMITS);
  resetConfig();
});
afterAll(() => {
  for (const name of Object.keys(LIMITS)) delete process.env[name];
  resetConfig();
});
const service = useService();
const api = client(() => service.url);
const LOTS = '/api/0.1/lots';

describe('per-key request limits', () => {
  it('answers 429 with Retry-After in the envelope once a key spent its burst, while other keys go on', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await api.get(LOTS, { as: 'broker' }));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
    const refused = answers.find((a) => a.status === 429);
    expect(refused, statuses.join()).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused!.body).toEqual({
      status: 'error',
      errors: [
        { location: 'header', name: 'Authorization', description: 'Too many requests for this API key; retry later' },
      ],
    });
    // Another key is not starved by the first one.
    expect((await api.get(LOTS, { as: 'broker2' })).status).toBe(200);
    // The bucket refills at the rate: after its Retry-After the first key is admitted again.
    await new Promise((resolve) => setTimeout(resolve, Number(refused!.headers.get('retry-after')) * 1000 + 100));
    expect((await api.get(LOTS, { as: 'broker' })).status).toBe(200);
  });

  it('counts concurrent requests exactly: of 20 sent at once by one key, the burst passes and the rest are 429', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // a full bucket again
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.get(LOTS, { as: 'concierge' })));
    const ok = answers.filter((a) => a.status === 200).length;
    // The burst of 5, plus at most the tokens refilled while the 20 were answered (2 per second).
    expect(ok).toBeGreaterThanOrEqual(5);
    expect(ok).toBeLessThanOrEqual(5 + 2 * 3);
    expect(answers.filter((a) => a.status === 429).length).toBe(20 - ok);
  });

  it('limits reads without a key per source address (429 with Retry-After); writes without a key are 401', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await api.call('GET', LOTS));
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, 5), statuses.join()).toEqual([200, 200, 200, 200, 200]);
    const refused = answers.find((a) => a.status === 429);
    expect(refused, statuses.join()).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused!.body.errors).toEqual([
      { location: 'header', name: 'Authorization', description: 'Too many requests from this address; retry later' },
    ]);
    expect(refused!.requests).toBe(0);
    // A key is not held by its address's keyless reads.
    expect((await api.get(LOTS, { as: 'broker2' })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await api.call('POST', LOTS, { title: 'x' })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the address's bucket full again, for the next tests
  });

  it('limits unknown keys per source address: 429 with Retry-After, and no key lookup once refused', async () => {
    expect((await api.get(LOTS, { as: 'admin' })).status).toBe(200);
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await api.get(LOTS, { as: `no-such-key-${i}` }));
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, 5), statuses.join()).toEqual([401, 401, 401, 401, 401]);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length, statuses.join()).toBeGreaterThanOrEqual(5);
    for (const answer of refused) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.body.status).toBe('error');
      expect(answer.body.errors[0]).toMatchObject({ location: 'header', name: 'Authorization' });
    }
    // Refused from memory: the later unknown keys cost no DynamoDB request at all.
    expect(answers.at(-1)!.requests).toBe(0);
    // A key this service knows (and saw in the last minute) from the same address is not refused with them.
    expect((await api.get(LOTS, { as: 'admin' })).status).toBe(200);
    // Its wait over, the address may try again.
    await new Promise((resolve) =>
      setTimeout(resolve, Number(refused.at(-1)!.headers.get('retry-after')) * 1000 + 100),
    );
    expect((await api.get(LOTS, { as: 'no-such-key-again' })).status).toBe(401);
  });

  it('limits the health check per source address: 429 with Retry-After in the envelope', async () => {
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await api.call('GET', '/api/health'));
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, 5), statuses.join()).toEqual([200, 200, 200, 200, 200]);
    const refused = answers.find((a) => a.status === 429);
    expect(refused, statuses.join()).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused!.body).toEqual({
      status: 'error',
      errors: [
        { location: 'header', name: 'Authorization', description: 'Too many requests from this address; retry later' },
      ],
    });
    expect(refused!.requests).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, Number(refused!.headers.get('retry-after')) * 1000 + 100));
    expect((await api.call('GET', '/api/health')).status).toBe(200);
  });
});
