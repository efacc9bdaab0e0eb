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

export const handler = async (): Promise<BotReport> => run();
