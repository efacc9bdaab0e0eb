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
import { PIPE_MESSAGE_TEMPLATE } from '../../functions/store/table-design.ts';
import { CHANGE_PARTITIONS, ROOT_SK } from '../../functions/store/table-design.ts';
import { invokeHandler } from './gateway.ts';

/**
 * `npm start`'s (and the tests') stand-in for the pipe of AWS (DynamoDB Streams -> FIFO SQS -> the delivery Lambda):
 * reads DynamoDB Local's stream of the table and hands the records to the same delivery handler, as SQS messages
 * whose bodies are the stream records, as the FIFO queue does: at most `BATCH` records a call, up to `CONCURRENCY`
 * calls at once, and never two calls with records of one object (its message group: the record's `PK`, as the pipe's
 * `messageGroupId`), whose records go in stream order. The stream is read again as soon as a read found records.
 */
export interface ChangeStream {
  stop(): Promise<void>;
  /** What the delivery handler was handed and spent so far (the bench's requests per delivery). */
  stats(): DeliveryStats;
  /** Resolves once every record written before the call has been handed to the delivery handler and done. */
  drained(): Promise<void>;
  /**
   * Hands the records set aside (after `RECEIVES` failed calls) to the handler again, as an operator redrives an SQS
   * dead-letter queue to its source (docs/operations.md): the journal takes what it does not hold yet, in order.
   */
  redrive(): void;
}

export interface DeliveryStats {
  calls: number;
  changes: number;
  deliveries: number;
  /** DynamoDB requests the calls made. */
  requests: number;
  /** Records given up after `RECEIVES` failed calls (SQS would move them to the dead-letter queue). */
  setAside: number;
}

/** As the FIFO queue's event source hands them: 10 messages a batch (its maximum), batches of distinct groups at once. */
const BATCH = 10;
/**
 * Calls at once. AWS's FIFO event source scales with the message groups; with 4 here the deliveries fell a quarter
 * behind the webhook bench's 100 changes a second (docs/bench.md), 32 only made the batches smaller.
 */
const CONCURRENCY = 16;
const RECEIVES = 5;
/** While records come the stream is read this often (DynamoDB Streams allows 5 reads a second a shard). */
const BUSY_INTERVAL_MS = 50;

/** A record's message group: the partition key of its item (an object's root), as lib/webhooks.ts's pipe sets it. */
const groupOf = (r: _Record): string => r.dynamodb?.Keys?.PK?.S ?? '';

const local = (endpoint: string) => ({
  endpoint,
  region: 'eu-central-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/** The pipe's filter (lib/webhooks.ts CHANGE_FILTERS) on a record: a root of a lot, asset or auction with a change log
 * and what the input template names. */
function isChangeRecord(record: StreamRecord | undefined): boolean {
  const pk = record?.Keys?.PK?.S ?? '';
  return (
    record?.Keys?.SK?.S === ROOT_SK &&
    CHANGE_PARTITIONS.some((p) => pk.startsWith(p)) &&
    record?.NewImage?.history?.M?.seq?.N !== undefined &&
    record.NewImage.lane?.S !== undefined &&
    record.NewImage.feed?.M?.id?.S !== undefined
  );
}

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
 * A stream record as the pipe reads it (its DynamoDB Streams source's event, which its input template makes the SQS
 * message's body): the SDK's record in the wire's JSON, `ApproximateCreationDateTime` in epoch
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

/**
 * EventBridge Pipes' input transformation, as its user guide states it: `"<$.path>"` in quotes takes the value's text,
 * `<$.path>` alone its JSON (an object or array as it is). Strict: a path that is not in the record fails the batch
 * (what AWS does then is not documented), so a template that names what some change lacks fails every test of it.
 */
export function fillTemplate(template: string, event: object): string {
  return template.replace(/("?)<\$\.([\w.-]+)>("?)/g, (_, open: string, path: string, close: string) => {
    const value = path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], event);
    if (value === undefined) throw new Error(`the pipe's input template: no ${path} in the record`);
    return open && close ? JSON.stringify(String(value)) : `${open}${JSON.stringify(value)}${close}`;
  });
}

/** The SQS message the delivery Lambda gets for one pipe record, as Lambda's SQS event source hands it on. */
export function queueMessage(
  body: string,
  queueArn = 'arn:aws:sqs:local:000000000000:WebhookChanges',
  receiveCount = 1,
) {
  const now = String(Date.now());
  return {
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
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
  let first = true;
  let stopped = false;
  let rounds = 0;
  const waiters: (() => void)[] = [];
  // The records read and not yet handed, in stream order; the groups of the calls under way.
  const queued: _Record[] = [];
  const busy = new Set<string>();
  let running = 0;
  let idle: (() => void) | undefined;

  /** Receives of a batch's records so far: after `RECEIVES`, as SQS's dead-letter queue, they are set aside (logged). */
  const receives = new WeakMap<_Record, number>();
  const totals: DeliveryStats = { calls: 0, changes: 0, deliveries: 0, requests: 0, setAside: 0 };
  /** The records set aside, in the order they were: what a redrive hands on again. */
  const deadLetters: _Record[] = [];
  const dispatch = () => {
    // Stopped: nothing more is handed (what was read and not handed is dropped, as a restart of `npm start` does).
    while (!stopped && running < CONCURRENCY && queued.length) {
      // The oldest records of the groups no call is working on, in stream order (one group's may be several).
      const batch: _Record[] = [];
      for (let i = 0; i < queued.length && batch.length < BATCH; i++)
        if (!busy.has(groupOf(queued[i]!))) batch.push(...queued.splice(i--, 1));
      if (!batch.length) return;
      const groups = new Set(batch.map(groupOf));
      for (const g of groups) busy.add(g);
      running++;
      // Each record as the pipe writes it into the queue (its input template), each message as Lambda's SQS event
      // source hands it on; a template that fails fails the batch.
      const records = () => ({
        Records: batch.map((r) =>
          queueMessage(fillTemplate(PIPE_MESSAGE_TEMPLATE, pipeRecord(r, StreamArn)), undefined, receives.get(r) ?? 1),
        ),
      });
      void Promise.resolve()
        .then(() => invokeHandler(webhookDelivery.handler, records()))
        .then((result: { changes: number; deliveries: number; requests: number }) => {
          totals.calls++;
          totals.changes += result.changes;
          totals.deliveries += result.deliveries;
          totals.requests += result.requests;
        })
        .catch((error: Error) => {
          log(`[webhooks] delivery: ${error.message}`);
          // As SQS does: the batch comes back, in front of its groups' later records, up to `RECEIVES` times.
          const again = batch.filter((r) => (receives.set(r, (receives.get(r) ?? 1) + 1).get(r) ?? 0) <= RECEIVES);
          totals.setAside += batch.length - again.length;
          deadLetters.push(...batch.filter((r) => !again.includes(r)));
          queued.unshift(...again);
        })
        .finally(() => {
          running--;
          for (const g of groups) busy.delete(g);
          dispatch();
          if (!running && (stopped || !queued.length)) idle?.();
        });
    }
  };

  let described = 0;
  const poll = async (): Promise<number> => {
    // New shards are looked for once a second (a shard lives for hours), not at every read.
    const shards =
      Date.now() - described < 1000
        ? []
        : ((await streams.send(new DescribeStreamCommand({ StreamArn }))).StreamDescription?.Shards ?? []);
    if (shards.length) described = Date.now();
    for (const shard of shards) {
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
    let read = 0;
    for (const [shard, iterator] of iterators) {
      let next = iterator;
      while (next) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: 1000 }));
        const records: _Record[] = page.Records ?? [];
        // The pipe's filter (lib/webhooks.ts CHANGE_FILTERS): only the roots of lots, assets and auctions with a
        // change log reach the queue.
        queued.push(...records.filter((r) => isChangeRecord(r.dynamodb)));
        read += records.length;
        dispatch();
        next = page.NextShardIterator;
        iterators.set(shard, next);
        if (!records.length) break;
      }
    }
    return read;
  };

  const loop = (async () => {
    while (!stopped) {
      const waiting = waiters.splice(0);
      let read = 0;
      try {
        read = await poll();
      } catch (error) {
        log(`[webhooks] change stream: ${(error as Error).message}`);
      }
      if (waiting.length && (running || queued.length)) await new Promise<void>((r) => (idle = r));
      idle = undefined;
      rounds++;
      for (const w of waiting) w();
      // Read again soon while records come (a batch's worth: what the calls under way cannot take yet waits here);
      // otherwise every `intervalMs`.
      if (!stopped) await new Promise((r) => setTimeout(r, read ? Math.min(intervalMs, BUSY_INTERVAL_MS) : intervalMs));
    }
    while (running) await new Promise<void>((r) => (idle = r));
  })();

  return {
    stats: () => ({ ...totals }),
    redrive() {
      for (const r of deadLetters) receives.delete(r);
      queued.push(...deadLetters.splice(0));
      dispatch();
    },
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
