import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { keys, SCHEMA_VERSION } from './table-design.ts';

/** The kept first answer of a create sent with an Idempotency-Key: sealed, with the hash of the request it answered. */
export interface IdempotencyRecord {
  /** SHA-256 of the request's `data`: a key sent again with another request is refused. */
  request: string;
  /** The first answer, encrypted with a key only the Idempotency-Key gives (runtime/idempotency.ts). */
  sealed: string;
}

export async function readIdempotencyRecord(scope: string): Promise<IdempotencyRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.idempotency(scope), ConsistentRead: true }),
  );
  return Item && { request: String(Item.request), sealed: String(Item.sealed) };
}

/** Keeps the first answer until `expiresAt` (Unix seconds, the table's `ttl`); the first one kept stays. */
export async function keepIdempotencyRecord(scope: string, record: IdempotencyRecord, expiresAt: number) {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.idempotency(scope),
          entity: 'idempotency',
          schemaVersion: SCHEMA_VERSION,
          ...record,
          ttl: expiresAt,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error; // kept already (this Put sent again by the SDK after a lost answer)
  }
}
