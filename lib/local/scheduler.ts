import { bots } from '../../functions/bots.ts';
import { runBot } from './gateway.ts';

/**
 * `npm start`'s stand-in for EventBridge Scheduler: every bot of bots.ts every `intervalMs` (or its own interval in
 * `every`, by name), never overlapping itself.
 */
export function startBots(
  intervalMs: number,
  log: (line: string) => void = console.log,
  every: Readonly<Record<string, number>> = {},
  /** Every report a bot gives (the bench adds the webhooks' sweep to what the deliveries cost). */
  onReport: (report: Awaited<ReturnType<typeof runBot>>) => void = () => undefined,
): () => void {
  const timers = bots.map((bot) => {
    let running = false;
    return setInterval(async () => {
      if (running) return;
      running = true;
      try {
        const report = await runBot(bot.name);
        onReport(report);
        if (report.changed > 0) log(`[bot ${bot.name}] ${JSON.stringify(report)}`);
      } catch (error) {
        log(`[bot ${bot.name}] failed: ${(error as Error).message}`);
      } finally {
        running = false;
      }
    }, every[bot.name] ?? intervalMs);
  });
  return () => timers.forEach(clearInterval);
}
