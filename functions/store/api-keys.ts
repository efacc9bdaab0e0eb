import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { sha256 } from '#domain/kernel/ids.ts';
import type { Role } from '#domain/kernel/principal.ts';
import { documentClient, tableName } from './client.ts';
import { keys } from './table-design.ts';

export interface ApiKeyRecord {
  name: string;
  role: Role;
  levels: string;
}

/** API keys are stored only as the SHA-256 of the key; the item holds the key's name, role and levels. */
export async function findApiKey(key: string): Promise<ApiKeyRecord | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(sha256(key)) }));
  return out.Item ? { name: out.Item.name, role: out.Item.role, levels: out.Item.levels } : undefined;
}

export async function putApiKey(key: string, record: ApiKeyRecord): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.apiKey(sha256(key)), entity: 'apiKey', ...record } }),
  );
}
