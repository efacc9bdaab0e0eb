/**
 * THE bot table: data only. BotsStack makes one scheduled Lambda per entry (EventBridge Scheduler, Europe/Kyiv);
 * `npm start` runs each on a timer; `npm run bot -- <name>` runs one once.
 */
export interface BotDefinition {
  name: string;
  /** Module under `functions/`, without extension; it exports `run()` (a BotReport, runtime/work-index.ts) and a Lambda `handler`. */
  handler: string;
  /** EventBridge Scheduler expression. */
  schedule: string;
  description: string;
  /** Secrets the bot reads (BotsStack grants them and passes their ARNs). */
  secrets?: readonly 'participation'[];
}

export const bots: readonly BotDefinition[] = [
  {
    name: 'convoy',
    handler: 'bots/convoy',
    schedule: 'rate(1 minute)',
    description:
      'Joins auctions created from a lot with the lot: checks and claims it, releases the auction, reports the outcome.',
  },
  {
    name: 'concierge',
    handler: 'bots/concierge',
    schedule: 'rate(1 minute)',
    description: 'Settles lots and their assets: verification, recomposition, dissolution, deletion, sale.',
  },
  {
    name: 'chronograph',
    handler: 'bots/chronograph',
    schedule: 'rate(1 minute)',
    description: 'Applies due timed events of auctions: period ends and the transitions they cause.',
  },
  {
    name: 'webhooks',
    handler: 'bots/webhooks',
    schedule: 'rate(1 minute)',
    description:
      'Sends the webhook deliveries the retry schedule made due (and replays), every second for half a minute; first attempts come from the stream.',
  },
];

/**
 * The webhooks' delivery Lambda: not scheduled, it consumes the table's change stream (in AWS: DynamoDB Streams ->
 * EventBridge Pipe, filtered to changes -> SQS with a dead-letter queue -> it; locally lib/local/change-stream.ts).
 */
export const webhookDelivery = { name: 'webhook-delivery', handler: 'bots/webhook-changes' } as const;
