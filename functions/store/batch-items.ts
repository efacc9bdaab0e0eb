import { BatchGetCommand, type BatchGetCommandOutput, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';

/** Items of any kind read and written many to a request, within DynamoDB's batch limits. */

/**
 * Items by key, read consistently, 100 keys a request (what DynamoDB leaves unprocessed is asked again); `projection`:
 * only those attributes.
 */
export async function batchGet(
  wanted: readonly Record<string, unknown>[],
  projection?: string,
): Promise<Record<string, any>[]> {
  const out: Record<string, any>[] = [];
  for (let at = 0; at < wanted.length; at += 100) {
    let Keys: Record<string, unknown>[] | undefined = wanted.slice(at, at + 100);
    while (Keys?.length) {
      const got: BatchGetCommandOutput = await documentClient().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: { Keys, ConsistentRead: true, ...(projection && { ProjectionExpression: projection }) },
          },
        }),
      );
      out.push(...(got.Responses?.[tableName()] ?? []));
      Keys = got.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return out;
}

/** DynamoDB's most items a BatchWriteItem takes. */
const BATCH_WRITE_ITEMS = 25;

/**
 * Puts items, 25 to a request, the requests of one call at once (what DynamoDB leaves unprocessed is sent again): no
 * condition, for items nobody else writes. Half the write units of a transaction (which takes 2 per item).
 */
export async function putAll(items: readonly Record<string, unknown>[]): Promise<void> {
  await writeAll(items.map((Item) => ({ PutRequest: { Item } })));
}

export type WriteRequest =
  | { PutRequest: { Item: Record<string, unknown> } }
  | { DeleteRequest: { Key: Record<string, unknown> } };

/** Puts and deletes, 25 to a request, as `putAll`. */
export async function writeAll(writes: readonly WriteRequest[]): Promise<void> {
  const TableName = tableName();
  const chunks: WriteRequest[][] = [];
  for (let at = 0; at < writes.length; at += BATCH_WRITE_ITEMS) chunks.push(writes.slice(at, at + BATCH_WRITE_ITEMS));
  await Promise.all(
    chunks.map(async (chunk) => {
      let requests = chunk;
      for (let round = 0; requests.length; round++) {
        // Still throttled after 10 rounds (about 6 s): the caller fails (a webhook batch comes back, and is written then
        // by transactions).
        if (round === 10) throw new Error('batch writes left unprocessed');
        if (round) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** round)));
        const done = await documentClient().send(new BatchWriteCommand({ RequestItems: { [TableName]: requests } }));
        requests = (done.UnprocessedItems?.[TableName] ?? []) as typeof requests;
      }
    }),
  );
}
