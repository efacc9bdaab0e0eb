import { describe, expect, it } from 'vitest';
import { client } from '../support/http.ts';
import { walkFeed } from '../support/listing.ts';
import { createLot, lotIn, patchAs } from '../support/lots.ts';
import { useService } from '../support/service.ts';
import { useChangeStream } from '../support/webhooks.ts';

const service = useService({ changeStream: true });
const journal = useChangeStream();
const api = client(() => service.url);

/** The feeds read the journal, which the table's stream feeds: each walk starts once it has taken what was written. */
const walk = async (path: string) => {
  await journal.drained();
  return walkFeed(api, path);
};

describe('listing feeds', () => {
  it('pages through every listed lot by dateModified, the head and one Query a page, and never lists drafts', async () => {
    const draft = await createLot(api);
    const listed = [];
    // Each taken by the journal before the next is made: rows come in the order the journal took them.
    for (let i = 0; i < 5; i++) {
      listed.push(await lotIn(api, 'pending'));
      await journal.drained();
    }
    const { seen, last } = await walk('/api/0.1/lots?limit=2');
    expect(seen.map((r) => r.id)).toEqual(listed.map((l) => l.id));
    expect(seen.map((r) => r.id)).not.toContain(draft.id);
    expect(Object.keys(seen[0]).sort()).toEqual(['dateModified', 'id']);
    // The offset is the last row's listing point: its dateModified, or just after a later-dated change journaled first.
    expect(Date.parse(last.next_page.offset)).toBeGreaterThanOrEqual(Date.parse(seen.at(-1).dateModified));
    expect(last.next_page.offset).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+0[23]:00$/);
    expect(last.next_page.uri).toBe(`${service.url}${last.next_page.path}`);
  });

  it('moves a changed lot to the end of the feed', async () => {
    const a = await lotIn(api, 'pending');
    await lotIn(api, 'pending');
    // Rows are in the order the journal took the changes: the other lot's, then (taken after it) a's.
    await journal.drained();
    await patchAs(api, a, 'owner', { description: 'touched' });
    const { seen } = await walk('/api/0.1/lots');
    expect(seen.at(-1).id).toBe(a.id);
    expect(seen.filter((r) => r.id === a.id)).toHaveLength(1);
  });

  it('lists newest first with descending=1 and gives a prev_page', async () => {
    const ascending = (await walk('/api/0.1/lots')).seen.map((r) => r.id);
    const res = await api.get('/api/0.1/lots?descending=1&limit=3');
    // The newest listing points first: the ascending walk's last three, the other way round.
    expect(res.body.data.map((r: any) => r.id)).toEqual(ascending.slice(-3).reverse());
    expect(res.body.next_page.path).toContain('descending=1');
    expect(res.body.prev_page.path).not.toContain('descending');
  });

  it('serves opt_fields and keeps id and dateModified', async () => {
    await journal.drained();
    const res = await api.get('/api/0.1/lots?opt_fields=status,lotID&limit=1');
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['dateModified', 'id', 'lotID', 'status']);
    expect(res.body.next_page.path).toContain('opt_fields=status%2ClotID');
  });

  it('keeps test-mode lots in their own feed', async () => {
    const test = await lotIn(api, 'pending', { mode: 'test' });
    const real = await walk('/api/0.1/lots');
    expect(real.seen.map((r) => r.id)).not.toContain(test.id);
    const tests = await walk('/api/0.1/lots?mode=test');
    expect(tests.seen.map((r) => r.id)).toEqual([test.id]);
  });

  it('answers an empty listing with an empty offset, and refuses an unreadable offset', async () => {
    const empty = await api.get('/api/0.1/lots?mode=test&offset=2999-01-01T00:00:00%2B02:00');
    expect(empty.body.data).toEqual([]);
    expect(empty.body.next_page.offset).toBe('2999-01-01T00:00:00+02:00');
    const bad = await api.get('/api/0.1/lots?offset=yesterday');
    expect(bad.status).toBe(404);
    expect(bad.body.errors).toEqual([
      { location: 'querystring', name: 'offset', description: 'Offset expired/invalid' },
    ]);
  });

  it('bounds limit to 1..1000 (100 with opt_fields)', async () => {
    for (const limit of ['0', '-1', '1001', 'x']) {
      const res = await api.get(`/api/0.1/lots?limit=${limit}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(100);
    }
  });

  it('feed=changes lists every change of published lots in order, each its listing view, one Query a page', async () => {
    const draft = await createLot(api);
    const a = await lotIn(api, 'pending');
    const b = await lotIn(api, 'pending');
    await patchAs(api, a, 'owner', { description: 'touched' });
    await patchAs(api, b, 'owner', { description: 'touched' });
    await patchAs(api, a, 'owner', { description: 'touched again' });
    await journal.drained();
    const { seen, last } = await walk('/api/0.1/lots?feed=changes&limit=2');
    expect(seen.map((r) => r.id)).not.toContain(draft.id);
    const mine = seen.filter((r) => r.id === a.id || r.id === b.id);
    // Every listed change once: a has one more than b (its second description).
    const count = (id: string) => mine.filter((r) => r.id === id).length;
    expect(count(a.id)).toBe(count(b.id) + 1);
    for (const lot of [a, b]) {
      const rows = mine.filter((r) => r.id === lot.id);
      const revisions = rows.map((r) => r.revision);
      expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
      expect(new Set(revisions).size).toBe(revisions.length);
      const final = (await api.get(`/api/0.1/lots/${lot.id}`)).body.data;
      expect(rows.at(-1)).toMatchObject({ id: lot.id, dateModified: final.dateModified, status: 'pending' });
      expect(rows.at(-1)?.lotID).toBe(final.lotID);
    }
    // The cursor is opaque (not a date) and the walk's last page keeps it.
    expect(last.next_page.offset).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Number.isNaN(Date.parse(last.next_page.offset))).toBe(true);
    expect(last.next_page.path).toContain('feed=changes');
  });

  it('feed=changes walks newest first with descending=1, and back with prev_page', async () => {
    const a = await lotIn(api, 'pending');
    await patchAs(api, a, 'owner', { description: 'newest' });
    await journal.drained();
    const res = await api.get('/api/0.1/lots?feed=changes&descending=1&limit=2');
    // Both of a's listed changes, the newest first.
    expect(res.body.data.map((r: any) => r.id)).toEqual([a.id, a.id]);
    expect(res.body.data[0].revision).toBeGreaterThan(res.body.data[1].revision);
    const revisions = res.body.data.map((r: any) => `${r.id}@${r.revision}`);
    const older = await api.get(res.body.next_page.path);
    expect(older.body.data.map((r: any) => `${r.id}@${r.revision}`)).not.toContain(revisions.at(-1));
    const back = await api.get(older.body.prev_page.path);
    expect(back.body.data.map((r: any) => `${r.id}@${r.revision}`)).toEqual([...revisions].reverse());
  });

  it('feed=changes refuses a cursor it did not make', async () => {
    await journal.drained();
    const made = (await api.get('/api/0.1/lots?feed=changes&limit=1')).body.next_page.offset;
    const forged = Buffer.from('lots:999999').toString('base64url');
    for (const offset of ['yesterday', '2026-01-01T00:00:00+02:00', forged, `${made}x`]) {
      const res = await api.get(`/api/0.1/lots?feed=changes&offset=${encodeURIComponent(offset)}`);
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([
        { location: 'querystring', name: 'offset', description: 'Offset expired/invalid' },
      ]);
    }
  });
});
