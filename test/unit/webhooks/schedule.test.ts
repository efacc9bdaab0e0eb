import { describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER, retryAfter, retryDelay, verdict } from '../../../functions/domain/webhooks/schedule.ts';

const S = 1_000_000;
const NOW = 1_800_000_000 * S;

describe('the webhook retry schedule', () => {
  it('waits 1 s, 5 s, 15 s, 1 min (an occasional error costs seconds), then 5 min, 30 min, 2 h, 5 h, then 10 h, each ±20 %', () => {
    const bases = [1, 5, 15, 60, 300, 1800, 7200, 18000, 36000, 36000, 36000].map((s) => s * S);
    bases.forEach((base, i) => {
      expect(retryDelay(i + 1, 0.5)).toBe(base);
      expect(retryDelay(i + 1, 0)).toBe(base * 0.8);
      expect(Math.abs(retryDelay(i + 1, 0.999999) - base * 1.2)).toBeLessThan(S);
    });
  });

  it('keeps trying for days before it gives up', () => {
    let at = NOW;
    let attempts = 0;
    for (;;) {
      const v = verdict({ status: 500 }, ++attempts, NOW, at, 0.5);
      if (v.state !== 'pending') break;
      at = v.due;
    }
    expect(at - NOW).toBeGreaterThan(3 * 24 * 3600 * S);
    expect(at - NOW).toBeLessThanOrEqual(GIVE_UP_AFTER);
  });

  it('judges an answer: 2xx delivered, 410 disables, 429/503 come back after Retry-After, others (3xx too) by the schedule', () => {
    expect(verdict({ status: 204 }, 1, undefined, NOW, 0.5)).toEqual({ state: 'delivered' });
    expect(verdict({ status: 410 }, 1, undefined, NOW, 0.5)).toEqual({ state: 'failed', disable: 'gone' });
    expect(verdict({ status: 429, retryAfter: '120' }, 1, undefined, NOW, 0.5)).toEqual({
      state: 'pending',
      due: NOW + 120 * S,
    });
    expect(verdict({ status: 503, retryAfter: '7' }, 3, undefined, NOW, 0.5)).toEqual({
      state: 'pending',
      due: NOW + 7 * S,
    });
    expect(verdict({ status: 500, retryAfter: '7' }, 1, undefined, NOW, 0.5)).toEqual({
      state: 'pending',
      due: NOW + 1 * S,
    });
    expect(verdict({ status: 302 }, 2, undefined, NOW, 0.5)).toEqual({ state: 'pending', due: NOW + 5 * S });
    expect(verdict({ error: 'timeout' }, 1, undefined, NOW, 0.5)).toEqual({ state: 'pending', due: NOW + 1 * S });
    expect(verdict({ status: 500 }, 9, NOW - GIVE_UP_AFTER, NOW, 0.5)).toEqual({ state: 'failed', disable: 'failing' });
  });

  it('reads Retry-After as seconds or an HTTP date, at least 1 s and at most a day', () => {
    expect(retryAfter('30', NOW)).toBe(30 * S);
    expect(retryAfter(new Date(NOW / 1000 + 90_000).toUTCString(), NOW)).toBe(90 * S);
    expect(retryAfter('0', NOW)).toBe(S);
    expect(retryAfter('999999', NOW)).toBe(24 * 3600 * S);
    expect(retryAfter('soon', NOW)).toBeUndefined();
    expect(retryAfter(undefined, NOW)).toBeUndefined();
  });
});
