import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { TABLE_KEYS } from './table-design.ts';

/**
 * Whether the table answers a read within `timeoutMs`: one GetItem of a key nothing stores (the cheapest call that
 * proves the table exists, the role may read it and DynamoDB answers).
 */
export async function tableAnswers(timeoutMs = 2000): Promise<boolean> {
  try {
    await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: { [TABLE_KEYS.partitionKey]: 'HEALTH', [TABLE_KEYS.sortKey]: 'HEALTH' },
      }),
      { abortSignal: AbortSignal.timeout(timeoutMs) },
    );
    return true;
  } catch {
    return false;
  }
}
