import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../../functions/store/client.ts';
import { takeable, takeCursor } from '../../../functions/store/cursors.ts';
import { keys } from '../../../functions/store/table-design.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

/** A subscription's `lots` cursor, made failing (a retry waiting, or only failed passes) as a sender leaves it. */
async function failingCursor(set: { due?: number; failedPasses: number }) {
  const made = await api.post('/api/0.1/subscriptions', { url: 'http://127.0.0.1:9/hook', events: ['lot.*'] });
  expect(made.status).toBe(201);
  const which = { subscriptionId: made.body.data.id as string, lane: 'lots' };
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.subscriptionCursor(which.subscriptionId, which.lane),
      UpdateExpression: `SET failedPasses = :f${set.due ? ', due = :d' : ''}`,
      ExpressionAttributeValues: { ':f': set.failedPasses, ...(set.due && { ':d': set.due }) },
    }),
  );
  return which;
}

describe("a cursor's take by an append's fan-out and by the sweep", () => {
  it('leaves a failing cursor to the sweep, and says it fails; the sweep takes it once its retry is due', async () => {
    const now = Date.now() * 1000;
    const times = { now, wallNow: now, until: now + 60_000_000 };
    const waiting = await failingCursor({ failedPasses: 2, due: now + 60_000_000 });
    expect(await takeCursor(waiting, 'a', times, false)).toEqual({ failing: true });
    expect(await takeCursor(waiting, 'b', times, true)).toEqual({ failing: true }); // its retry is not due yet
    expect(await takeable([waiting], times, true)).toEqual([]);

    const due = await failingCursor({ failedPasses: 1 }); // its retry is due: the sweep's alone
    expect(await takeable([due], times, false)).toEqual([]);
    expect(await takeable([due], times, true)).toEqual([due]);
    expect(await takeCursor(due, 'c', times, false)).toEqual({ failing: true });
    const taken = await takeCursor(due, 'd', times, true);
    expect(taken).toMatchObject({ taken: { subscriptionId: due.subscriptionId, lane: 'lots', failures: 1 } });
    // Held now: neither may take it, and a refused take of a healthy cursor under a lease is no failure.
    expect(await takeable([due], times, true)).toEqual([]);
    expect(await takeCursor(due, 'e', times, true)).toEqual({ failing: true });
    const healthy = await failingCursor({ failedPasses: 0 });
    expect(await takeCursor(healthy, 'f', times, false)).toMatchObject({ taken: { failures: 0 } });
    expect(await takeCursor(healthy, 'g', times, false)).toEqual({});
  });
});
