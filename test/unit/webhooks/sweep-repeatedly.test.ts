import { describe, expect, it } from 'vitest';
import { bots } from '../../../functions/bots.ts';
import { repeatedly, SWEEP } from '../../../functions/bots/webhooks.ts';

describe("the webhooks' sweep in AWS (one invocation a minute)", () => {
  it('sweeps every second for half a minute: with its last sends, within the 60 s a bot may run', () => {
    expect(SWEEP).toEqual({ everyMs: 1_000, forMs: 30_000 });
    expect(bots.find((b) => b.name === 'webhooks')!.schedule).toBe('rate(1 minute)');
    // A sender's budget (10 s) and a retry's answer (15 s) after the last sweep starts (lib/bots-stack.ts: 60 s).
    expect(SWEEP.forMs + 10_000 + 15_000).toBeLessThanOrEqual(60_000);
  });

  it('runs the passes one interval apart without waiting for the one before, and sums them once all ended', async () => {
    let running = 0;
    let most = 0;
    const report = await repeatedly(
      async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 35)); // a pass longer than the interval
        running--;
        return { bot: 'webhooks', due: 2, changed: 1, requests: 3, failed: 1 };
      },
      { everyMs: 10, forMs: 50 },
    );
    expect(report).toEqual({ bot: 'webhooks', due: 10, changed: 5, requests: 15, failed: 5 });
    expect(most).toBeGreaterThan(1);
    expect(running).toBe(0);
  });

  it('fails when a pass failed, after every pass ended', async () => {
    let ended = 0;
    const passes = [false, true, false];
    await expect(
      repeatedly(
        async () => {
          const fails = passes.shift();
          await new Promise((r) => setTimeout(r, 5));
          ended++;
          if (fails) throw new Error('a sweep failed');
          return { bot: 'webhooks', due: 0, changed: 0 };
        },
        { everyMs: 1, forMs: 3 },
      ),
    ).rejects.toThrow('a sweep failed');
    expect(ended).toBe(3);
  });
});
