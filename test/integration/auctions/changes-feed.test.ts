import { describe, expect, it } from 'vitest';
import { AUCTIONS, draftAuction, rectifyingAuction } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { walkFeed } from '../../support/listing.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

describe('the auctions change feed (feed=changes)', () => {
  it('lists every change of a listed auction in order, each its listing view, one Query a page', async () => {
    const draft = await draftAuction(api);
    const a = await rectifyingAuction(api);
    const changed = await api.patch(`${AUCTIONS}/${a.id}`, { title: 'змінено' }, { token: a.token });
    expect(changed.status).toBe(200);
    // Sandbox auctions are test-mode: their own feed, as their dateModified rows.
    const { seen, last } = await walkFeed(api, `${AUCTIONS}?feed=changes&mode=test&limit=1`);
    expect(seen.map((r) => r.id)).not.toContain(draft.id);
    const mine = seen.filter((r) => r.id === a.id);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const revisions = mine.map((r) => r.revision);
    expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
    const final = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
    expect(mine.at(-1)).toMatchObject({
      id: a.id,
      dateModified: final.dateModified,
      status: 'active.rectification',
      auctionID: final.auctionID,
      procurementMethodType: final.procurementMethodType,
    });
    expect(last.next_page.path).toContain('feed=changes');
    expect((await api.get(`${AUCTIONS}?feed=changes`)).body.data.map((r: any) => r.id)).not.toContain(a.id);
  });
});
