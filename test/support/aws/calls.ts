import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AwsCall } from '../../../functions/store/aws-calls.ts';
import { INDEXES, TABLE_KEYS } from '../../../functions/store/table-design.ts';

/**
 * A call the code made, as IAM authorizes it: the action, the resource (named by what it is, resolved to an ARN of the
 * test environment by environment.ts) and the request's condition keys. One SDK call may be several (a transaction is
 * authorized item by item, a PutObject with tags is also a PutObjectTagging).
 */
export type Resource =
  | { kind: 'table'; index?: string }
  | { kind: 'object'; key: string }
  | { kind: 'secret'; id: string }
  | { kind: 'stateMachine' }
  | { kind: 'connection'; method: string }
  | { kind: 'channelNamespace'; channel: string };
export interface IamRequest {
  action: string;
  resource: Resource;
  context?: Record<string, string[]>;
}
/** One line of the recordings: `caller` is the Lambda (`route:<route key>`, `bot:<name>`, `room:<name>`...). */
export interface RecordedCall extends IamRequest {
  caller: string;
}

/** The folder the integration workers write their recordings into (one per `npm test` run: vitest.config.ts). */
export const callsFolder = (): string | undefined => process.env.AGORA_AWS_CALLS || undefined;

/** Every distinct call recorded in `folder` (JSON lines, one file per worker). */
export function readRecordings(folder: string): RecordedCall[] {
  const seen = new Set<string>();
  if (!existsSync(folder)) return [];
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.jsonl')))
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) if (line) seen.add(line);
  return [...seen].sort().map((line) => JSON.parse(line) as RecordedCall);
}

const PARTITION_KEYS = new Map<string | undefined, string>([
  [undefined, TABLE_KEYS.partitionKey],
  ...INDEXES.map((i) => [i.name, i.partitionKey] as [string, string]),
]);

/** A key's value as recorded: its kind (`LOT#`) and a placeholder for the id, so calls dedupe across tests. */
const shape = (value: unknown): string => {
  const text =
    typeof value === 'object' && value !== null && 'S' in value ? String((value as { S: unknown }).S) : value;
  if (typeof text !== 'string') return String(text);
  const hash = text.indexOf('#');
  return hash < 0 ? text : `${text.slice(0, hash + 1)}<id>`;
};
const leading = (values: unknown[]) => ({ 'dynamodb:LeadingKeys': [...new Set(values.map(shape))].sort() });
const itemKey = (item: Record<string, unknown> | undefined) => item?.[TABLE_KEYS.partitionKey];

/** The partition key value a Query's key condition names (`PK = :pk`, `#pk = :v`). */
function queryKey(input: Record<string, any>): unknown {
  const names: Record<string, string> = input.ExpressionAttributeNames ?? {};
  const key = PARTITION_KEYS.get(input.IndexName);
  for (const [, left, placeholder] of String(input.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g))
    if ((names[left] ?? left) === key) return input.ExpressionAttributeValues?.[placeholder];
  return undefined;
}

const ITEM_ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  GetItem: 'GetItem',
  Put: 'PutItem',
  PutItem: 'PutItem',
  Update: 'UpdateItem',
  UpdateItem: 'UpdateItem',
  Delete: 'DeleteItem',
  DeleteItem: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/** How IAM sees one SDK call (the service authorization reference of each service). */
export function iamRequests(call: AwsCall): IamRequest[] {
  const name = call.command.replace(/Command$/, '');
  const input = call.input as Record<string, any>;
  switch (call.service) {
    case 'DynamoDB': {
      const table = { kind: 'table' } as const;
      if (ITEM_ACTIONS[name]) {
        const key = name.startsWith('Put') ? itemKey(input.Item) : itemKey(input.Key);
        return [{ action: `dynamodb:${ITEM_ACTIONS[name]}`, resource: table, context: leading([key]) }];
      }
      if (name === 'Query') {
        const key = queryKey(input);
        return [
          {
            action: 'dynamodb:Query',
            resource: { kind: 'table', ...(input.IndexName && { index: input.IndexName }) },
            ...(key !== undefined && { context: leading([key]) }),
          },
        ];
      }
      if (name === 'Scan') return [{ action: 'dynamodb:Scan', resource: table }];
      // A transaction is authorized as each of its items' own action (DynamoDB's IAM reference).
      if (
        name === 'TransactWrite' ||
        name === 'TransactWriteItems' ||
        name === 'TransactGet' ||
        name === 'TransactGetItems'
      )
        return (input.TransactItems as Record<string, any>[]).flatMap((entry) =>
          Object.entries(entry).map(([kind, item]) => ({
            action: `dynamodb:${ITEM_ACTIONS[kind]}`,
            resource: table,
            context: leading([itemKey(kind === 'Put' ? item.Item : item.Key)]),
          })),
        );
      if (name === 'BatchGet' || name === 'BatchGetItem')
        return Object.values(input.RequestItems as Record<string, { Keys: Record<string, unknown>[] }>).map(
          ({ Keys }) => ({ action: 'dynamodb:BatchGetItem', resource: table, context: leading(Keys.map(itemKey)) }),
        );
      if (name === 'BatchWrite' || name === 'BatchWriteItem')
        return Object.values(input.RequestItems as Record<string, Record<string, any>[]>).map((requests) => ({
          action: 'dynamodb:BatchWriteItem',
          resource: table,
          context: leading(requests.map((r) => itemKey(r.PutRequest?.Item ?? r.DeleteRequest?.Key))),
        }));
      return [{ action: `dynamodb:${name}`, resource: table }];
    }
    case 'S3': {
      const object = { kind: 'object', key: String(input.Key).replace(/\/[^/]+$/, '/<id>') } as const;
      if (name === 'PutObject')
        // Tags given with the object need the tagging permission too (S3's PutObject reference).
        return [
          { action: 's3:PutObject', resource: object },
          ...(input.Tagging ? [{ action: 's3:PutObjectTagging', resource: object }] : []),
        ];
      if (name === 'HeadObject' || name === 'GetObject') return [{ action: 's3:GetObject', resource: object }];
      return [{ action: `s3:${name}`, resource: object }];
    }
    case 'SFN':
      return [{ action: `states:${name}`, resource: { kind: 'stateMachine' } }];
    case 'ApiGatewayManagementApi': {
      const method = { PostToConnection: 'POST', DeleteConnection: 'DELETE', GetConnection: 'GET' }[name] ?? name;
      return [{ action: 'execute-api:ManageConnections', resource: { kind: 'connection', method } }];
    }
    case 'AppSyncEvents':
      // A publish is authorized on the channel's namespace (AppSync's IAM reference: `channelNamespace/<name>`).
      return [
        { action: 'appsync:EventPublish', resource: { kind: 'channelNamespace', channel: String(input.channel) } },
      ];
    case 'SecretsManager':
      return [{ action: `secretsmanager:${name}`, resource: { kind: 'secret', id: String(input.SecretId) } }];
    default:
      return [{ action: `${call.service.toLowerCase()}:${name}`, resource: { kind: 'table' } }];
  }
}
