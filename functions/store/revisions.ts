import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { RevisionReader } from '#domain/history/revisions.ts';
import { documentClient, tableName } from './client.ts';
import { keys, revisionSortKey } from './table-design.ts';

/**
 * An object's revisions from a number on, and its log's last revision: each one Query on its log's partition, whatever
 * the log's length.
 */
export const revisionReader: RevisionReader = {
  async page(kind, id, from, count) {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK >= :from',
        ExpressionAttributeValues: { ':pk': keys.revisions(kind, id), ':from': revisionSortKey(from) },
        ProjectionExpression: 'seq, revision, objectType, draftOf',
        Limit: count,
      }),
    );
    return {
      revisions: Items.map((i) => ({
        seq: i.seq,
        revision: i.revision,
        type: i.objectType,
        ...(i.draftOf !== undefined && { draftOf: i.draftOf }),
      })),
    };
  },
  async head(kind, id) {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.revisions(kind, id) },
        ProjectionExpression: 'seq, draftOf',
        ScanIndexForward: false,
        Limit: 1,
      }),
    );
    const last = Items[0];
    return last && { seq: last.seq, ...(last.draftOf !== undefined && { draftOf: last.draftOf }) };
  },
};
