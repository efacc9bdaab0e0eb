import { botRun } from '#runtime/bot-run.ts';
import { sendDue } from '#runtime/webhooks.ts';
import { countRequests } from '#store/client.ts';
import type { BotReport } from '#runtime/work-index.ts';

/**
 * The webhooks' retry sweep: sends the deliveries the schedule made due (retries, replays, a first attempt that a
 * crash left behind), Querying the work index (`WORK#webhooks`, due <= now) of the service clock, never Scanning.
 */
export function run(): Promise<BotReport> {
  return botRun('webhooks', async () => {
    const { result, requests } = await countRequests(sendDue);
    return { bot: 'webhooks', due: result.due, changed: result.delivered, requests };
  });
}

/**
 * In AWS: a schedule fires once a minute at most, and the retry schedule's first waits are seconds (1 s, 5 s, 15 s).
 * So one invocation sweeps every second for half a minute (each sweep one Query of what is due), then waits for its
 * last sends (a sender's 10 s budget and a retry's 15 s), within the bots' 60 s timeout and before the next
 * invocation (a bot reserves a concurrency of 1): a retry due in the other half waits for the next minute's sweeps.
 * A sweep still sending when the next starts goes on beside it: each cursor is taken by one sender.
 */
export const SWEEP = { everyMs: 1_000, forMs: 30_000 };
export const handler = (): Promise<BotReport> => repeatedly(run, SWEEP);

/** Runs `pass` every `everyMs` for `forMs` (the first at once); once all have ended, their reports summed. */
export async function repeatedly(pass: () => Promise<BotReport>, { everyMs, forMs }: typeof SWEEP): Promise<BotReport> {
  const started = Date.now();
  const passes: Promise<BotReport>[] = [];
  for (;;) {
    passes.push(pass());
    const next = started + passes.length * everyMs;
    if (next - started >= forMs) break;
    await new Promise((wake) => setTimeout(wake, Math.max(0, next - Date.now())));
  }
  // Every pass ends before the invocation does (a frozen Lambda would leave a sender's lease to run out).
  const ended = await Promise.allSettled(passes);
  const failure = ended.find((e) => e.status === 'rejected');
  if (failure) throw failure.reason;
  const reports = ended.map((e) => (e as PromiseFulfilledResult<BotReport>).value);
  const sum = (field: 'due' | 'changed' | 'requests' | 'failed') => reports.reduce((n, r) => n + (r[field] ?? 0), 0);
  const failed = sum('failed');
  return {
    bot: 'webhooks',
    due: sum('due'),
    changed: sum('changed'),
    requests: sum('requests'),
    ...(failed && { failed }),
  };
}
