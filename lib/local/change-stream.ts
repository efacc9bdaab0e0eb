import { DescribeTableCommand, DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
  type StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { createHash, randomUUID } from 'node:crypto';
import { webhookDelivery } from '../../functions/bots.ts';
import { invokeHandler } from './gateway.ts';

/**
 * `npm start`'s (and the tests') stand-in for the pipe of AWS (DynamoDB Streams -> SQS -> the delivery Lambda): reads
 * DynamoDB Local's stream of the table every `intervalMs` and hands each batch of records to the same delivery
 * handler, as SQS messages whose bodies are the stream records as the pipe writes them (pipeRecord). Changes are delivered within a second.
 */
export interface ChangeStream {
  stop(): Promise<void>;
  /** Resolves once every record written before the call has been handed to the delivery handler. */
  drained(): Promise<void>;
}

/** The pipe's queue receives a batch this many times before its dead-letter queue takes it (lib/webhooks.ts). */
const MAX_RECEIVES = 5;

const local = (endpoint: string) => ({
  endpoint,
  region: 'eu-central-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/** The delivery Lambda's batch size on the queue (lib/webhooks.ts `SqsEventSource`). */
const QUEUE_BATCH = 10;

type Attribute = NonNullable<StreamRecord['NewImage']>[string];
type AttributeJson = Record<string, unknown>;

/** An attribute value as DynamoDB JSON (the stream's wire form): binary values in base64, as AWS writes them. */
function attributeJson(value: Attribute): AttributeJson {
  const v = value as unknown as Record<string, unknown>;
  if (v.B instanceof Uint8Array) return { B: Buffer.from(v.B).toString('base64') };
  if (Array.isArray(v.BS)) return { BS: (v.BS as Uint8Array[]).map((b) => Buffer.from(b).toString('base64')) };
  if (Array.isArray(v.L)) return { L: (v.L as Attribute[]).map(attributeJson) };
  if (v.M && typeof v.M === 'object') return { M: imageJson(v.M as Record<string, Attribute>) };
  return v;
}
const imageJson = (image: Record<string, Attribute> | undefined) =>
  image && Object.fromEntries(Object.entries(image).map(([k, v]) => [k, attributeJson(v)]));

/**
 * A stream record as the pipe hands it on (its DynamoDB Streams source's event, written as the SQS message body
 * since the pipe has no input template): the SDK's record in the wire's JSON, `ApproximateCreationDateTime` in epoch
 * seconds, binary values in base64, and the stream's ARN (test/support/aws/events.ts checks it against AWS's shape).
 */
export function pipeRecord(record: _Record, streamArn: string) {
  const { dynamodb: d = {} } = record;
  const time = d.ApproximateCreationDateTime;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    dynamodb: {
      ...(time && { ApproximateCreationDateTime: Math.floor(time.getTime() / 1000) }),
      Keys: imageJson(d.Keys),
      ...(d.NewImage && { NewImage: imageJson(d.NewImage) }),
      ...(d.OldImage && { OldImage: imageJson(d.OldImage) }),
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
    eventSourceARN: streamArn,
  };
}

/** The SQS message the delivery Lambda gets for one pipe record, as Lambda's SQS event source hands it on. */
export function queueMessage(record: object, queueArn = 'arn:aws:sqs:local:000000000000:WebhookChanges') {
  const body = JSON.stringify(record);
  const now = String(Date.now());
  return {
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: now,
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: now,
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'local',
  };
}

export async function startChangeStream(options: {
  endpoint: string;
  table: string;
  intervalMs?: number;
  /** `LATEST`: only changes from now on (a restart of `npm start` does not send again what the stream still holds). */
  from?: 'TRIM_HORIZON' | 'LATEST';
  log?: (line: string) => void;
}): Promise<ChangeStream> {
  const { endpoint, table, intervalMs = 200, from = 'TRIM_HORIZON', log = console.error } = options;
  const db = new DynamoDBClient(local(endpoint));
  const streams = new DynamoDBStreamsClient(local(endpoint));
  let { Table } = await db.send(new DescribeTableCommand({ TableName: table }));
  if (!Table?.StreamSpecification?.StreamEnabled) {
    // A table kept from before the webhooks: its stream is turned on once.
    await db.send(
      new UpdateTableCommand({
        TableName: table,
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      }),
    );
    ({ Table } = await db.send(new DescribeTableCommand({ TableName: table })));
  }
  const StreamArn = Table!.LatestStreamArn!;
  const iterators = new Map<string, string | undefined>(); // shard -> next iterator (undefined: closed)
  const failures = new Map<string, number>(); // shard -> failed tries of the batch at its iterator
  let first = true;
  let stopped = false;
  let rounds = 0;
  const waiters: (() => void)[] = [];

  const poll = async () => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (iterators.has(shard.ShardId!)) continue;
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn,
          ShardId: shard.ShardId!,
          ShardIteratorType: first && from === 'LATEST' ? 'LATEST' : 'TRIM_HORIZON',
        }),
      );
      iterators.set(shard.ShardId!, ShardIterator);
    }
    first = false;
    for (const [shard, iterator] of iterators) {
      let next = iterator;
      while (next) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: 1000 }));
        const records: _Record[] = page.Records ?? [];
        if (records.length) {
          try {
            // As the queue hands them to the delivery Lambda: at most ten messages an invocation (lib/webhooks.ts).
            for (let at = 0; at < records.length; at += QUEUE_BATCH)
              await invokeHandler(webhookDelivery.handler, {
                Records: records.slice(at, at + QUEUE_BATCH).map((r) => queueMessage(pipeRecord(r, StreamArn))),
              });
            failures.delete(shard);
          } catch (error) {
            // As the queue does in AWS: a batch is tried again, and after its last receive set aside (logged here,
            // the dead-letter queue there), never read forever in place of the records behind it.
            const failed = (failures.get(shard) ?? 0) + 1;
            if (failed < MAX_RECEIVES) {
              failures.set(shard, failed);
              throw error;
            }
            failures.delete(shard);
            log(`[webhooks] change stream: a batch failed ${failed} times, set aside: ${(error as Error).message}`);
          }
        }
        next = page.NextShardIterator;
        iterators.set(shard, next);
        if (!records.length) break;
      }
    }
  };

  const loop = (async () => {
    while (!stopped) {
      const waiting = waiters.splice(0);
      try {
        await poll();
      } catch (error) {
        log(`[webhooks] change stream: ${(error as Error).message}`);
      }
      rounds++;
      for (const w of waiting) w();
      if (!stopped) await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();

  return {
    async stop() {
      stopped = true;
      await loop;
      db.destroy();
      streams.destroy();
    },
    // Two rounds: the one under way may have read its shards before the caller's last write.
    drained: () => {
      const target = rounds + 2;
      return new Promise<void>((resolve) => {
        const check = () => (rounds >= target ? resolve() : waiters.push(check));
        check();
      });
    },
  };
}
