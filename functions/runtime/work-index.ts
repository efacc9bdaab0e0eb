import type { Micros } from '#domain/kernel/time.ts';
import { botRun } from '#runtime/bot-run.ts';
import { requestNow } from '#platform/clock.ts';
import { log } from '#runtime/observability.ts';
import { countRequests } from '#store/client.ts';
import { dueWork } from '#store/work.ts';

/** What a bot's run reports (its log line and metrics: runtime/observability.ts observeBotRun). */
export interface BotReport {
  bot: string;
  /** Due items read from the work index. */
  due: number;
  /** Items the bot changed. */
  changed: number;
  /** DynamoDB requests of the run (when counted). */
  requests?: number;
  /** Items whose handling threw (logged, left due for the next run); absent when none. */
  failed?: number;
}

/** One work index a bot runs what is due of. */
export interface WorkIndex {
  /** The index (`WORK#<work>`). */
  work: string;
  /** The aggregate kind kept of it, and what its id is called in the log. */
  kind: { kind: string; entity: string };
  /** An item is due only this long after its time (default: at its time). */
  graceMicros?: number;
  /** Handles one due item; true when it changed something. */
  handleOne: (id: string, now: Micros) => Promise<boolean>;
}

/**
 * The run every bot shares: Query the bot's due work (`WORK#<bot>`, due <= now; never a Scan), keep the items of
 * one aggregate kind, hand each to `handleOne` (true when it changed something), and report the due and changed
 * counts with the DynamoDB requests of the run. One broken item must not stop the others: its error is logged and
 * it stays due, so the next run retries it. Each run has its own correlation id, log line and metrics (botRun).
 */
export function runDue(
  bot: string,
  kind: { kind: string; entity: string },
  handleOne: (id: string, now: Micros) => Promise<boolean>,
  first?: (now: Micros) => Promise<void>,
): Promise<BotReport> {
  return runDueOf(bot, [{ work: bot, kind, handleOne }], first);
}

/**
 * `runDue` over several work indexes in one run and one report (the room bot: rooms to plan or close, and overdue
 * timers): every index's due work is read first, at the same `now`, then handled index by index.
 */
export async function runDueOf(
  bot: string,
  indexes: readonly WorkIndex[],
  first?: (now: Micros) => Promise<void>,
): Promise<BotReport> {
  return botRun(bot, async () => {
    const { result, requests } = await countRequests(async () => {
      const now = requestNow();
      await first?.(now); // what the bot does once a run besides its items (the chronograph's calendar metric)
      const batches: { index: WorkIndex; ids: string[] }[] = [];
      for (const index of indexes) {
        const due = await dueWork(index.work, now - (index.graceMicros ?? 0));
        batches.push({ index, ids: due.filter((w) => w.kind === index.kind.kind).map((w) => w.id) });
      }
      let changed = 0;
      let failed = 0;
      for (const { index, ids } of batches)
        for (const id of ids) {
          try {
            // Each item its own time (its change's `dateModified`).
            if (await index.handleOne(id, requestNow())) changed++;
          } catch (error) {
            failed++;
            log().error('bot item failed', { [index.kind.entity]: id, error: error as Error });
          }
        }
      return { due: batches.reduce((sum, b) => sum + b.ids.length, 0), changed, failed };
    });
    const { failed, ...counts } = result;
    return { bot, ...counts, requests, ...(failed > 0 && { failed }) };
  });
}
