import type { Micros } from '#domain/kernel/time.ts';
import { requestNow } from '#runtime/clock.ts';
import { botRun } from '#runtime/bot-run.ts';
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

/**
 * The run every bot shares: Query the bot's due work (`WORK#<bot>`, due <= now; never a Scan), keep the items of
 * one aggregate kind, hand each to `handleOne` (true when it changed something), and report the due and changed
 * counts with the DynamoDB requests of the run. One broken item must not stop the others: its error is logged and
 * it stays due, so the next run retries it. Each run has its own correlation id, log line and metrics (botRun).
 */
export async function sweep(
  bot: string,
  kind: { kind: string; entity: string },
  handleOne: (id: string, now: Micros) => Promise<boolean>,
): Promise<BotReport> {
  return botRun(bot, async () => {
    const { result, requests } = await countRequests(async () => {
      const now = requestNow();
      const due = (await dueWork(bot, now)).filter((w) => w.kind === kind.kind);
      let changed = 0;
      let failed = 0;
      for (const { id } of due) {
        try {
          // Each item its own time: a change's stamp must reach DynamoDB within the feeds' budget (store/feeds.ts).
          if (await handleOne(id, requestNow())) changed++;
        } catch (error) {
          failed++;
          log().error('bot item failed', { [kind.entity]: id, error: error as Error });
        }
      }
      return { due: due.length, changed, failed };
    });
    const { failed, ...counts } = result;
    return { bot, ...counts, requests, ...(failed > 0 && { failed }) };
  });
}
