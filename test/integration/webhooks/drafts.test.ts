import { describe, expect, it } from 'vitest';
import { createAsset } from '../../support/assets.ts';
import { AUCTIONS, draftAuction } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { createLot, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { startReceiver, useChangeStream } from '../../support/webhooks.ts';

const service = useService({ changeStream: true });
const api = client(() => service.url);
const BASE = '/api/0.1/subscriptions';

const stream = useChangeStream();

/** Who reads: the owner's key, another broker's key, no key at all. */
const OTHERS = [{ as: 'broker2' }, { as: undefined }];

describe("drafts are their owner's until published", { timeout: 60_000 }, () => {
  it('a draft lot, asset and auction answer 404 to any key but the owner’s, on GET and on their revisions', async () => {
    const lot = await createLot(api);
    const asset = await createAsset(api, 'basic');
    const auction = await draftAuction(api, { status: 'draft' });
    const drafts = [
      { url: `/api/0.1/lots/${lot.id}`, name: 'lot_id' },
      { url: asset.url, name: 'asset_id' },
      { url: `${AUCTIONS}/${auction.id}`, name: 'auction_id' },
    ];
    for (const { url, name } of drafts) {
      expect((await api.get(url)).body.data.status).toBe('draft');
      expect((await api.get(`${url}/revisions`)).status).toBe(200);
      for (const who of OTHERS) {
        for (const path of [url, `${url}/revisions`]) {
          const res = await api.get(path, who);
          expect([path, who.as, res.status, res.body.errors?.[0]]).toEqual([
            path,
            who.as,
            404,
            { location: 'url', name, description: 'Not Found' },
          ]);
        }
      }
    }
    // Published, the lot answers anyone, its change log too (the draft's revision with it).
    expect((await patchAs(api, lot, 'owner', { status: 'pending' })).status).toBe(200);
    expect((await api.get(`/api/0.1/lots/${lot.id}`, { as: 'broker2' })).status).toBe(200);
    expect((await api.get(`/api/0.1/lots/${lot.id}/revisions`, { as: 'broker2' })).body.data).toHaveLength(2);
  });

  it("sends a draft's changes to its owner's subscriptions alone; once published, to every one", async () => {
    const [mine, theirs] = [await startReceiver(), await startReceiver()];
    const subscriptions: { id: string; token: string; as: string }[] = [];
    try {
      for (const [receiver, as] of [
        [mine, 'broker'],
        [theirs, 'broker2'],
      ] as const) {
        const res = await api.post(BASE, { url: receiver.url, events: ['lot.*'] }, { as });
        expect(res.status).toBe(201);
        subscriptions.push({ id: res.body.data.id, token: res.body.access.token, as });
      }
      const lot = await createLot(api);
      expect((await patchAs(api, lot, 'owner', { status: 'pending' })).status).toBe(200);
      const heard = (r: typeof mine) => r.received.filter((w) => w.body.data.id === lot.id).map((w) => w.body.data.seq);
      const end = Date.now() + 20_000;
      while (!(heard(mine).length === 2 && heard(theirs).length >= 1) && Date.now() < end)
        await new Promise((r) => setTimeout(r, 50));
      await stream.drained();
      expect(heard(mine).sort()).toEqual([1, 2]);
      expect(heard(theirs)).toEqual([2]);
    } finally {
      for (const s of subscriptions) await api.del(`${BASE}/${s.id}`, { as: s.as, token: s.token });
      await mine.close();
      await theirs.close();
    }
  });
});
