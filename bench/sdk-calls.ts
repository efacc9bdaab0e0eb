/**
 * `npx tsx bench/sdk-calls.ts`: the CPU one DynamoDB call costs the caller, by SDK configuration. 16 concurrent
 * callers send BENCH_CALLS (default 8,000) consistent Queries of one small item to DynamoDB Local, four rounds; the
 * process's own CPU time per call is printed for each configuration. It tells how much of a request's cost is the
 * SDK itself, and what configuring it differently would save (bench/PROFILE.md).
 */
import {
  CreateTableCommand,
  DynamoDBClient,
  type DynamoDBClientConfig,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand as DocumentQuery } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 8000);
const TABLE = 'sdk-calls';
const dynamo = await startDynamoDbLocal();
const clientOf = (extra: DynamoDBClientConfig = {}) =>
  new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'eu-central-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...extra,
  });

const setup = clientOf();
await setup.send(
  new CreateTableCommand({
    TableName: TABLE,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'SK', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
  }),
);
await setup.send(
  new PutItemCommand({
    TableName: TABLE,
    Item: { PK: { S: 'LOT#1' }, SK: { S: '#ROOT' }, data: { M: { title: { S: 'x'.repeat(200) } } } },
  }),
);

const query = { TableName: TABLE, KeyConditionExpression: 'PK = :pk', ConsistentRead: true };
const low = (client: DynamoDBClient) => async () =>
  (await client.send(new QueryCommand({ ...query, ExpressionAttributeValues: { ':pk': { S: 'LOT#1' } } }))).Items?.map(
    (i) => unmarshall(i),
  );
const document = DynamoDBDocumentClient.from(clientOf());
const cached = clientOf({ cacheMiddleware: true });
const lean = clientOf({ cacheMiddleware: true });
lean.middlewareStack.remove('loggerMiddleware');
const configurations: [string, () => Promise<unknown>][] = [
  [
    'document client (the service)',
    () => document.send(new DocumentQuery({ ...query, ExpressionAttributeValues: { ':pk': 'LOT#1' } })),
  ],
  ['low-level client + unmarshall', low(clientOf())],
  ['  + cacheMiddleware', low(cached)],
  ['  + no logger middleware', low(lean)],
];

/** The caller's CPU per call, 16 calls in flight. */
async function cpuPerCall(call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 300; i++) await call(); // warm: connections open, code compiled
  const before = process.cpuUsage();
  let left = CALLS;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) await call();
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / CALLS;
}

for (let round = 1; round <= 4; round++) {
  for (const [name, call] of configurations)
    console.log(`round ${round}  ${name.padEnd(32)} ${(await cpuPerCall(call)).toFixed(3)} ms CPU a call`);
}
dynamo.stop();
process.exit(0);
