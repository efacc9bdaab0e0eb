import { describe, expect, it } from 'vitest';
import { AUCTIONS, draftAuction, rectifyingAuction } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { walkFeed } from '../../support/listing.ts';
import { useService } from '../../support/service.ts';
import { useChangeStream } from '../../support/webhooks.ts';

const service = useService({ changeStream: true });
const journal = useChangeStream();
const api = client(() => service.url);

describe('the auctions change feed (feed=changes)', () => {
  it('lists every change of a listed auction in order, each its listing view, one Query a page', async () => {
    const draft = await draftAuction(api);
    const a = await rectifyingAuction(api);
    const changed = await api.patch(`${AUCTIONS}/${a.id}`, { title: 'змінено' }, { token: a.token });
    expect(changed.status).toBe(200);
    await journal.drained();
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

describe('feed=changes cursors', () => {
  it('refuses (404) a well-formed cursor the service never issued, one of another feed too', async () => {
    await rectifyingAuction(api);
    await journal.drained();
    const { last } = await walkFeed(api, `${AUCTIONS}?feed=changes&mode=test&limit=1`);
    const issued = last.next_page.offset as string;
    const key = Buffer.from(issued, 'base64url').toString();
    const cursor = (k: string) => Buffer.from(k).toString('base64url');
    // A real cursor pages on; the same shape for a row that is not there, or of the other feed, is refused.
    expect((await api.get(`${AUCTIONS}?feed=changes&mode=test&offset=${issued}`)).status).toBe(200);
    const [lane, position] = key.split(':');
    const forged = [cursor(`${lane}:${Number(position) + 99}`), cursor(`${lane}:0`), cursor(`${lane}:1x`)];
    // Forged cursors on the feed, and the issued one on the other feed (mode=test's cursor in the real feed).
    const refused = [
      ...forged.map((offset) => `${AUCTIONS}?feed=changes&mode=test&offset=${offset}`),
      `${AUCTIONS}?feed=changes&offset=${issued}`,
    ];
    for (const url of refused) {
      for (const order of ['', '&descending=1']) {
        const res = await api.get(`${url}${order}`);
        expect([url, order, res.status, res.body.errors?.[0]?.name]).toEqual([url, order, 404, 'offset']);
      }
    }
  });
});
