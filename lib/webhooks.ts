import { Duration, type Stack } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { webhookDelivery } from '../functions/bots.ts';
import { PIPE_MESSAGE_TEMPLATE } from '../functions/store/table-design.ts';
import { TELEMETRY, WEBHOOK_FAILING_HOURS } from '../functions/platform/telemetry.ts';
import { CHANGE_PARTITIONS, ROOT_SK } from '../functions/store/table-design.ts';
import { AppFunction } from './app-function.ts';
import { justifyGrant } from './iam.ts';
import { alarm } from './operations.ts';

/**
 * The first attempt of every webhook, on managed parts: the table's stream -> an EventBridge pipe that keeps only the
 * records of changes (its filter) -> a FIFO SQS queue (a dead-letter queue after 5 receives) -> the delivery Lambda,
 * which fans each change out to the matching subscriptions and sends it. The queue's message group is the changed
 * object (the revision's `PK`): one object's changes reach the Lambda in order, a batch of them only after the one
 * before was done, while different objects' batches run at once (one Lambda per group in flight, up to the account's
 * concurrency); 10 messages a batch, FIFO's most. The retries are not here: each delivery keeps its
 * due time on the work index and the `webhooks` bot (bots.ts, every minute) sends what is due, for as many days as the
 * schedule says (docs/DESIGN.md, "Webhooks").
 */
/**
 * The records that are changes: the roots of lots, assets and auctions that keep a change log (`history`), nothing
 * else, so the queue carries no child, revision or bot item. A root's records come in the order it was written (a
 * stream orders the records of one item), which is what the journal's order rests on; a root written without a new
 * revision (a bot's bookkeeping) passes too and the writer finds its `seq` journaled. Only roots with what the input
 * template names (`lane`, `feed`: every root this release writes): an older release's root that a migration rewrites
 * without them carries no change (the migration journals its object itself).
 */
export const CHANGE_FILTERS = [
  {
    dynamodb: {
      Keys: { PK: { S: CHANGE_PARTITIONS.map((prefix) => ({ prefix })) }, SK: { S: [ROOT_SK] } },
      NewImage: {
        history: { M: { seq: { N: [{ exists: true }] } } },
        lane: { S: [{ exists: true }] },
        feed: { M: { id: { S: [{ exists: true }] } } },
      },
    },
  },
];

/** A change not sent within this long is an alarm: the pipe, the queue or the delivery Lambda is stuck. */
export const OLDEST_CHANGE_ALARM = Duration.minutes(5);
/**
 * How long the pipe retries a batch of stream records it cannot put on the queue before it writes the batch's
 * description to its own dead-letter queue and goes on: a failing pipe holds every later change of its shard (order is
 * kept), so it may not hold them for the stream's whole 24 hours.
 */
export const PIPE_GIVES_UP = Duration.hours(1);

export function webhookDeliveries(scope: Stack, table: ITableV2, topic: ITopic): AppFunction {
  const deadLetters = new Queue(scope, 'WebhookChangesDeadLetters', {
    fifo: true,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  const queue = new Queue(scope, 'WebhookChanges', {
    fifo: true,
    // High-throughput FIFO: order and deduplication per object, not across the queue.
    deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
    fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    // Six times the Lambda's timeout (AWS's advice for a queue a Lambda consumes), so a batch in work is not handed twice.
    visibilityTimeout: Duration.minutes(30),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: 5 },
  });
  // The pipe's own dead letters: batches of stream records it gave up on (PIPE_GIVES_UP), described by their shard and
  // sequence numbers; the changes themselves stay in the table's change log (subscribers replay them).
  const pipeDeadLetters = new Queue(scope, 'WebhookChangesPipeDeadLetters', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  const role = new Role(scope, 'WebhookPipeRole', { assumedBy: new ServicePrincipal('pipes.amazonaws.com') });
  role.addToPolicy(
    new PolicyStatement({
      actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
      resources: [table.tableStreamArn!],
    }),
  );
  queue.grantSendMessages(role);
  pipeDeadLetters.grantSendMessages(role);
  const pipe = new CfnPipe(scope, 'WebhookPipe', {
    description: 'The changes of the table (its stream, filtered) into the webhook delivery queue',
    roleArn: role.roleArn,
    source: table.tableStreamArn!,
    sourceParameters: {
      dynamoDbStreamParameters: {
        startingPosition: 'LATEST',
        batchSize: 10,
        maximumBatchingWindowInSeconds: 1,
        deadLetterConfig: { arn: pipeDeadLetters.queueArn },
        maximumRecordAgeInSeconds: PIPE_GIVES_UP.toSeconds(),
        // A failing batch is halved until the one failing record is found: the others go on.
        onPartialBatchItemFailure: 'AUTOMATIC_BISECT',
      },
      filterCriteria: { filters: CHANGE_FILTERS.map((f) => ({ pattern: JSON.stringify(f) })) },
    },
    target: queue.queueArn,
    // One object's changes in one group, in stream order; a record the pipe sends twice is dropped by its event id.
    // The message is the record's few attributes a change needs (its input template; both paths are in it too).
    targetParameters: {
      inputTemplate: PIPE_MESSAGE_TEMPLATE,
      sqsQueueParameters: { messageGroupId: '$.dynamodb.Keys.PK.S', messageDeduplicationId: '$.eventID' },
    },
  });
  const fn = new AppFunction(scope, 'WebhookDelivery', {
    handler: webhookDelivery.handler,
    table,
    access: 'rw',
    timeout: Duration.minutes(5),
  });
  // A batch fails or succeeds as a whole (its changes are journaled in one transaction), so no partial batch responses; FIFO
  // takes no batching window.
  fn.addEventSource(new SqsEventSource(queue, { batchSize: 10 }));
  justifyGrant(fn.role, {
    actions: [
      'sqs:ReceiveMessage',
      'sqs:ChangeMessageVisibility',
      'sqs:GetQueueUrl',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
    ],
    why: "Lambda's SQS event source mapping receives and deletes the queue's messages with the function's role; the code calls no SQS.",
  });
  alarm(
    scope,
    'WebhookDeadLetters',
    deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    1,
    'Changes the webhook delivery Lambda failed on 5 times are in the dead-letter queue: their subscribers did not get them.',
    topic,
    { runbook: 'webhookDeadLetters' },
  );
  alarm(
    scope,
    'WebhookOldestChange',
    queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }),
    OLDEST_CHANGE_ALARM.toSeconds(),
    'The oldest change waiting for its webhooks is more than 5 minutes old: the delivery Lambda is failing or throttled.',
    topic,
    { runbook: 'webhookOldestChange' },
  );
  // Nothing reaches the queue while the pipe fails (no role, a deleted queue), so WebhookOldestChange cannot see it:
  // the pipe's own failed executions can, within 5 minutes, and its dead letters once it gives a batch up.
  alarm(
    scope,
    'WebhookPipeFailing',
    new Metric({
      namespace: 'AWS/EventBridge/Pipes',
      metricName: 'ExecutionFailed',
      dimensionsMap: { PipeName: pipe.pipeRef.pipeName },
      statistic: 'Sum',
      period: Duration.minutes(5),
    }),
    1,
    'The webhook pipe (table stream -> WebhookChanges queue) failed to put changes on the queue: no webhook is sent meanwhile.',
    topic,
    { runbook: 'webhookPipeFailing' },
  );
  // A subscription's cursor stuck behind a receiver that keeps failing (the sweep publishes how long, in hours).
  alarm(
    scope,
    'WebhookReceiverFailing',
    new Metric({
      namespace: TELEMETRY.namespace,
      metricName: TELEMETRY.webhookFailingHours,
      dimensionsMap: { service: TELEMETRY.service, bot: 'webhooks' },
      statistic: 'Maximum',
      period: Duration.minutes(15),
    }),
    WEBHOOK_FAILING_HOURS,
    `A webhook receiver has failed every retry for more than ${WEBHOOK_FAILING_HOURS} hours: its subscription's events wait (disabled after 5 days).`,
    topic,
    { runbook: 'webhookReceiverFailing' },
  );
  alarm(
    scope,
    'WebhookPipeDeadLetters',
    pipeDeadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    1,
    'The webhook pipe gave up on a batch of changes after an hour of failures (queue WebhookChangesPipeDeadLetters): their first attempts were not sent.',
    topic,
    { runbook: 'webhookPipeFailing' },
  );
  return fn;
}
