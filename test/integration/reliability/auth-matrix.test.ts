import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '../../../functions/routes.ts';
import { hex32 } from '../../support/builders.ts';
import { client, type Answer } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { fullProcedure } from './procedure.ts';

const service = useService();
const api = client(() => service.url);

/**
 * Every route of functions/routes.ts × every kind of caller. A route added to the table without an entry in
 * `KIND` below fails here, so none can be forgotten. Bodies are deliberately empty (`{data: {}}`): an admitted caller
 * then gets a 2xx (reads, PATCHes that change nothing), a 422 (creations) or a business 403/404, never a 401, and a
 * caller the route or the object refuses gets 401 (no valid key) or 403.
 */

/** What decides access past the route's `auth`: */
type Kind =
  | 'read' // any key reads (200)
  | 'bid-read' // a bid: its holder always, others once the auction shows its bids
  | 'create' // any admitted key may try (an empty body is a 422)
  | 'owner' // the object's owner: its creator's key holding its token
  | 'module' // the auction system
  | 'public' // no key needed
  | 'log'; // a change log that may not have begun: 200, or 404 before its first change (the calendar's)

const KIND: Record<string, Kind> = {
  'http/calendar/get-calendar': 'read',
  'http/calendar/patch-calendar': 'owner',
  'http/calendar/list-calendar-revisions': 'log',
  'http/lots/list-lots': 'read',
  'http/lots/get-lot': 'read',
  'http/lots/list-lot-revisions': 'read',
  'http/lots/list-lot-documents': 'read',
  'http/lots/get-lot-document': 'read',
  'http/lots/post-lot': 'create',
  'http/lots/patch-lot': 'owner',
  'http/lots/post-lot-document': 'owner',
  'http/lots/put-lot-document': 'owner',
  'http/assets/list-assets': 'read',
  'http/assets/get-asset': 'read',
  'http/assets/list-asset-revisions': 'read',
  'http/assets/list-asset-documents': 'read',
  'http/assets/get-asset-document': 'read',
  'http/assets/post-asset': 'create',
  'http/assets/patch-asset': 'owner',
  'http/assets/patch-asset-item': 'owner',
  'http/assets/post-asset-item': 'owner',
  'http/assets/post-asset-decision': 'owner',
  'http/assets/post-asset-document': 'owner',
  'http/schemas/list-schemas': 'read',
  'http/schemas/get-schema': 'read',
  'http/docservice/register': 'create',
  'http/docservice/upload': 'create',
  'http/docservice/upload-registered': 'create',
  'http/docservice/get-file': 'public',
  'http/auctions/list-auctions': 'read',
  'http/auctions/get-auction': 'read',
  'http/auctions/list-auction-revisions': 'read',
  'http/auctions/list-auction-documents': 'read',
  'http/auctions/get-auction-document': 'read',
  'http/auctions/list-questions': 'read',
  'http/auctions/get-question': 'read',
  'http/auctions/list-awards': 'read',
  'http/auctions/get-award': 'read',
  'http/auctions/list-contracts': 'read',
  'http/auctions/get-contract': 'read',
  'http/auctions/list-cancellations': 'read',
  'http/auctions/get-cancellation': 'read',
  'http/auctions/list-contract-documents': 'read',
  'http/auctions/get-contract-document': 'read',
  'http/auctions/list-award-documents': 'read',
  'http/auctions/get-award-document': 'read',
  'http/auctions/put-award-document': 'owner',
  'http/auctions/post-contract-document': 'owner',
  'http/auctions/put-contract-document': 'owner',
  'http/auctions/get-bid': 'bid-read',
  'http/auctions/get-bid-document': 'bid-read',
  'http/auctions/list-bid-documents': 'bid-read',
  'http/auctions/put-bid-document': 'owner',
  'http/auctions/patch-bid-document': 'owner',
  'http/auctions/get-auction-credentials': 'read', // admin only: every other role is refused by the route's auth
  'http/auctions/post-auction': 'create',
  'http/auctions/post-question': 'create',
  'http/auctions/post-bid': 'create',
  'http/auctions/patch-auction': 'owner',
  'http/auctions/post-auction-document': 'owner',
  'http/auctions/put-auction-document': 'owner',
  'http/auctions/patch-question': 'owner',
  'http/auctions/patch-bid': 'owner',
  'http/auctions/delete-bid': 'owner',
  'http/auctions/post-bid-document': 'owner',
  'http/auctions/patch-award': 'owner',
  'http/auctions/post-award-document': 'owner',
  'http/auctions/patch-contract': 'owner',
  'http/auctions/post-cancellation': 'owner',
  'http/auctions/patch-cancellation': 'owner',
  'http/auctions/list-cancellation-documents': 'read',
  'http/auctions/get-cancellation-document': 'read',
  'http/auctions/post-cancellation-document': 'owner',
  'http/auctions/put-cancellation-document': 'owner',
  'http/auctions/patch-cancellation-document': 'owner',
  'http/auctions/list-prolongations': 'read',
  'http/auctions/get-prolongation': 'read',
  'http/auctions/post-prolongation': 'owner',
  'http/auctions/patch-prolongation': 'owner',
  'http/auctions/list-prolongation-documents': 'read',
  'http/auctions/get-prolongation-document': 'read',
  'http/auctions/post-prolongation-document': 'owner',
  'http/auctions/patch-prolongation-document': 'owner',
  'http/auctions/get-auction-module': 'module',
  'http/auctions/post-auction-results': 'module',
  // Ownership and transfers: brokers only; an empty body is a 422. Related processes: the concierge writes (an
  // unknown one is a 404), anyone reads.
  'http/lots/post-lot-ownership': 'create',
  'http/assets/post-asset-ownership': 'create',
  'http/auctions/post-auction-ownership': 'create',
  'http/transfers/post-transfer': 'create',
  'http/transfers/get-transfer': 'read',
  'http/assets/list-related-processes': 'read',
  'http/assets/get-related-process': 'read',
  'http/assets/post-related-process': 'create',
  'http/assets/patch-related-process': 'create',
  'http/assets/delete-related-process': 'create',
  // Webhook subscriptions: brokers and admins create; the rest is the subscription's owner's (an admin by role).
  'http/subscriptions/post-subscription': 'create',
  'http/subscriptions/get-subscription': 'owner',
  'http/subscriptions/patch-subscription': 'owner',
  'http/subscriptions/delete-subscription': 'owner',
  'http/subscriptions/post-subscription-secret': 'owner',
  'http/subscriptions/list-deliveries': 'owner',
  'http/subscriptions/post-subscription-replay': 'owner',
  'http/subscriptions/post-subscription-ping': 'owner',
  'http/docs/openapi-json': 'public',
  'http/docs/docs-page': 'public',
  'http/docs/docs-asset': 'public',
  'http/not-found': 'public',
  'http/health': 'public',
  'room-page/page': 'public',
  'room-page/login': 'public',
  'room-page/agree': 'public',
  'room-page/session-token': 'public',
  'room-page/asset': 'public',
};

/** The public routes, listed on purpose: a route made public by mistake fails here. */
const PUBLIC = [
  'GET /api/docservice/get/{key}',
  'GET /api/openapi.json',
  'HEAD /api/openapi.json',
  'GET /api/docs',
  'GET /api/docs/{file}',
  'GET /api/health',
  // The auction room's page: anyone may watch; a bidder's participation link is its own credential.
  ...['insider', 'texas'].flatMap((kind) => [
    `GET /${kind}-auctions/{auctionId}`,
    `GET /${kind}-auctions/{auctionId}/login`,
    `POST /${kind}-auctions/{auctionId}/login`,
    `GET /${kind}-auctions/{auctionId}/session`,
  ]),
  'GET /room-page/{file}',
  'ANY $default',
];

const ROLE_KEYS = ['broker', 'broker2', 'concierge', 'convoy', 'chronograph', 'auction', 'admin'] as const;
type Caller =
  | { name: 'none' | 'unknown key' }
  | { name: (typeof ROLE_KEYS)[number] }
  | { name: "owner's token" | "another owner's token" | "a bid's token on the auction" };
const CALLERS: Caller[] = [
  { name: 'none' },
  { name: 'unknown key' },
  ...ROLE_KEYS.map((name) => ({ name })),
  { name: "owner's token" },
  { name: "another owner's token" },
  { name: "a bid's token on the auction" },
];

const key = (r: RouteDefinition) => (r.path === '$default' ? 'ANY $default' : `${r.method} ${r.path}`);
const FAKE = '0'.repeat(32);

type World = Awaited<ReturnType<typeof fullProcedure>> & {
  schema: string;
  fileKey: string;
  file: string;
  transferId: string;
  subscription: { id: string; token: string };
};

/** The path of a route with real objects, and whose it is (the key and token of its owner). */
function target(
  r: RouteDefinition,
  w: World,
): { path: string; owner: { as: string; token: string }; bidsShown: boolean } {
  const insider = r.path.startsWith('/api/2.3/');
  const bidPath = r.path.includes('{bidId}');
  // A DELETE withdraws the bid while the auction is tendering (landlease): it gets a bid of its own.
  const bid = insider ? w.insBid : r.method === 'DELETE' ? w.landSpareBid : w.landBid;
  const params: Record<string, string> = {
    lotId: w.lot.id,
    itemId: w.bounce.asset.items[0].id,
    code: w.schema,
    key: w.fileKey,
    file: w.file,
    assetId: r.path.startsWith('/api/2.4/') ? w.bounce.id : w.basic.id,
    auctionId: insider ? w.insider.id : w.land.id,
    bidId: bid.id,
    questionId: insider ? w.insQuestion : w.landQuestion,
    awardId: insider ? w.award : FAKE,
    contractId: insider ? w.contract : FAKE,
    cancellationId: FAKE,
    prolongationId: FAKE,
    relatedProcessId: FAKE,
    transferId: w.transferId,
    subscriptionId: w.subscription.id,
    documentId: r.path.startsWith('/api/0.1/lots')
      ? w.lotDocument
      : r.path.includes('/bids/')
        ? insider
          ? w.insBidDocument
          : w.landBidDocument
        : r.path.includes('/contracts/')
          ? w.insContractDocument
          : r.path.includes('/awards/')
            ? insider
              ? w.insAwardDocument
              : FAKE
            : r.path.startsWith('/api/2.4/')
              ? w.assetDocument
              : insider
                ? w.insDocument
                : w.landDocument,
  };
  const path =
    r.path === '$default' ? '/api/nowhere' : r.path.replace(/\{(\w+)\}/g, (_, p) => params[p] ?? `missing-${p}`);
  const object = r.path.startsWith('/api/0.1/lots')
    ? w.lot
    : r.path.startsWith('/api/2.4/')
      ? w.bounce
      : r.path.startsWith('/api/0.1/assets')
        ? w.basic
        : insider
          ? w.insider
          : w.land;
  const owner = bidPath
    ? { as: 'broker2', token: bid.token }
    : r.path.startsWith('/api/0.1/subscriptions/')
      ? { as: 'broker', token: w.subscription.token }
      : { as: 'broker', token: object.token };
  return { path, owner, bidsShown: insider };
}

/** A subscription of its own (a DELETE deletes it: the next caller must find one still there). */
async function freshSubscription() {
  const made = await api.post('/api/0.1/subscriptions', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
  return { id: made.body.data.id as string, token: made.body.access.token as string };
}

async function send(r: RouteDefinition, w: World, caller: Caller): Promise<Answer> {
  const deletes = r.handler === 'http/subscriptions/delete-subscription';
  const { path, owner } = target(r, deletes ? { ...w, subscription: await freshSubscription() } : w);
  const method = r.method === 'ANY' ? 'GET' : r.method;
  const body =
    method === 'POST' || method === 'PUT' || method === 'PATCH'
      ? r.body === 'binary'
        ? { raw: '' }
        : { raw: '{"data":{}}' }
      : {};
  const bidToken = r.path.startsWith('/api/2.3/') ? w.insBid.token : w.landBid.token;
  // `none`: no Authorization header at all.
  const as =
    caller.name === 'none'
      ? undefined
      : ({
          'unknown key': hex32(),
          "owner's token": owner.as,
          "another owner's token": 'broker2',
          "a bid's token on the auction": 'broker2',
        }[caller.name as string] ?? caller.name);
  const token = {
    "owner's token": owner.token,
    "another owner's token": w.other.token,
    "a bid's token on the auction": bidToken,
  }[caller.name as string];
  return api.call(method, path, undefined, { as, token, ...body });
}

const permission403 = (res: Answer) => res.status === 403 && res.body?.errors?.[0]?.location === 'url';

/** The expected answer, as a predicate and its description. */
function expected(r: RouteDefinition, caller: Caller, w: World): [string, (res: Answer) => boolean] {
  const kind = KIND[r.handler];
  const { bidsShown } = target(r, w);
  const keyRole =
    { none: 'anonymous', 'unknown key': 'anonymous' }[caller.name as string] ??
    (ROLE_KEYS.includes(caller.name as never) ? caller.name : 'broker');
  const role = keyRole === 'broker2' ? 'broker' : keyRole;
  if (kind === 'public') {
    if (r.path === '$default') return ['404', (res) => res.status === 404];
    // The room page: a page, or a refusal of the link (403) or of the id (404) in HTML; never a key asked for.
    if (r.handler.startsWith('room-page/'))
      return ['2xx, 403 or 404', (res) => (res.status >= 200 && res.status < 300) || [403, 404].includes(res.status)];
    if (r.handler === 'http/docservice/get-file')
      return ['4xx: no signature', (res) => res.status >= 400 && res.status < 500 && res.status !== 401];
    return ['200', (res) => res.status === 200];
  }
  // Public data is read without a key, as the originals let anyone; an unknown key is refused, never read as none.
  if (role === 'anonymous' && (r.auth !== 'read' || caller.name !== 'none'))
    return ['401', (res) => res.status === 401 && res.body.errors[0].location === 'header'];
  if (r.auth !== 'any' && r.auth !== 'read' && !r.auth.includes(role as never))
    return ['403 permission', permission403];
  const isOwner = caller.name === "owner's token";
  const fake =
    (/\{(awardId|contractId|cancellationId)\}/.test(r.path) && !r.path.startsWith('/api/2.3/')) ||
    /\{(cancellationId|relatedProcessId|prolongationId)\}/.test(r.path);
  const admitted: [string, (res: Answer) => boolean] = fake
    ? // The body is checked before the object is read: an empty one to an unknown child may be its 422.
      ['404 (no such child), 403 or 422', (res) => [403, 404, 422].includes(res.status)]
    : [
        '2xx, 422, or a business refusal (403 in body)',
        (res) =>
          (res.status >= 200 && res.status < 300) || res.status === 422 || (res.status === 403 && !permission403(res)),
      ];
  switch (kind) {
    case 'read':
      return fake ? admitted : ['200', (res) => res.status === 200];
    case 'log':
      return ['200, or 404 before the first change', (res) => [200, 404].includes(res.status)];
    case 'bid-read':
      return isOwner || bidsShown ? ['200', (res) => res.status === 200] : ['403', (res) => res.status === 403];
    case 'create':
      // Empty bodies: a 422, or a 404 for the file an upload lacks.
      return ['2xx, 404, 422 or a business 403', (res) => admitted[1](res) || res.status === 404];
    case 'module':
      return admitted;
    case 'owner':
      if (isOwner)
        return [`owner: ${admitted[0]}, never a permission 403`, (res) => admitted[1](res) && !permission403(res)];
      // The awarded bidder may add documents to its award too (the insider world's bid is the awarded one).
      if (
        /^http\/auctions\/(post|put)-award-document$/.test(r.handler) &&
        caller.name === "a bid's token on the auction" &&
        r.path.startsWith('/api/2.3/')
      ) {
        return [
          `the awarded bidder: ${admitted[0]}, never a permission 403`,
          (res) => admitted[1](res) && !permission403(res),
        ];
      }
      if (role !== 'broker')
        // An admitted admin's empty body may be a 422 (a subscription's replay needs its cursor).
        return ['a bot or admin acting by role: 2xx, 422 or 403', (res) => [200, 403, 422].includes(res.status)];
      return fake ? admitted : ['403 (not the owner)', (res) => res.status === 403];
    default:
      throw new Error(`no expectation for ${r.handler}`);
  }
}

describe('the auth matrix of the route table', () => {
  let world: World;
  beforeAll(async () => {
    const w = await fullProcedure(api, service);
    const schema = (await api.get('/api/schemas')).body.data[0] as string;
    const registered = await api.post('/api/docservice/register', { hash: `md5:${'a'.repeat(32)}` });
    const fileKey = new URL(registered.body.data.upload_url, service.url).pathname.split('/').pop()!;
    const transferId = (await api.post('/api/0.1/transfers', {})).body.data.id as string;
    world = {
      ...w,
      schema: typeof schema === 'string' ? schema : (schema as any).code,
      fileKey,
      file: 'swagger-ui.css',
      transferId,
      subscription: await freshSubscription(),
    };
  }, 120_000);
  afterAll(() => world?.clock.reset());

  it('knows every route of the table, and lists the public ones on purpose', () => {
    for (const r of routes) expect(KIND[r.handler], `${key(r)} (${r.handler}) needs an entry in KIND`).toBeDefined();
    for (const r of routes.filter((r) => r.auth === 'public'))
      expect(PUBLIC, `${key(r)} is public: list it in PUBLIC if it should be`).toContain(key(r));
  });

  for (const r of routes) {
    it(`${key(r)}: ${CALLERS.length} callers`, async () => {
      const failures: string[] = [];
      // The owner goes last (a DELETE by the owner removes the object); on a bid, the bid's token is the owner's.
      const callers = r.path.includes('{bidId}')
        ? CALLERS.filter((c) => c.name !== "a bid's token on the auction")
        : CALLERS;
      for (const caller of [
        ...callers.filter((c) => c.name !== "owner's token"),
        ...callers.filter((c) => c.name === "owner's token"),
      ]) {
        const [what, ok] = expected(r, caller, world);
        const res = await send(r, world, caller);
        if (res.status >= 500 || !ok(res))
          failures.push(
            `${caller.name}: expected ${what}, got ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`,
          );
      }
      expect(failures).toEqual([]);
    });
  }
});
