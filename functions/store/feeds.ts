import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { FeedReader } from '#domain/kernel/aggregate.ts';
import type { JsonObject } from '#domain/kernel/objects.ts';
import { documentClient, tableName } from './client.ts';
import { FEED_VIEW, keys } from './table-design.ts';

/** The instant part of a feed sort key `<utc>#<id>`. */
const instantOf = (sk: string) => sk.slice(0, sk.indexOf('#'));

/**
 * One Query on the listing index per page, whatever the table size. The next page starts strictly after the
 * offset's instant, so a page never ends inside a tie (items written at the same instant, e.g. a lot's assets
 * settled in one transaction): it reads one row more than asked and, only when that row ties with the last one,
 * a second Query completes the tie.
 */
export const feedReader: FeedReader = {
  async page({ feed, test, after, descending, limit }) {
    const query = (condition: string, values: JsonObject, max?: number) =>
      documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'GSI1',
          KeyConditionExpression: `GSI1PK = :pk${condition}`,
          ExpressionAttributeValues: { ':pk': keys.feed(feed, test), ...values },
          ScanIndexForward: !descending,
          Limit: max,
        }),
      );
    // Exclusive bounds: '~' sorts after '#<id>', so `after` skips every row of that exact instant.
    const range = after === undefined ? '' : descending ? ' AND GSI1SK < :after' : ' AND GSI1SK > :after';
    const first = await query(
      range,
      after === undefined ? {} : { ':after': descending ? after : `${after}~` },
      limit + 1,
    );
    let rows = first.Items ?? [];
    if (rows.length > limit) {
      const last = rows[limit - 1].GSI1SK as string;
      const tie = instantOf(last);
      rows = rows.slice(0, limit);
      if (instantOf(first.Items![limit].GSI1SK) === tie) {
        const bounds = descending ? { ':from': `${tie}#`, ':to': last } : { ':from': last, ':to': `${tie}#~` };
        const rest = await query(' AND GSI1SK BETWEEN :from AND :to', bounds);
        rows.push(...(rest.Items ?? []).filter((i) => i.GSI1SK !== last));
      }
    }
    return {
      items: rows.map((i) => ({ id: i[FEED_VIEW].id, dateModified: i[FEED_VIEW].dateModified, root: i[FEED_VIEW] })),
    };
  },
};
