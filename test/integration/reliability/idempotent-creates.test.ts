import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rootLogger } from '../../../functions/runtime/observability.ts';
import { aBasicAsset } from '../../support/assets.ts';
import { AUCTIONS, kyivDayIn, SANDBOX } from '../../support/auctions.ts';
import { aLandleaseAuction, aLot } from '../../support/builders.ts';
import { type Answer, client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { scanTable } from './fuzz-support.ts';
import { setFaults as setFaultsOf } from '../../support/faults.ts';

/**
 * Creates whose answer is lost (issue 27): DynamoDB Local behind the fault injector's `lostAnswers` (store/faults.ts),
 * which drops a share of the answers of calls that took effect, inside the SDK's retries. The SDK sends the create
 * again and meets its own write; the client, when it gets no 201, sends it again with the same Idempotency-Key.
 * Counted: 500s (goal 0) and objects stored twice (goal 0), for lots, basic assets, landlease auctions, transfers.
 */
const service = useService();
const api = client(() => service.url);
beforeAll(() => rootLogger.setLogLevel('CRITICAL'));
afterAll(() => rootLogger.setLogLevel('WARN'));
afterEach(() => setFaults({}));

const setFaults = (config: Record<string, unknown>) => setFaultsOf(service.url, config);

interface Kind {
  name: string;
  entity: string;
  path: string;
  body: (title: string) => Record<string, unknown>;
}
const KINDS: Kind[] = [
  { name: 'lot', entity: 'lot', path: '/api/0.1/lots', body: (title) => aLot({ title }) },
  { name: 'basic asset', entity: 'asset', path: '/api/0.1/assets', body: (title) => aBasicAsset({ title }) },
  {
    name: 'landlease auction',
    entity: 'auction',
    path: AUCTIONS,
    body: (title) => aLandleaseAuction(kyivDayIn(21), { ...SANDBOX, title }),
  },
  { name: 'transfer', entity: 'transfer', path: '/api/0.1/transfers', body: () => ({}) },
];

// A fixed seed; FUZZ_SEED picks another (`random`: a new one each run), printed with the figures.
const SEED =
  process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED) || 20261124;
const CREATES = 40;
const LOST = 0.15;

/** A client that sends a create again after a 5xx or a 429 (as clients do), with one Idempotency-Key. */
async function createWithRetries(kind: Kind, title: string, answers: Answer[]) {
  const key = randomUUID();
  const body = kind.body(title);
  for (let attempt = 0; attempt < 6; attempt++) {
    const res = await api.post(kind.path, body, { headers: { 'idempotency-key': key } });
    answers.push(res);
    if (res.status < 500 && res.status !== 429) return res;
  }
  return answers.at(-1)!;
}

describe('creates under lost DynamoDB answers', () => {
  const figures: Record<string, unknown> = {};
  afterAll(() => console.info(`lost answers (share ${LOST}, seed ${SEED}):`, JSON.stringify(figures)));

  it.each(KINDS)('stores each $name once and never answers 500', async (kind) => {
    const roots = async () =>
      (await scanTable()).filter((item) => item.SK === '#ROOT' && item.entity === kind.entity).length;
    const before = await roots();
    await setFaults({ lostAnswers: LOST, seed: SEED });
    const answers: Answer[] = [];
    const finals: Answer[] = [];
    for (let i = 0; i < CREATES; i++) finals.push(await createWithRetries(kind, `lost answers ${i}`, answers));
    const { stats } = (await (await fetch(`${service.url}/_local/faults`)).json()).data;
    await setFaults({});
    const stored = (await roots()) - before;
    const serverErrors = answers.filter((res) => res.status >= 500 && res.status !== 503);
    figures[kind.name] = {
      lostAnswers: stats.injected.lost,
      requests: answers.length,
      serverErrors: serverErrors.length,
      retried503: answers.filter((res) => res.status === 503).length,
      duplicates: stored - CREATES,
    };
    expect(stats.injected.lost).toBeGreaterThan(0);
    expect(serverErrors.map((res) => res.body)).toEqual([]);
    expect(finals.map((res) => res.status)).toEqual(finals.map(() => 201));
    expect(new Set(finals.map((res) => res.body.data.id)).size).toBe(CREATES);
    expect(stored).toBe(CREATES);
  });
});

describe('creates without an Idempotency-Key under lost DynamoDB answers', () => {
  it.each(KINDS)('stores a $name exactly when it answers 201, and a 503 says it was not stored', async (kind) => {
    const roots = async () =>
      (await scanTable()).filter((item) => item.SK === '#ROOT' && item.entity === kind.entity).length;
    const before = await roots();
    await setFaults({ lostAnswers: 0.3, seed: SEED + 1 });
    const answers: Answer[] = [];
    for (let i = 0; i < CREATES; i++) answers.push(await api.post(kind.path, kind.body(`no key ${i}`)));
    await setFaults({});
    const created = answers.filter((res) => res.status === 201).length;
    expect(answers.filter((res) => res.status !== 201 && res.status !== 503).map((res) => res.body)).toEqual([]);
    for (const res of answers.filter((r) => r.status === 503))
      expect(res.body.errors[0].description).toBe(
        'Service temporarily unavailable: the change was not stored; send the request again',
      );
    expect((await roots()) - before).toBe(created);
  });
});

describe('a create sent again with its Idempotency-Key', () => {
  const withKey = (key: string, as = 'broker') => ({ as, headers: { 'idempotency-key': key } });

  it.each(KINDS)(
    'answers a $name sent again with the first answer, tokens included, and stores it once',
    async (kind) => {
      const key = randomUUID();
      const body = kind.body(`idempotent ${key}`);
      const first = await api.post(kind.path, body, withKey(key));
      expect(first.status).toBe(201);
      const again = await api.post(kind.path, body, withKey(key));
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      // Another broker's key of the same text is its own: a new object.
      const other = await api.post(kind.path, body, withKey(key, 'broker2'));
      expect(other.status).toBe(201);
      expect(other.body.data.id).not.toBe(first.body.data.id);
      // Without a key, every create is a new object, as before.
      const plain = [await api.post(kind.path, body), await api.post(kind.path, body)];
      expect(new Set(plain.map((res) => res.body.data.id)).size).toBe(2);
    },
  );

  it('gives the first answer’s working owner token again', async () => {
    const key = randomUUID();
    const body = aLot({ title: 'the token again' });
    const first = await api.post('/api/0.1/lots', body, withKey(key));
    const again = await api.post('/api/0.1/lots', body, withKey(key));
    const lot = `/api/0.1/lots/${again.body.data.id}`;
    const patched = await api.patch(
      lot,
      { title: 'changed by the replayed token' },
      { token: again.body.access.token },
    );
    expect(patched.status).toBe(200);
    expect(again.body.access).toEqual(first.body.access);
  });

  it('makes one object of 8 identical creates sent at once', async () => {
    const key = randomUUID();
    const before = (await scanTable()).filter((item) => item.SK === '#ROOT' && item.entity === 'lot').length;
    const body = aLot({ title: 'at once' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.post('/api/0.1/lots', body, withKey(key))));
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
    const after = (await scanTable()).filter((item) => item.SK === '#ROOT' && item.entity === 'lot').length;
    expect(after - before).toBe(1);
  });

  it('refuses the key with another request, and a key that is not visible ASCII (422)', async () => {
    const key = randomUUID();
    expect((await api.post('/api/0.1/lots', aLot({ title: 'one' }), withKey(key))).status).toBe(201);
    const other = await api.post('/api/0.1/lots', aLot({ title: 'another' }), withKey(key));
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([
      {
        location: 'header',
        name: 'Idempotency-Key',
        description: 'This Idempotency-Key was used with another request',
      },
    ]);
    for (const bad of ['x'.repeat(256), 'with space']) {
      const res = await api.post('/api/0.1/lots', aLot(), withKey(bad));
      expect(res.status, bad).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ location: 'header', name: 'Idempotency-Key' });
    }
  });

  it('keeps no token in clear: the kept answer is sealed', async () => {
    const key = randomUUID();
    const first = await api.post('/api/0.1/transfers', {}, withKey(key));
    const kept = (await scanTable()).filter((item) => item.entity === 'idempotency');
    expect(kept.length).toBeGreaterThan(0);
    const text = JSON.stringify(kept);
    expect(text).not.toContain(first.body.access.token);
    expect(text).not.toContain(first.body.access.transfer);
    expect(text).not.toContain(key);
    expect(kept.every((item) => item.ttl > Date.now() / 1000)).toBe(true);
  });
});
