import { AsyncLocalStorage } from 'node:async_hooks';
import { type AttributeValue, DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand as DocumentQueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '#platform/config.ts';
import { observeClient } from './aws-calls.ts';

/**
 * One document client per Lambda container (module scope), pointed at DynamoDB Local when
 * DYNAMODB_ENDPOINT is set. Every request it sends is counted in the current `countRequests` scope:
 * the local gateway reports the count per API call (bench, tests: "a read is one DynamoDB request").
 */
// One per process, shared by every copy of this module: the bundled local mode runs a bundle per route in one process,
// each with its own copy, and the gateway counts with the sources' copy.
const COUNTER = Symbol.for('agora.dynamodbRequestCounter');
const globals = globalThis as Record<symbol, unknown>;
globals[COUNTER] ??= new AsyncLocalStorage();
const counter = globals[COUNTER] as AsyncLocalStorage<Scope>;

/**
 * Measures one request of a measured scope (the local gateway's `x-agora-capacity`, lib/local/capacity.ts: it asks
 * DynamoDB what the request consumed). Its code is the local runtime's: no bundle carries it.
 */
export type Meter = (
  command: string | undefined,
  args: { input: any },
  next: (args: any) => Promise<any>,
) => Promise<any>;
interface Scope {
  count: number;
  meter?: Meter;
}

/** `meter`: also what the requests consume (local runtime only). */
export function countRequests<T>(fn: () => Promise<T>, meter?: Meter): Promise<{ result: T; requests: number }> {
  // A scope inside a measured one (a bot's own count, in a measured run) measures into the same figures.
  const scope: Scope = { count: 0, meter: meter ?? counter.getStore()?.meter };
  return counter.run(scope, async () => ({ result: await fn(), requests: scope.count }));
}

let client: DynamoDBDocumentClient | undefined;
let reader: DynamoDBClient | undefined;
/** The HTTP handler (its connection pool) both clients share: one set of connections per container. */
let requestHandler: DynamoDBClient['config']['requestHandler'] | undefined;

type Next = (args: any) => Promise<any>;
/** A middleware of the local runtime only: the fault injector (faults.ts), installed by the local gateway. */
export type LocalMiddleware = (next: Next, context: { commandName?: string }) => Next;
// On globalThis, like the counter: every copy of this module (one per bundle in the bundled local mode) runs it, and
// the Lambda bundles never carry faults.ts (they import nothing of it; in Lambda none is ever installed).
const LOCAL_MIDDLEWARE = Symbol.for('agora.localDynamoDbMiddleware');
const LOCAL_ANSWER_MIDDLEWARE = Symbol.for('agora.localDynamoDbAnswerMiddleware');
/** `answers`: a middleware that sees each attempt's answer inside the SDK's retries (faults.ts drops answers there). */
export function installLocalMiddleware(middleware: LocalMiddleware | undefined, answers?: LocalMiddleware): void {
  globals[LOCAL_MIDDLEWARE] = middleware;
  globals[LOCAL_ANSWER_MIDDLEWARE] = answers;
}

/**
 * How the raw client is instrumented before use: the runtime (wireRuntime, for the request stack and the bots) registers the X-Ray subsegments (xray.ts) here, so the
 * authorizer (which uses the store but not the kit) is not traced.
 */
let instrument = (raw: DynamoDBClient): DynamoDBClient => raw;
export function instrumentClient(fn: (raw: DynamoDBClient) => DynamoDBClient): void {
  instrument = fn;
}

/** A low-level client with the service's middlewares: the request counter, and outside Lambda the fault injector. */
function lowLevelClient(options: { cacheMiddleware: boolean }): DynamoDBClient {
  const { dynamodbEndpoint: endpoint, awsRegion, inLambda } = config();
  const raw = instrument(
    new DynamoDBClient({
      endpoint,
      region: awsRegion ?? 'eu-central-1',
      ...(endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      ...(requestHandler && { requestHandler }),
      ...options,
    }),
  );
  requestHandler ??= raw.config.requestHandler;
  // The SDK's logger middleware builds a redacted copy of every input and output for the client's logger, which here is
  // its no-op one: about 4 % of the server's CPU under the webhook bench (bench/PROFILE.md). Nothing logs through it.
  raw.middlewareStack.remove('loggerMiddleware');
  // The tests record each call as its Lambda would make it (aws-calls.ts); in Lambda nothing is observed.
  if (!inLambda) observeClient(raw, 'DynamoDB');
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      const scope = counter.getStore();
      if (scope) scope.count++;
      return scope?.meter ? scope.meter(context.commandName, args, next) : next(args);
    },
    { step: 'initialize', name: 'agoraRequestCounter' },
  );
  // Fault injection exists only outside Lambda (tests, `npm start`), and acts only while AGORA_FAULTS is set. Before the
  // counter and the SDK's retries: every injected fault reaches the service's own code.
  if (!inLambda)
    raw.middlewareStack.add(
      (next, context) => (args) => {
        const local = globals[LOCAL_MIDDLEWARE] as LocalMiddleware | undefined;
        return local ? local(next, context)(args) : next(args);
      },
      { step: 'initialize', priority: 'high', name: 'agoraLocalMiddleware' },
    );
  // Inside the SDK's retries (after its retry middleware, so once per attempt; what it awaits is the parsed answer,
  // the response read to its end): an answer the injector drops there is retried by the SDK itself, as when a proxy
  // loses the answer of a write that happened.
  if (!inLambda)
    raw.middlewareStack.add(
      (next, context) => (args) => {
        const local = globals[LOCAL_ANSWER_MIDDLEWARE] as LocalMiddleware | undefined;
        return local ? local(next, context)(args) : next(args);
      },
      { step: 'finalizeRequest', priority: 'low', name: 'agoraLocalAnswerMiddleware' },
    );
  return raw;
}

export function documentClient(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(lowLevelClient({ cacheMiddleware: false }), {
    marshallOptions: { convertEmptyValues: false, removeUndefinedValues: true },
  });
  return client;
}

/**
 * The client of the read every GET of one object makes (its aggregate), kept to `queryPartition`: it resolves its
 * middleware stack once per command class (`cacheMiddleware`), where every other send builds it anew (about 0.1 ms of
 * CPU a call, bench/PROFILE.md). Only low-level commands may go through it, hence not exported: a document client
 * command's cached handler would send the first command's input again. (No DynamoDB middleware reads the cached
 * context's command instance.)
 */
function readClient(): DynamoDBClient {
  reader ??= lowLevelClient({ cacheMiddleware: true });
  return reader;
}

/** One page of a partition (`PK`), read consistently, its items unmarshalled; `next` when there is more. */
export async function queryPartition(
  pk: string,
  start?: Record<string, AttributeValue>,
): Promise<{ items: Record<string, any>[]; next?: Record<string, AttributeValue> }> {
  const page = await readClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': { S: pk } },
      ConsistentRead: true,
      ExclusiveStartKey: start,
    }),
  );
  return { items: (page.Items ?? []).map((item) => unmarshall(item)), next: page.LastEvaluatedKey };
}

/** Read at first use, not at import: tests and `npm start` choose the table before the first request. */
export function tableName(): string {
  const name = config().tableName;
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
}

/**
 * Every item a Query finds, page after page (the document client's form). For Queries whose whole answer is bounded
 * by what they read (a room's connections, one subscription list); a listing reads one page a request instead.
 */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new DocumentQueryCommand({ ...input, ExclusiveStartKey }));
    out.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}
