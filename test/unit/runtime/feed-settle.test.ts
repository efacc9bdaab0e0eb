import { describe, expect, it } from 'vitest';
import { FEED_SETTLE_MS, readConfig } from '../../../functions/runtime/config.ts';
import { sortableUtc } from '../../../functions/domain/kernel/time.ts';
import {
  COMMIT_ALLOWANCE_MS,
  horizon,
  SEND_BUDGET_MS,
  underWay,
  watchCommitsLocally,
} from '../../../functions/store/webhook-log.ts';

describe("the webhook log's settle window (AGORA_FEED_SETTLE_MS)", () => {
  it('is 3 s unless set: the write budget and what DynamoDB takes to apply and index a write', () => {
    expect(readConfig({}).feedSettleMs).toBe(FEED_SETTLE_MS);
    expect(FEED_SETTLE_MS).toBe(3000);
    expect(SEND_BUDGET_MS + COMMIT_ALLOWANCE_MS).toBe(FEED_SETTLE_MS);
    expect(COMMIT_ALLOWANCE_MS).toBeGreaterThanOrEqual(1000);
  });

  it('takes whole milliseconds, 0 turning it off, and refuses anything else', () => {
    expect(readConfig({ AGORA_FEED_SETTLE_MS: '0' }).feedSettleMs).toBe(0);
    expect(readConfig({ AGORA_FEED_SETTLE_MS: '5000' }).feedSettleMs).toBe(5000);
    for (const bad of ['-1', '1.5', 'soon'])
      expect(() => readConfig({ AGORA_FEED_SETTLE_MS: bad }), bad).toThrow(/AGORA_FEED_SETTLE_MS/);
  });
});

describe('the local stand-in for DynamoDB applying a write within the allowance', () => {
  it('holds the horizon below the oldest write sent and not yet answered, once watched (npm start, the tests)', async () => {
    const stamp = Date.now() * 1000 - 10_000_000; // stamped 10 s ago: past the settle window
    const unwatched = underWay(stamp, async () => horizon());
    expect((await unwatched) > sortableUtc(stamp)).toBe(true);
    watchCommitsLocally();
    try {
      let answer: () => void = () => {};
      const sent = underWay(stamp, () => new Promise<void>((resolve) => (answer = resolve)));
      expect(horizon() < sortableUtc(stamp)).toBe(true);
      answer();
      await sent;
      expect(horizon() > sortableUtc(stamp)).toBe(true);
    } finally {
      delete (globalThis as Record<symbol, unknown>)[Symbol.for('agora.localCommitsUnderWay')];
    }
  });
});
