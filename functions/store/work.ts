import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Micros } from '#domain/kernel/time.ts';
import { sortableUtc } from '#domain/kernel/time.ts';
import { documentClient, tableName } from './client.ts';
import { keys } from './table-design.ts';

/** An item a bot must look at: its aggregate kind and id, from the sparse work index. */
export interface DueWork {
  kind: string;
  id: string;
}

/** One page of the work index: what is due for `bot` at `now`, oldest first, only the keys. */
export const dueWorkQuery = (
  bot: string,
  now: Micros,
  limit: number,
  ExclusiveStartKey?: Record<string, unknown>,
): QueryCommandInput => ({
  TableName: tableName(),
  IndexName: 'GSI2',
  KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :due',
  // '~' sorts after '#<id>': every item due at exactly `now` is included.
  ExpressionAttributeValues: { ':pk': keys.work(bot), ':due': `${sortableUtc(now)}~` },
  ProjectionExpression: 'PK',
  Limit: limit,
  ExclusiveStartKey,
});

/** Everything due for `bot` at `now`, oldest first: Queries on GSI2 (`WORK#<bot>`, due <= now), never a Scan. */
export async function dueWork(bot: string, now: Micros, limit = 100): Promise<DueWork[]> {
  const out: DueWork[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand(dueWorkQuery(bot, now, limit - out.length, ExclusiveStartKey)),
    );
    for (const item of page.Items ?? []) {
      const [kind, id] = String(item.PK).split('#');
      out.push({ kind, id });
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && out.length < limit);
  return out;
}
