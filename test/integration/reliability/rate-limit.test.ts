import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { resetConfig } from '../../../functions/runtime/config.ts';

/**
 * Per-key fairness through HTTP: the local gateway runs the same authorizer, whose token bucket per API key lives in
 * the table. This file alone sets a small limit (2 requests per second, a burst of 5).
 */
beforeAll(() => {
  process.env.AGORA_KEY_RATE = '2';
  process.env.AGORA_KEY_BURST = '5';
  resetConfig();
});
afterAll(() => {
  delete process.env.AGORA_KEY_RATE;
  delete process.env.AGORA_KEY_BURST;
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

  it('does not limit requests without a key: they answer 401 as before', async () => {
    for (let i = 0; i < 8; i++) expect((await api.call('GET', LOTS)).status).toBe(401);
  });
});
