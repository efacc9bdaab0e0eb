import { describe, expect, it } from 'vitest';
import { assetIn } from '../support/assets.ts';
import { client } from '../support/http.ts';
import { walkFeed } from '../support/listing.ts';
import { lotIn } from '../support/lots.ts';
import { useService } from '../support/service.ts';
import { useChangeStream } from '../support/webhooks.ts';

const service = useService({ changeStream: true });
const journal = useChangeStream();
const api = client(() => service.url);

describe('listing feeds with ties', () => {
  it('never loses items written at the same instant, whatever the page size and direction', async () => {
    // The concierge settles a lot's assets in one transaction: they share one dateModified.
    const assets = await Promise.all([1, 2, 3].map(() => assetIn(api, 'basic', 'pending')));
    await lotIn(api, 'verification', { assets: assets.map((a) => a.id) });
    await service.bot('concierge');
    const stamps = await Promise.all(assets.map(async (a) => (await api.get(a.url)).body.data.dateModified));
    expect(new Set(stamps).size).toBe(1);
    await journal.drained();
    const ids = assets.map((a) => a.id).sort();
    for (const query of ['limit=1', 'limit=2', 'descending=1&limit=1', 'descending=1&limit=2']) {
      const { seen } = await walkFeed(api, `/api/0.1/assets?${query}`);
      expect(
        seen
          .map((r: any) => r.id)
          .filter((id: string) => ids.includes(id))
          .sort(),
        query,
      ).toEqual(ids);
      expect(new Set(seen.map((r: any) => r.id)).size, query).toBe(seen.length);
    }
  });
});
