import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '../../../functions/routes.ts';
import {
  aBid,
  aDocument,
  aLandleaseAuction,
  aLot,
  anInsiderAuction,
  anInsiderBid,
  aQuestion,
  hex32,
} from '../../support/builders.ts';
import { aBasicAsset, aBounceAsset, aDecision, anItem } from '../../support/assets.ts';
import { AUCTIONS, INSIDER, kyivDayIn, SANDBOX } from '../../support/auctions.ts';
import { client, type Answer, type CallOptions } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

/**
 * A draft is its owner's: every route under it answers anyone else exactly as it answers an unknown id (status, body
 * and the DynamoDB requests it made), its documents' bytes included. The routes walked come from the route table,
 * so a route added to it is walked the day it is added: each route whose first path parameter is an object's id
 * (`{lotId}`, `{assetId}`, `{auctionId}`), against a draft of the kind and type it serves, by each non-owner caller.
 */
const service = useService();
const api = client(() => service.url);

/** The path parameters that name no lot, asset or auction: their routes are under no draft. */
const NOT_UNDER_AN_OBJECT = ['transferId', 'subscriptionId', 'key', 'code', 'file'];

/** Who is not the owner: another broker's key, the same with the owner's token, no key, a bot's key. */
const CALLERS: Record<string, (token: string) => CallOptions> = {
  'another broker': () => ({ as: 'broker2' }),
  'another broker with the token': (token) => ({ as: 'broker2', token }),
  anonymous: () => ({}),
  concierge: () => ({ as: 'concierge' }),
};

/** What a write sends, by the name of its request schema: a body the route would take from its owner. */
const BODIES: Record<string, () => unknown> = {
  lot: () => ({ title: 'renamed' }),
  document: () => aDocument(),
  'document.patch': () => ({ title: 'renamed.pdf' }),
  ownership: () => ({ id: hex32(), transfer: hex32() }),
  'asset.basic': () => ({ title: 'renamed' }),
  'asset.bounce': () => ({ title: 'renamed' }),
  'item.bounce': () => anItem(),
  'decision.bounce': () => aDecision(),
  relatedProcess: () => ({ relatedProcessID: hex32(), type: 'lot' }),
  'auction.landlease.stored': () => ({ title: 'renamed' }),
  'auction.dgfInsider.stored': () => ({ title: 'renamed' }),
  question: () => aQuestion(),
  answer: () => ({ answer: 'Так' }),
  'bid.landlease': () => aBid(),
  'bid.dgfInsider': () => anInsiderBid(),
  'bid.landlease.patch': () => ({ status: 'pending' }),
  'bid.dgfInsider.patch': () => ({ status: 'active' }),
  cancellation: () => ({ reason: 'Причина' }),
  'cancellation.patch': () => ({ status: 'active' }),
  'award.patch': () => ({ status: 'active' }),
  'contract.patch': () => ({ status: 'active' }),
  prolongation: () => ({ reason: 'other', description: 'x', decisionID: '1', datePublished: '2026-01-01' }),
  'prolongation.patch': () => ({ status: 'applied' }),
  'auction.results': () => ({ bids: [] }),
};

const md5 = (bytes: Uint8Array) => `md5:${createHash('md5').update(bytes).digest('hex')}`;

/** A document whose bytes the document service holds, as its owner adds it. */
async function uploadedDocument(): Promise<{ body: Record<string, unknown>; bytes: Buffer }> {
  const bytes = randomBytes(1_000);
  const registered = await api.post('/api/docservice/register', { hash: md5(bytes) });
  expect(registered.status).toBe(201);
  const put = await fetch(registered.body.data.upload_url, {
    method: 'PUT',
    headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
    body: bytes,
  });
  expect(put.status).toBe(200);
  return {
    body: aDocument({ url: registered.body.data.url, hash: md5(bytes), format: 'application/octet-stream' }),
    bytes,
  };
}

interface Draft {
  /** The object's path (its GET) and its token. */
  url: string;
  token: string;
  /** Real children's ids by path parameter (a document's, an item's...); others get unknown ids. */
  children: Record<string, string>;
  /** The download key of a document with bytes, when the draft has one. */
  download?: string;
  bytes?: Buffer;
}

async function created(path: string, body: unknown): Promise<{ url: string; token: string; data: any }> {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data.status).toBe('draft');
  return { url: `${path}/${res.body.data.id}`, token: res.body.access.token, data: res.body.data };
}

/** A draft with a document that has bytes, where its kind takes documents in draft. */
async function withDocument(draft: Draft): Promise<Draft> {
  const { body, bytes } = await uploadedDocument();
  const added = await api.post(`${draft.url}/documents`, body, { token: draft.token });
  if (added.status !== 201) return draft;
  const download = new URL(added.body.data.url).searchParams.get('download') ?? undefined;
  return { ...draft, children: { ...draft.children, documentId: added.body.data.id }, download, bytes };
}

/** The drafts, by the first path parameter and type of the routes under them. */
async function drafts(): Promise<Record<string, Draft>> {
  const lot = await created('/api/0.1/lots', aLot());
  const basic = await created('/api/0.1/assets', aBasicAsset());
  const bounce = await created('/api/2.4/assets', aBounceAsset());
  const insider = await created(INSIDER, anInsiderAuction(kyivDayIn(14), { ...SANDBOX, status: 'draft' }));
  const landlease = await created(AUCTIONS, aLandleaseAuction(kyivDayIn(21), SANDBOX));
  return {
    'lotId ': { url: lot.url, token: lot.token, children: {} },
    'assetId basic': { url: basic.url, token: basic.token, children: {} },
    'assetId bounce': await withDocument({
      url: bounce.url,
      token: bounce.token,
      children: { itemId: bounce.data.items[0].id },
    }),
    'auctionId dgfInsider': await withDocument({ url: insider.url, token: insider.token, children: {} }),
    'auctionId landlease': await withDocument({ url: landlease.url, token: landlease.token, children: {} }),
  };
}

const PARAM = /\{(\w+)\}/g;
const firstParam = (r: RouteDefinition) => [...r.path.matchAll(PARAM)][0]?.[1];

/** The path of `route` with the object's id `id` and each child's id (a real one of the draft's, or `unknown`). */
function pathOf(route: RouteDefinition, id: string, children: Record<string, string>, unknown: string): string {
  let first = true;
  return route.path.replace(PARAM, (_, name: string) => {
    if (first) {
      first = false;
      return id;
    }
    return children[name] ?? unknown;
  });
}

/** The queries each route is walked with: none, and those that read a different page or a file. */
function queries(route: RouteDefinition, draft: Draft): string[] {
  if (route.method !== 'GET') return [''];
  const response = route.doc?.response;
  if (response === 'revisions') return ['', '?offset=1', '?offset=1&limit=1', '?limit=1'];
  if (response === 'collection') return ['', '?all=1'];
  if (route.path.endsWith('{documentId}') && draft.download) return ['', `?download=${draft.download}`];
  return [''];
}

/** What is compared: status, body (the id asked for written as `<id>`, since a page names it) and DynamoDB requests. */
const comparable = (a: Answer, id: string) =>
  `${a.status} ${a.requests} ${JSON.stringify(a.body ?? null).replaceAll(id, '<id>')}`;

describe('a draft', () => {
  it('answers anyone but its owner, on every route under it, exactly as an unknown id', async () => {
    const all = await drafts();
    // The auctions' drafts hold a document whose bytes the document service keeps (lots and assets take none in draft).
    expect(Object.values(all).filter((d) => d.download).length).toBe(2);
    const params = new Set(routes.map(firstParam).filter((p): p is string => p !== undefined));
    // Every kind of id in the table is an object's (walked below) or named as under no draft.
    expect([...params].sort()).toEqual(['assetId', 'auctionId', 'lotId', ...NOT_UNDER_AN_OBJECT].sort());

    const unknownChild = hex32();
    const walked = new Set<string>();
    const differences: string[] = [];
    for (const route of routes) {
      const param = firstParam(route);
      if (param === undefined || NOT_UNDER_AN_OBJECT.includes(param)) continue;
      const draft = all[`${param} ${param === 'lotId' ? '' : route.type}`];
      expect(draft, `a draft under ${route.method} ${route.path}`).toBeDefined();
      walked.add(`${route.method} ${route.path}`);
      const id = draft.url.split('/').at(-1)!;
      const request = route.doc?.request?.replaceAll('{type}', route.type ?? '');
      for (const query of queries(route, draft)) {
        for (const [caller, options] of Object.entries(CALLERS)) {
          const body =
            route.method === 'GET' || route.method === 'DELETE' ? undefined : (BODIES[request ?? '']?.() ?? {});
          const ask = (objectId: string) =>
            api.call(
              route.method,
              `${pathOf(route, objectId, draft.children, unknownChild)}${query}`,
              body,
              options(draft.token),
            );
          const other = hex32();
          const unknown = comparable(await ask(other), other);
          const answer = comparable(await ask(id), id);
          if (answer !== unknown) {
            differences.push(
              `${route.method} ${route.path}${query} (${caller}): ${answer.slice(0, 300)} | unknown: ${unknown.slice(0, 300)}`,
            );
          }
        }
      }
    }
    console.log(`drafts-private: ${walked.size} route-methods walked under drafts`);
    expect(differences).toEqual([]);
    expect(walked.size).toBeGreaterThan(100);

    // The owner still has them: each draft reads, and a document's link gives its bytes.
    for (const draft of Object.values(all)) {
      const own = await api.get(draft.url, { token: draft.token });
      expect(own.status).toBe(200);
      expect(own.body.data.status).toBe('draft');
      if (!draft.download) continue;
      const link = await api.get(`${draft.url}/documents/${draft.children.documentId}?download=${draft.download}`);
      expect(link.status).toBe(302);
      const file = await fetch(link.headers.get('location')!);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(draft.bytes);
    }
  }, 120_000); // 137 routes, three callers each: the harness's limit on a loaded machine, not a time asserted
});
