import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { FeedReader } from '#domain/kernel/aggregate.ts';
import { documentClient, tableName } from './client.ts';
import { keys } from './table-design.ts';

/** One Query on the listing index per page, whatever the table size. */
export const feedReader: FeedReader = {
  async page({ feed, test, after, descending, limit }) {
    const pk = keys.feed(feed, test);
    // Exclusive bounds: '~' sorts after '#<id>' so `after` skips every row of that exact instant.
    const range = after === undefined ? '' : descending ? ' AND GSI1SK < :after' : ' AND GSI1SK > :after';
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: `GSI1PK = :pk${range}`,
        ExpressionAttributeValues: { ':pk': pk, ...(after !== undefined && { ':after': descending ? after : `${after}~` }) },
        ScanIndexForward: !descending,
        Limit: limit,
      }),
    );
    return {
      items: (out.Items ?? []).map((i) => ({ id: i.data.id, dateModified: i.data.dateModified, root: i.data })),
    };
  },
};
