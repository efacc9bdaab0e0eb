import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { revisionHash, verifyChain } from '../../../functions/domain/kernel/history.ts';
import { documentClient, tableName } from '../../../functions/store/client.ts';
import { keys } from '../../../functions/store/table-design.ts';
import { clockOf, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

// The change feed (its rows' revisionHash) reads the journal, which the table's stream feeds.
const service = useService({ journal: true });
const api = client(() => service.url);
const ROOT = resolve(import.meta.dirname, '../../..');

/** `npm run history -- verify <url>`, as a person runs it. */
function verify(url: string, ...options: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) =>
    execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'bin/history.ts'), 'verify', url, ...options],
      { cwd: ROOT, timeout: 60_000 },
      (error, out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    ),
  );
}

/** Every revision of an object, through the API's pages of `limit`. */
async function allRevisions(path: string, limit: number) {
  const out: any[] = [];
  let next = `${path}/revisions?limit=${limit}`;
  for (;;) {
    const page = await api.get(next);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    if (!page.body.data.length) return out;
    expect(page.body.data.length).toBeLessThanOrEqual(limit);
    out.push(...page.body.data);
    next = page.body.next_page.path;
  }
}

describe('the change log of an object', () => {
  it('serves one revision per change, oldest first, in pages that chain by hash and replay into the object', async () => {
    const lot = await lotIn(api, 'pending');
    const path = `/api/0.1/lots/${lot.id}`;
    for (const title of ['one', 'two', 'three', 'four']) {
      expect((await api.patch(path, { title }, { token: lot.token })).status).toBe(200);
    }
    // An unchanged PATCH changes nothing, so records nothing.
    expect((await api.patch(path, { title: 'four' }, { token: lot.token })).status).toBe(200);
    const revisions = await allRevisions(path, 2);
    // The create, the move to pending, four titles.
    expect(revisions).toHaveLength(6);
    expect(revisions[0]).toMatchObject({ author: { role: 'broker', name: 'broker' }, previousHash: '' });
    expect(revisions[0].changes).toContainEqual({ op: 'add', path: '/title', value: lot.lot.title });
    expect(revisions[5].changes).toEqual([
      { op: 'replace', path: '/title', value: 'four' },
      { op: 'replace', path: '/dateModified', value: revisions[5].date },
    ]);
    const lotNow = (await api.get(path)).body.data;
    expect(verifyChain(revisions)).toEqual({ breaks: [], view: lotNow });
    expect(revisions[5].date).toBe(lotNow.dateModified);
    // The whole log in one page, and a page past its end.
    const page = await api.get(`${path}/revisions`);
    expect(page.body.data).toEqual(revisions);
    expect(page.body.next_page).toMatchObject({ offset: '6', path: `${path}/revisions?offset=6` });
    expect((await api.get(`${path}/revisions?offset=6`)).body.data).toEqual([]);
    expect((await api.get(`${path}/revisions?offset=3&limit=1`)).body.data).toEqual([revisions[3]]);
  });

  it('answers 404 for an unknown object or an offset past the log, 422 for a bad limit; any key reads it', async () => {
    const lot = await lotIn(api, 'pending');
    const path = `/api/0.1/lots/${lot.id}`;
    expect((await api.get(`/api/0.1/lots/${'0'.repeat(32)}/revisions`)).status).toBe(404);
    const past = await api.get(`${path}/revisions?offset=9`);
    expect(past.status).toBe(404);
    expect(past.body.errors[0]).toMatchObject({ location: 'querystring', name: 'offset' });
    expect((await api.get(`${path}/revisions?limit=0`)).status).toBe(422);
    expect((await api.get(`${path}/revisions?offset=-1`)).status).toBe(422);
    // Another type's route does not serve an auction (as its GET does not).
    const auction = await tenderingInsider(api);
    expect((await api.get(`/api/2.5/auctions/${auction.id}/revisions`)).status).toBe(404);
    expect((await api.get(`${INSIDER}/${auction.id}/revisions`, { as: 'broker2' })).status).toBe(200);
  });

  it("serves a once-draft, now published object's whole log to anyone, whatever the page; a draft's to its owner", async () => {
    // Created in draft (its first revision a draft's), then published and changed.
    const lot = await lotIn(api, 'pending');
    const path = `/api/0.1/lots/${lot.id}`;
    expect((await api.patch(path, { title: 'one' }, { token: lot.token })).status).toBe(200);
    const revisions = await allRevisions(path, 100);
    expect(revisions).toHaveLength(3);
    for (const as of ['broker2', 'concierge', undefined]) {
      // A page holding only the draft's revisions is the published object's history too.
      for (const [query, expected] of [
        ['?limit=1', [revisions[0]]],
        ['?offset=1&limit=1', [revisions[1]]],
        ['?limit=2', revisions.slice(0, 2)],
        ['', revisions],
      ] as const) {
        const page = await api.get(`${path}/revisions${query}`, { as });
        expect(page.status, `${as} ${query}: ${JSON.stringify(page.body)}`).toBe(200);
        expect(page.body.data).toEqual(expected);
      }
    }
    // A draft still is its owner's: a page of it answers anyone else as an unknown id, in as many requests.
    const draft = await lotIn(api, 'draft');
    const draftPath = `/api/0.1/lots/${draft.id}`;
    expect((await api.patch(draftPath, { title: 'two' }, { token: draft.token })).status).toBe(200);
    expect((await api.get(`${draftPath}/revisions?limit=1`)).status).toBe(200);
    for (const query of ['?limit=1', '', '?offset=1&limit=1']) {
      const unknown = await api.get(`/api/0.1/lots/${'0'.repeat(32)}/revisions${query}`, { as: 'broker2' });
      const answer = await api.get(`${draftPath}/revisions${query}`, { as: 'broker2' });
      expect([answer.status, answer.requests, answer.body]).toEqual([unknown.status, unknown.requests, unknown.body]);
    }
  });

  it('verifies with `npm run history -- verify`, and reports a changed stored revision as a break', async () => {
    const lot = await lotIn(api, 'pending');
    const url = `${service.url}/api/0.1/lots/${lot.id}`;
    for (const title of ['one', 'two']) await api.patch(`/api/0.1/lots/${lot.id}`, { title }, { token: lot.token });
    const ok = await verify(url);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/4 revisions, chain verified, replayed to its view; head [0-9a-f]{64}/);
    // Someone with the table rewrites what revision 2 says.
    const key = keys.revision('LOT', lot.id, 3);
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }));
    Item!.revision.changes[0].value = 'rewritten';
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: Item! }));
    const broken = await verify(url);
    expect(broken.code).toBe(1);
    expect(broken.out).toContain('break at revision 3: hash does not match its content');
  });

  it('anchors the history: the head in the GET, the change feed and the webhook body; a rewrite fails the anchor', async () => {
    const lot = await lotIn(api, 'pending');
    const url = `${service.url}/api/0.1/lots/${lot.id}`;
    for (const title of ['one', 'two']) await api.patch(`/api/0.1/lots/${lot.id}`, { title }, { token: lot.token });
    // The head a platform keeps: the GET's headers, the last revision's number and hash.
    const read = await fetch(url, { headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` } });
    const [n, hash] = [read.headers.get('x-revision'), read.headers.get('x-revision-hash')];
    const revisions = await allRevisions(`/api/0.1/lots/${lot.id}`, 100);
    expect([Number(n), hash]).toEqual([revisions.length, revisions.at(-1).hash]);
    // The change feed's row of that change carries it too.
    await service.journaled();
    const rows = (await api.get('/api/0.1/lots?feed=changes&descending=1&limit=100')).body.data as any[];
    expect(rows.find((r) => r.id === lot.id && r.revision === Number(n))?.revisionHash).toBe(hash);
    const anchor = `${n}:${hash}`;
    expect((await verify(url, '--anchor', anchor)).code).toBe(0);

    // Someone with the table rewrites revision 3 (the title 'one', replaced by revision 4) and recomputes every
    // hash after it and the object's head: the chain holds and replays to the GET, so only an anchor tells.
    const stored = async (seq: number) =>
      (await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.revision('LOT', lot.id, seq) })))
        .Item!;
    let previous = (await stored(2)).revision.hash as string;
    for (let seq = 3; seq <= Number(n); seq++) {
      const item = await stored(seq);
      if (seq === 3) item.revision.changes = item.revision.changes.map((c: any) => ({ ...c, value: 'forged' }));
      const { hash: _, ...content } = { ...item.revision, previousHash: previous };
      item.revision = { ...content, hash: revisionHash(content) };
      previous = item.revision.hash;
      await documentClient().send(new PutCommand({ TableName: tableName(), Item: item }));
    }
    const root = (
      await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.root('LOT', lot.id) }))
    ).Item!;
    root.history = { ...root.history, hash: previous };
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: root }));
    const rewritten = await verify(url);
    expect(rewritten.code, rewritten.out).toBe(0); // consistent: without an anchor, nothing to tell
    const caught = await verify(url, '--anchor', anchor);
    expect(caught.code).toBe(1);
    expect(caught.out).toContain(`break at revision ${n}: the history does not lead to the anchor`);
  });

  it("verifies the calendar's change log after changes: its revisions replay to its GET, mode included", async () => {
    const calendar = (await api.get('/api/calendar')).body.data;
    const to = `${Number(calendar.coverage.to.slice(0, 4)) + 1}-12-31`;
    expect((await api.patch('/api/calendar', { coverage: { to } }, { as: 'admin' })).status).toBe(200);
    const saturday = `${to.slice(0, 4)}-06-01`;
    const day = new Date(`${saturday}T00:00:00Z`).getUTCDay();
    const working = `${to.slice(0, 4)}-06-${String(1 + ((6 - day + 7) % 7)).padStart(2, '0')}`;
    const added = await api.patch('/api/calendar', { add: { workingWeekends: [working] } }, { as: 'admin' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const ok = await verify(`${service.url}/api/calendar`);
    expect(ok.code, `${ok.out}${ok.err}`).toBe(0);
    expect(ok.out).toMatch(/3 revisions, chain verified, replayed to its view; head [0-9a-f]{64}/);
  });

  it('never shows a sealed bid, a token or a link before the object shows them', async () => {
    const clock = clockOf(service);
    const a = await tenderingInsider(api);
    const url = `${INSIDER}/${a.id}`;
    const bids = [await insiderBid(api, a.id, 'broker2'), await insiderBid(api, a.id, 'broker')];
    // Bidding is not visible: no revision tells of it (not its time, its author, nor how many bids).
    const tendering = await allRevisions(url, 100);
    expect(tendering).toHaveLength(1);
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const res = await api.post(
      `${url}/auction`,
      { bids: bids.map((b, i) => ({ id: b.id, value: { amount: 200000 - i * 10000 } })) },
      { as: 'auction' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const revisions = await allRevisions(url, 100);
    const auction = (await api.get(url, { as: 'broker2' })).body.data;
    expect(auction.bids).toHaveLength(2);
    expect(verifyChain(revisions)).toEqual({ breaks: [], view: auction });
    const text = JSON.stringify(revisions);
    for (const secret of [a.token, ...bids.map((b) => b.token)]) expect(text).not.toContain(secret);
    for (const hidden of ['participationUrl', 'tokenHash', 'transfer', 'asker', 'acc_token'])
      expect(text).not.toContain(hidden);
    // The bids enter the log with the change that shows them, not before.
    const firstWithBids = revisions.findIndex((r) => JSON.stringify(r).includes(bids[0].id));
    expect(firstWithBids).toBeGreaterThan(0);
    expect(revisions[firstWithBids].author.role).not.toBe('broker');
    await clock.reset();
  });
});
