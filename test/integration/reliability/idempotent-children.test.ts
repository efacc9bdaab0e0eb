import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rootLogger } from '../../../functions/runtime/observability.ts';
import { aDecision, anItem, assetIn, createAsset } from '../../support/assets.ts';
import { INSIDER, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';
import { aDocument, anInsiderBid, aQuestion } from '../../support/builders.ts';
import { type Answer, type CallOptions, client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { scanTable } from './fuzz-support.ts';
import { setFaults as setFaultsOf } from '../../support/faults.ts';

/**
 * Creates of children (issue 33) whose DynamoDB answers are lost (the fault injector's `lostAnswers`: the SDK, then
 * the store, send the write again and meet what it already wrote). Two clients per kind: one sends each create with
 * an Idempotency-Key, sends it again after a 5xx and once more after its answer; one sends no key and trusts a 503 that says "not stored".
 * Goals: no 500, no child stored twice, and every 503 either "not stored" (then it is not) or replayed by its key.
 */
const service = useService();
const api = client(() => service.url);
beforeAll(() => rootLogger.setLogLevel('CRITICAL'));
afterAll(() => rootLogger.setLogLevel('WARN'));
afterEach(() => setFaults({}));

const setFaults = (config: Record<string, unknown>) => setFaultsOf(service.url, config);

const SEED = Number(process.env.FUZZ_SEED) || 20261126;
const CREATES = 8;
const LOST = 0.2;
const NOT_STORED = 'Service temporarily unavailable: the change was not stored; send the request again';

/** Where a child is created, as whom, and how many of its kind its parent holds. */
interface Parent {
  path: string;
  options: CallOptions;
  count: () => Promise<number>;
}
interface ChildKind {
  name: string;
  parent: () => Promise<Parent>;
  body: () => Record<string, unknown>;
}

/** Children stored in a parent's partition, by entity (bids, questions, documents, cancellations). */
const stored = (parentId: string, entity: string) => async () =>
  (await scanTable()).filter((i) => String(i.PK).endsWith(`#${parentId}`) && i.entity === entity).length;
/** Children kept in the parent's own record (an asset's items and decisions). */
const listed = (url: string, field: string) => async () => ((await api.get(url)).body.data[field] ?? []).length;

const KINDS: ChildKind[] = [
  {
    name: 'lot document',
    async parent() {
      const lot = await lotIn(api, 'pending');
      return {
        path: `/api/0.1/lots/${lot.id}/documents`,
        options: { token: lot.token },
        count: stored(lot.id, 'document'),
      };
    },
    body: () => aDocument(),
  },
  {
    name: 'asset item',
    async parent() {
      const asset = await createAsset(api, 'bounce');
      return { path: `${asset.url}/items`, options: { token: asset.token }, count: listed(asset.url, 'items') };
    },
    body: () => anItem(),
  },
  {
    name: 'asset decision',
    async parent() {
      const asset = await createAsset(api, 'bounce');
      return { path: `${asset.url}/decisions`, options: { token: asset.token }, count: listed(asset.url, 'decisions') };
    },
    body: () => aDecision(),
  },
  {
    name: 'asset document',
    async parent() {
      const asset = await assetIn(api, 'bounce', 'pending');
      return { path: `${asset.url}/documents`, options: { token: asset.token }, count: stored(asset.id, 'document') };
    },
    body: () => aDocument(),
  },
  {
    name: 'auction document',
    async parent() {
      const auction = await rectifyingAuction(api);
      return {
        path: `/api/2.5/auctions/${auction.id}/documents`,
        options: { token: auction.token },
        count: stored(auction.id, 'document'),
      };
    },
    body: () => aDocument(),
  },
  {
    name: 'question',
    async parent() {
      const auction = await tenderingInsider(api);
      return {
        path: `${INSIDER}/${auction.id}/questions`,
        options: { as: 'broker2' },
        count: stored(auction.id, 'question'),
      };
    },
    body: () => aQuestion(),
  },
  {
    name: 'bid',
    async parent() {
      const auction = await tenderingInsider(api);
      return { path: `${INSIDER}/${auction.id}/bids`, options: { as: 'broker2' }, count: stored(auction.id, 'bid') };
    },
    body: () => anInsiderBid(),
  },
  {
    name: 'bid document',
    async parent() {
      const auction = await tenderingInsider(api);
      const bid = await api.post(`${INSIDER}/${auction.id}/bids`, anInsiderBid(), { as: 'broker2' });
      return {
        path: `${INSIDER}/${auction.id}/bids/${bid.body.data.id}/documents`,
        options: { as: 'broker2', token: bid.body.access.token },
        count: stored(auction.id, 'document'),
      };
    },
    body: () => aDocument(),
  },
  {
    name: 'cancellation',
    async parent() {
      const auction = await rectifyingAuction(api);
      return {
        path: `/api/2.5/auctions/${auction.id}/cancellations`,
        options: { token: auction.token },
        count: stored(auction.id, 'cancellation'),
      };
    },
    body: () => ({ reason: 'Скасування' }),
  },
  {
    name: 'cancellation document',
    async parent() {
      const auction = await rectifyingAuction(api);
      const cancellations = `/api/2.5/auctions/${auction.id}/cancellations`;
      const cancellation = await api.post(cancellations, { reason: 'Скасування' }, { token: auction.token });
      return {
        path: `${cancellations}/${cancellation.body.data.id}/documents`,
        options: { token: auction.token },
        count: stored(auction.id, 'document'),
      };
    },
    body: () => aDocument(),
  },
];

/**
 * Sends one create until it is answered below 500 (a 429 too), with one key and one body throughout, and then once
 * more, as a client does whose answer was lost on its way back: both answers must be the same object.
 */
async function withKey(parent: Parent, body: Record<string, unknown>, answers: Answer[]) {
  const headers = { 'idempotency-key': randomUUID() };
  const send = async () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const res = await api.post(parent.path, body, { ...parent.options, headers });
      answers.push(res);
      if (res.status < 500 && res.status !== 429) return res;
    }
    return answers.at(-1)!;
  };
  const first = await send();
  const again = await send();
  expect(again.body).toEqual(first.body);
  return first;
}

describe('child creates under lost DynamoDB answers', () => {
  const figures: Record<string, unknown> = {};
  afterAll(() => console.info(`lost answers (share ${LOST}, seed ${SEED}):`, JSON.stringify(figures)));

  it.each(KINDS)('stores each $name once, never answers 500, and a 503 says what to do', async (kind) => {
    const keyed = await kind.parent();
    const plain = await kind.parent();
    // What the parents hold before (a bounce asset comes with items, a bid with a document of its own...).
    const [keyedBefore, plainBefore] = [await keyed.count(), await plain.count()];
    const added = async (parent: Parent, before: number) => (await parent.count()) - before;
    await setFaults({ lostAnswers: LOST, seed: SEED });
    const keyedAnswers: Answer[] = [];
    const finals: Answer[] = [];
    for (let i = 0; i < CREATES; i++) finals.push(await withKey(keyed, kind.body(), keyedAnswers));
    const plainAnswers: Answer[] = [];
    for (let i = 0; i < CREATES; i++) plainAnswers.push(await api.post(plain.path, kind.body(), plain.options));
    const { stats } = (await (await fetch(`${service.url}/_local/faults`)).json()).data;
    await setFaults({});

    const all = [...keyedAnswers, ...plainAnswers];
    const plainCreated = plainAnswers.filter((res) => res.status === 201).length;
    figures[kind.name] = {
      lostAnswers: stats.injected.lost,
      requests: all.length,
      answered503: all.filter((res) => res.status === 503).length,
      keyedStored: await added(keyed, keyedBefore),
      plainCreated,
      plainStored: await added(plain, plainBefore),
    };
    expect(stats.injected.lost).toBeGreaterThan(0);
    expect(all.filter((res) => res.status >= 500 && res.status !== 503).map((res) => res.body)).toEqual([]);
    // With a key: every create made once, whatever it took.
    expect(finals.map((res) => res.status)).toEqual(finals.map(() => 201));
    expect(new Set(finals.map((res) => res.body.data.id)).size).toBe(CREATES);
    expect(await added(keyed, keyedBefore)).toBe(CREATES);
    // Without one: stored exactly what was answered 201; each 503 said it was not stored.
    expect(await added(plain, plainBefore)).toBe(plainCreated);
    for (const res of plainAnswers.filter((r) => r.status === 503))
      expect(res.body.errors[0].description).toBe(NOT_STORED);
  });
});
