import { describe, expect, it } from 'vitest';
import { migrate } from '../../../functions/store/migrations.ts';
import { client } from '../../support/http.ts';
import { createLot } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { startReceiver, useChangeStream } from '../../support/webhooks.ts';

// `npm start`'s pieces: the service over DynamoDB Local with its stream, and the local change stream beside it.
const service = useService({ changeStream: true });
const api = client(() => service.url);

const stream = useChangeStream({ log: () => {} });

async function until(done: () => boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhook deliveries across a migration', { timeout: 60_000 }, () => {
  it('go on after `npm run migrate` wrote its state (an empty map, untyped in the local stream)', async () => {
    const receiver = await startReceiver();
    try {
      const sub = await api.post('/api/0.1/subscriptions', { url: receiver.url, events: ['lot.*'] });
      expect(sub.status).toBe(201);
      const before = await createLot(api);
      await until(() => receiver.received.some((w) => w.body.data.id === before.id), 'the change before');
      // What `npm run migrate` runs: its state item (`cursors: {}` at first) goes through the stream too.
      await migrate({});
      await stream.drained();
      const after = await createLot(api);
      await until(() => receiver.received.some((w) => w.body.data.id === after.id), 'the change after the migration');
      await api.del(`/api/0.1/subscriptions/${sub.body.data.id}`, { token: sub.body.access.token });
    } finally {
      await receiver.close();
    }
  });
});
