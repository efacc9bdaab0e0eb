import { describe, expect, it } from 'vitest';
import type { Answer } from '../../support/http.ts';
import { client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, INSIDER, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);

/**
 * 50 PATCHes sent at once to one object, each setting one field (a dotted path: nested objects are merge-patched) to
 * a value no other PATCH uses (never a title: test-mode auctions prefix titles). The server serializes writers of one object (optimistic revision + retries), so:
 * - each PATCH gets 200 (its write happened) or a 412 in the error envelope (nothing of it was written);
 * - the acknowledged PATCHes form one history: ordered by commit, each answer is exactly the previous state with its
 *   own field set (a write based on a stale read would restore an older value of another field and break the chain);
 * - the final object read back is the last state of that history, so no acknowledged change is lost: a field set by
 *   one acknowledged PATCH only is visible, and a field set by several shows the last of them.
 * Values are unique, so the history is found greedily: at each step the answers that can follow the current state
 * all set one field (two fields would mean two writes from one read); of those, the one a later state shows goes last.
 */
type Write = { path: string; value: string };

const getPath = (o: any, path: string) => path.split('.').reduce((x, k) => x?.[k], o);
const setPath = (o: any, path: string, value: unknown): any => {
  const [head, ...rest] = path.split('.');
  return { ...o, [head]: rest.length ? setPath(o[head] ?? {}, rest.join('.'), value) : value };
};
/** The object without what every write moves by itself. */
const content = (o: any) => {
  const { dateModified: _d, ...rest } = o;
  return rest;
};
const same = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
const sortKeys = (v: any): any =>
  Array.isArray(v)
    ? v.map(sortKeys)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortKeys(v[k])]),
        )
      : v;

/** `singles` are each set by one PATCH; the rest of the 50 are spread over `shared`. */
function plan(singles: string[], shared: string[], run: string): Write[] {
  const writes = singles.map((path, i) => ({ path, value: `${path} ${run} s${i}` }));
  for (let i = 0; writes.length < 50; i++) {
    const path = shared[i % shared.length];
    writes.push({ path, value: `${path} ${run} m${i}` });
  }
  return writes;
}

function expectLinearizable(initial: any, writes: Write[], answers: Answer[], final: any) {
  for (const [i, res] of answers.entries()) {
    if (res.status === 200) continue;
    expect(res.status, `${writes[i].path}: ${JSON.stringify(res.body)}`).toBe(412);
    expect(res.body).toEqual({
      status: 'error',
      errors: [{ location: 'body', name: 'data', description: expect.stringMatching(/Precondition Failed/) }],
    });
  }
  let pending = answers.flatMap((res, i) =>
    res.status === 200 ? [{ write: writes[i], after: content(res.body.data) }] : [],
  );
  expect(pending.length, 'some PATCHes are acknowledged').toBeGreaterThan(0);
  for (const { write, after } of pending)
    expect(getPath(after, write.path), 'an answer shows its own change').toBe(write.value);
  let state = content(initial);
  while (pending.length) {
    const next = pending.filter(({ write, after }) => same(setPath(state, write.path, write.value), after));
    const left = pending.map((p) => p.write.value).join(' | ');
    expect(
      new Set(next.map((n) => n.write.path)).size,
      `acknowledged PATCHes of one field follow the state (left: ${left})`,
    ).toBe(1);
    // Writes of one field on one state commute but for the value that stays: consume first those no later state shows.
    const seen = (n: (typeof next)[number]) =>
      getPath(final, n.write.path) === n.write.value ||
      pending.some((p) => p !== n && getPath(p.after, n.write.path) === n.write.value);
    const chosen = next.find((n) => !seen(n)) ?? next[0];
    state = chosen.after;
    pending = pending.filter((p) => p !== chosen);
  }
  expect(sortKeys(content(final))).toEqual(sortKeys(state));
  for (const { path } of writes) {
    const acknowledged = writes.filter((w, i) => w.path === path && answers[i].status === 200).map((w) => w.value);
    if (acknowledged.length === 1) expect(getPath(final, path)).toBe(acknowledged[0]);
    else if (acknowledged.length) expect(acknowledged).toContain(getPath(final, path));
  }
}

async function storm(url: string, token: string, writes: Write[]) {
  return Promise.all(writes.map((w) => api.patch(url, setPath({}, w.path, w.value), { token })));
}

describe('50 concurrent PATCHes of one object', () => {
  it('on a pending lot: every acknowledged change is in the final lot, the others are 412', async () => {
    const lot = await lotIn(api, 'pending');
    const url = `/api/0.1/lots/${lot.id}`;
    const writes = plan(
      ['title_en', 'title_ru', 'description_en', 'description_ru', 'lotIdentifier'],
      ['title', 'description', 'lotCustodian.contactPoint.name'],
      'lot',
    );
    const initial = (await api.get(url)).body.data;
    const answers = await storm(url, lot.token, writes);
    expectLinearizable(initial, writes, answers, (await api.get(url)).body.data);
  });

  it('on a landlease auction in active.rectification: every acknowledged change is in the final auction, the others are 412', async () => {
    const auction = await rectifyingAuction(api);
    const url = `${AUCTIONS}/${auction.id}`;
    const writes = plan(
      ['lotIdentifier', 'bankAccount.description', 'lotHolder.name', 'procuringEntity.contactPoint.name'],
      ['description', 'lotHolder.contactPoint.name', 'bankAccount.bankName'],
      'landlease',
    );
    const initial = (await api.get(url)).body.data;
    const answers = await storm(url, auction.token, writes);
    expectLinearizable(initial, writes, answers, (await api.get(url)).body.data);
  });

  it('on a dgfInsider auction tendering within rectification: every acknowledged change is in the final auction, the others are 412', async () => {
    const auction = await tenderingInsider(api);
    const url = `${INSIDER}/${auction.id}`;
    const writes = plan(['description_en', 'description_ru', 'dgfID', 'dgfDecisionID'], ['description'], 'insider');
    const initial = (await api.get(url)).body.data;
    const answers = await storm(url, auction.token, writes);
    expectLinearizable(initial, writes, answers, (await api.get(url)).body.data);
  });
});
