import { describe, expect, it } from 'vitest';
import { assetIn, type CreatedAsset, patchAs, TYPE_NAMES } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { createLot } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

/**
 * An asset belongs to one lot at a time: once in `verification` (or `active`) it keeps its lot until it goes back
 * to `pending`. Two lots race for the same 25 pending assets (concurrent concierge PATCHes, as two concierge runs
 * would send): each asset ends on one lot, and the PATCH that came second is refused.
 */
const service = useService();
const api = client(() => service.url);

describe('the lot of an asset under verification', () => {
  it.each(TYPE_NAMES)('refuses re-pointing a %s asset in verification or active to another lot (403)', async (type) => {
    const [first, second] = [await createLot(api), await createLot(api)];
    for (const status of ['verification', 'active']) {
      const asset = await assetIn(api, type, 'pending');
      await patchAs(api, asset, 'concierge', { status: 'verification', relatedLot: first.id });
      if (status === 'active') await patchAs(api, asset, 'concierge', { status: 'active' });
      for (const next of status === 'verification' ? ['verification', 'active'] : ['active', 'complete', undefined]) {
        const data = { status: next, relatedLot: second.id };
        const res = await patchAs(api, asset, 'concierge', data);
        expect(res.status, JSON.stringify(data)).toBe(403);
        expect(res.body.errors).toEqual([
          {
            location: 'body',
            name: 'data',
            description: `Can't change relatedLot of asset in current (${status}) status`,
          },
        ]);
      }
      expect((await api.get(asset.url)).body.data).toMatchObject({ status, relatedLot: first.id });
      // The same lot again is no change (a retried PATCH); back to pending frees it for another lot.
      expect((await patchAs(api, asset, 'concierge', { status, relatedLot: first.id })).status).toBe(200);
      expect((await patchAs(api, asset, 'concierge', { status: 'pending', relatedLot: null })).status).toBe(200);
      const moved = await patchAs(api, asset, 'concierge', { status: 'verification', relatedLot: second.id });
      expect(moved.status).toBe(200);
      expect(moved.body.data.relatedLot).toBe(second.id);
    }
  });

  it('leaves each of 25 assets raced by two lots on one lot, the later PATCH refused', async () => {
    const lots = [await createLot(api), await createLot(api)];
    const assets: CreatedAsset[] = [];
    for (let i = 0; i < 25; i++) assets.push(await assetIn(api, TYPE_NAMES[i % TYPE_NAMES.length], 'pending'));
    const answers = await Promise.all(
      assets.flatMap((asset) =>
        lots.map((lot) => patchAs(api, asset, 'concierge', { status: 'verification', relatedLot: lot.id })),
      ),
    );
    for (const [i, asset] of assets.entries()) {
      const pair = answers.slice(2 * i, 2 * i + 2);
      const won = pair.filter((res) => res.status === 200);
      expect(won, JSON.stringify(pair.map((res) => [res.status, res.body]))).toHaveLength(1);
      const lost = pair.find((res) => res.status !== 200)!;
      expect([403, 412]).toContain(lost.status);
      const stored = (await api.get(asset.url)).body.data;
      expect(stored).toMatchObject({ status: 'verification', relatedLot: won[0].body.data.relatedLot });
    }
  });
});
