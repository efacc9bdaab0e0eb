import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { sha256 } from '#domain/kernel/ids.ts';
import type { Role } from '#domain/kernel/principal.ts';
import { documentClient, tableName } from './client.ts';
import { FEED_VIEW, keyParts, keys } from './table-design.ts';

export interface ApiKeyRecord {
  name: string;
  role: Role;
  levels: string;
}

/** A stored key as `npm run keys -- list` shows it: never the key, only its hash (and a short id from it). */
export interface ApiKeyEntry extends ApiKeyRecord {
  hash: string;
  /** The first 12 hex digits of the hash: what `revoke` takes besides a name. */
  id: string;
  created?: string;
}

/** The listing feed (GSI1) of the keys: `revoke` and `list` Query it, never Scan the table. */
const KEYS_FEED = 'APIKEYS';

/** API keys are stored only as the SHA-256 of the key; the item holds the key's name, role and levels. */
export async function findApiKey(key: string): Promise<ApiKeyRecord | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(sha256(key)) }));
  return out.Item ? { name: out.Item.name, role: out.Item.role, levels: out.Item.levels } : undefined;
}

/** The stored item of a key: keyed by the key's hash, on the keys feed by name. */
export function apiKeyItem(key: string, record: ApiKeyRecord, created: string): Record<string, unknown> {
  const hash = sha256(key);
  return {
    ...keys.apiKey(hash),
    entity: 'apiKey',
    ...record,
    created,
    GSI1PK: KEYS_FEED,
    GSI1SK: `${record.name}#${hash}`,
    // What the keys feed shows (the index carries only this view): never the key, which is not stored at all.
    [FEED_VIEW]: { ...record, created },
  };
}

export async function putApiKey(key: string, record: ApiKeyRecord, created = new Date().toISOString()): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: apiKeyItem(key, record, created) }));
}

/** Every key, by name (one Query on the keys feed, paged). */
export async function listApiKeys(): Promise<ApiKeyEntry[]> {
  const out: ApiKeyEntry[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :feed',
        ExpressionAttributeValues: { ':feed': KEYS_FEED },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const hash = keyParts.apiKeyHash(item.PK);
      const view = item[FEED_VIEW];
      out.push({
        hash,
        id: hash.slice(0, 12),
        name: view.name,
        role: view.role,
        levels: view.levels,
        created: view.created,
      });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** Deletes the stored key of that hash; false when there was none. */
export async function deleteApiKey(hash: string): Promise<boolean> {
  const out = await documentClient()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.apiKey(hash),
        ConditionExpression: 'attribute_exists(PK)',
        ReturnValues: 'ALL_OLD',
      }),
    )
    .catch((error) => {
      if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
      throw error;
    });
  return !!out?.Attributes;
}
