import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { writeAll } from './batch-items.ts';
import { documentClient, tableName } from './client.ts';
import { keys, revisionSortKey, SCHEMA_VERSION } from './table-design.ts';

/**
 * The webhook fan-out's marks: per object, the last `seq` of its change log handed on (runtime/webhooks.ts keeps each
 * object's changes in order by them), and the reads of that log a missing change needs.
 */

/** Where the fan-out stands with an object (`fanOutMark`): its item's key, by the change's kind and id. */
export const fanOutMarkKey = (o: { kind: string; id: string }) => keys.fanOutMark(o.kind.toUpperCase(), o.id);

/** The last seq handled of each object whose mark is among these items (the rest are not marks), by `kind#id`. */
export function fanOutMarks(items: readonly Record<string, any>[]): Map<string, number> {
  return new Map(
    items
      .filter((i) => i.entity === 'fanOutMark')
      .map((i) => [`${String(i.kind)}#${String(i.objectId)}`, Number(i.seq)] as const),
  );
}

/**
 * The objects' changes up to these seqs are handed on: their marks, 25 to a request (`seq` undefined: the mark is
 * removed, as it was before a handling that failed). Written beside the deliveries, not after them
 * (runtime/webhooks.ts: a batch handed again trusts no mark). Plain puts: one object's changes are handled one batch
 * at a time (its message group), and a mark left behind by a late second handling only makes the next change read
 * the log again.
 */
export async function markFannedOut(objects: readonly { kind: string; id: string; seq?: number }[]): Promise<void> {
  await writeAll(
    objects.map((o) =>
      o.seq === undefined
        ? { DeleteRequest: { Key: fanOutMarkKey(o) } }
        : {
            PutRequest: {
              Item: {
                ...fanOutMarkKey(o),
                entity: 'fanOutMark',
                schemaVersion: SCHEMA_VERSION,
                kind: o.kind,
                objectId: o.id,
                seq: o.seq,
              },
            },
          },
    ),
  );
}

/**
 * An object's revisions strictly between two seqs, newest first, read consistently (each was committed before the
 * change that follows it, so none is missed), page after page until `enough` says the rest are not wanted.
 */
export async function revisionsBetween(
  o: { kind: string; id: string },
  after: number,
  before: number,
  enough: (item: Record<string, any>) => boolean = () => false,
): Promise<Record<string, any>[]> {
  if (before - after < 2) return [];
  const out: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.revisions(o.kind.toUpperCase(), o.id),
          ':from': revisionSortKey(after + 1),
          ':to': revisionSortKey(before - 1),
        },
        ConsistentRead: true,
        ScanIndexForward: false,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (enough(item)) return out;
      out.push(item);
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}
