/**
 * THE route table: data only. The CDK ApiStack makes one Lambda per entry, the local gateway serves the same
 * entries with the same handlers, and the HTTP kit reads each route's access rule from here.
 *
 * `auth`: who may call. `'any'` = any valid API key (reads); a list = only keys of those roles. Owner-only
 * operations list `broker` and the owner's token is then checked by the domain command.
 * `table`: the grant the function gets (`ro` for reads).
 */
import type { Role } from './domain/kernel/principal.ts';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'ANY';
  /** API Gateway path syntax (`{lotId}`); `$default` catches unknown paths. */
  path: string;
  /** Module under `functions/`, without extension. */
  handler: string;
  auth: 'any' | 'public' | readonly Role[];
  table: 'ro' | 'rw' | 'none';
  /** Response media type; 2.3 answers add `; charset=UTF-8`. */
  contentType?: string;
  /** `Location` on 201: an absolute URL (0.1, 2.3, 2.4) or a path (2.5). */
  location?: 'url' | 'path';
  /**
   * The resource type a route serves when one handler module serves several API paths (assets: `bounce` at 2.4,
   * `basic` at 0.1). Handlers read it from the request; the CDK function id includes it.
   */
  variant?: string;
  /** `binary`: the body is raw bytes (a file upload), handed to the handler as is instead of parsed as JSON. */
  body?: 'binary';
}

const LOTS = '/api/0.1/lots';
const OWNER_AND_BOTS = ['broker', 'concierge', 'convoy', 'admin'] as const;
const BOUNCE_ASSETS = '/api/2.4/assets';
const BASIC_ASSETS = '/api/0.1/assets';
const SCHEMAS = '/api/schemas';
const DOCSERVICE = '/api/docservice';

/** Listing, create, read and PATCH of the assets of one type (`variant`) at its API path. */
const assetRoutes = (base: string, variant: string): RouteDefinition[] => [
  { method: 'GET', path: base, handler: 'http/assets/list-assets', auth: 'any', table: 'ro', variant },
  { method: 'POST', path: base, handler: 'http/assets/post-asset', auth: ['broker'], table: 'rw', variant },
  { method: 'GET', path: `${base}/{assetId}`, handler: 'http/assets/get-asset', auth: 'any', table: 'ro', variant },
  { method: 'PATCH', path: `${base}/{assetId}`, handler: 'http/assets/patch-asset', auth: ['broker', 'concierge', 'admin'], table: 'rw', variant },
];

/**
 * Every route of the auctions of one type (`variant` = procurementMethodType) at its API path; the handlers are
 * shared by the types. `style` carries what differs between API versions (Location form, media type).
 */
const auctionRoutes = (base: string, variant: string, style: Pick<RouteDefinition, 'location' | 'contentType'>): RouteDefinition[] => {
  const route = (method: RouteDefinition['method'], path: string, handler: string, auth: RouteDefinition['auth']): RouteDefinition => ({
    method, path: `${base}${path}`, handler: `http/auctions/${handler}`, auth, table: method === 'GET' ? 'ro' : 'rw', variant, ...style,
  });
  return [
    route('GET', '', 'list-auctions', 'any'),
    route('POST', '', 'post-auction', ['broker']),
    route('GET', '/{auctionId}', 'get-auction', 'any'),
    route('PATCH', '/{auctionId}', 'patch-auction', ['broker']),
    route('GET', '/{auctionId}/documents', 'list-auction-documents', 'any'),
    route('POST', '/{auctionId}/documents', 'post-auction-document', ['broker']),
    route('GET', '/{auctionId}/documents/{documentId}', 'get-auction-document', 'any'),
    route('PUT', '/{auctionId}/documents/{documentId}', 'put-auction-document', ['broker']),
    route('GET', '/{auctionId}/questions', 'list-questions', 'any'),
    route('POST', '/{auctionId}/questions', 'post-question', ['broker']),
    route('GET', '/{auctionId}/questions/{questionId}', 'get-question', 'any'),
    route('PATCH', '/{auctionId}/questions/{questionId}', 'patch-question', ['broker']),
    route('POST', '/{auctionId}/bids', 'post-bid', ['broker']),
    route('GET', '/{auctionId}/bids/{bidId}', 'get-bid', 'any'),
    route('PATCH', '/{auctionId}/bids/{bidId}', 'patch-bid', ['broker']),
    route('DELETE', '/{auctionId}/bids/{bidId}', 'delete-bid', ['broker']),
    route('POST', '/{auctionId}/bids/{bidId}/documents', 'post-bid-document', ['broker']),
    route('GET', '/{auctionId}/bids/{bidId}/documents/{documentId}', 'get-bid-document', 'any'),
    route('GET', '/{auctionId}/auction', 'get-auction-module', ['auction']),
    route('POST', '/{auctionId}/auction', 'post-auction-results', ['auction']),
    route('GET', '/{auctionId}/awards', 'list-awards', 'any'),
    route('GET', '/{auctionId}/awards/{awardId}', 'get-award', 'any'),
    route('PATCH', '/{auctionId}/awards/{awardId}', 'patch-award', ['broker']),
    route('POST', '/{auctionId}/awards/{awardId}/documents', 'post-award-document', ['broker']),
    route('GET', '/{auctionId}/contracts', 'list-contracts', 'any'),
    route('GET', '/{auctionId}/contracts/{contractId}', 'get-contract', 'any'),
    route('PATCH', '/{auctionId}/contracts/{contractId}', 'patch-contract', ['broker']),
    route('GET', '/{auctionId}/cancellations', 'list-cancellations', 'any'),
    route('POST', '/{auctionId}/cancellations', 'post-cancellation', ['broker']),
    route('GET', '/{auctionId}/cancellations/{cancellationId}', 'get-cancellation', 'any'),
    route('PATCH', '/{auctionId}/cancellations/{cancellationId}', 'patch-cancellation', ['broker']),
  ];
};

export const routes: readonly RouteDefinition[] = [
  { method: 'GET', path: LOTS, handler: 'http/lots/list-lots', auth: 'any', table: 'ro' },
  { method: 'POST', path: LOTS, handler: 'http/lots/post-lot', auth: ['broker', 'concierge', 'convoy'], table: 'rw' },
  { method: 'GET', path: `${LOTS}/{lotId}`, handler: 'http/lots/get-lot', auth: 'any', table: 'ro' },
  { method: 'PATCH', path: `${LOTS}/{lotId}`, handler: 'http/lots/patch-lot', auth: OWNER_AND_BOTS, table: 'rw' },
  { method: 'GET', path: `${LOTS}/{lotId}/documents`, handler: 'http/lots/list-lot-documents', auth: 'any', table: 'ro' },
  { method: 'POST', path: `${LOTS}/{lotId}/documents`, handler: 'http/lots/post-lot-document', auth: ['broker'], table: 'rw' },
  { method: 'GET', path: `${LOTS}/{lotId}/documents/{documentId}`, handler: 'http/lots/get-lot-document', auth: 'any', table: 'ro' },
  { method: 'PUT', path: `${LOTS}/{lotId}/documents/{documentId}`, handler: 'http/lots/put-lot-document', auth: ['broker'], table: 'rw' },
  ...assetRoutes(BOUNCE_ASSETS, 'bounce'),
  { method: 'PATCH', path: `${BOUNCE_ASSETS}/{assetId}/items/{itemId}`, handler: 'http/assets/patch-asset-item', auth: ['broker'], table: 'rw', variant: 'bounce' },
  { method: 'GET', path: `${BOUNCE_ASSETS}/{assetId}/documents`, handler: 'http/assets/list-asset-documents', auth: 'any', table: 'ro', variant: 'bounce' },
  { method: 'POST', path: `${BOUNCE_ASSETS}/{assetId}/documents`, handler: 'http/assets/post-asset-document', auth: ['broker'], table: 'rw', variant: 'bounce' },
  { method: 'GET', path: `${BOUNCE_ASSETS}/{assetId}/documents/{documentId}`, handler: 'http/assets/get-asset-document', auth: 'any', table: 'ro', variant: 'bounce' },
  ...assetRoutes(BASIC_ASSETS, 'basic'),
  { method: 'GET', path: SCHEMAS, handler: 'http/schemas/list-schemas', auth: 'any', table: 'none' },
  { method: 'GET', path: `${SCHEMAS}/{code}`, handler: 'http/schemas/get-schema', auth: 'any', table: 'none' },
  { method: 'POST', path: `${DOCSERVICE}/register`, handler: 'http/docservice/register', auth: ['broker'], table: 'none' },
  { method: 'POST', path: `${DOCSERVICE}/upload`, handler: 'http/docservice/upload', auth: ['broker'], table: 'none', body: 'binary' },
  { method: 'PUT', path: `${DOCSERVICE}/upload/{key}`, handler: 'http/docservice/upload-registered', auth: ['broker'], table: 'none', body: 'binary' },
  // Public: the signature is the credential (a browser follows the 302 of `?download=` without API keys).
  { method: 'GET', path: `${DOCSERVICE}/get/{key}`, handler: 'http/docservice/get-file', auth: 'public', table: 'none' },
  ...auctionRoutes('/api/2.5/auctions', 'landlease', { location: 'path' }),
  ...auctionRoutes('/api/2.3/auctions', 'dgfInsider', { contentType: 'application/json; charset=UTF-8' }),
  { method: 'ANY', path: '$default', handler: 'http/not-found', auth: 'public', table: 'none' },
];

export const routeKey = (r: Pick<RouteDefinition, 'method' | 'path'>): string =>
  r.path === '$default' ? '$default' : `${r.method} ${r.path}`;

/**
 * What a route needs of the document service: `files` (the docservice routes: signing key and the file store),
 * `keys` (routes on documents: the signing key to check URLs and sign download links, and marking files attached).
 */
export const docserviceAccess = (r: Pick<RouteDefinition, 'path'>): 'files' | 'keys' | undefined =>
  r.path.startsWith(`${DOCSERVICE}/`) ? 'files' : /\/documents(\/|$)/.test(r.path) ? 'keys' : undefined;
