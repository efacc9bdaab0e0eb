/**
 * THE route table: data only. The CDK ApiStack makes one Lambda per entry, the local gateway serves the same
 * entries with the same handlers, and the HTTP kit gets each route's access rule from here (`routeRule`), handed in
 * by the build (each Lambda only its own routes') or the local gateway: only the OpenAPI document imports this table.
 *
 * `auth`: who may call. `'read'` = anyone, with a key or without (reads of public data, as the originals let anyone
 * read; what a role may not see stays hidden by the domain, and a caller without a known key is limited per source
 * address), unless the operator requires a key for reads (AGORA_READS_NEED_KEY); `'any'` = any valid API key;
 * `'public'` = anyone, without the authorizer; a list = only keys of those roles. Owner-only operations list `broker`
 * and the owner's token is then checked by the domain command.
 * `table`: the grant the function gets: `ro` for a GET, `rw` otherwise, unless the route says (`none`: no table).
 *
 * Written by families (`family`): a base path, the folder of its handlers and what its routes share (the type they
 * serve, the API version's style), then its routes by path under the base and by method, each
 * `[handler, auth, doc, extras?]`, in table order. The routes of an auction or asset type come from its descriptor
 * (the catalogs): the routes every type has (AUCTION_ROUTES, ASSET_ROUTES) and those only some have, by what the
 * descriptor says (`transfers`, `items`, `documents`, `relatedProcesses`). A new route is a line in its family; a
 * new type is its descriptor.
 */
import { AUCTION_TYPES } from './domain/auctions/catalog.ts';
import type { AuctionTypeDescriptor } from './domain/auctions/descriptor.ts';
import type { AssetTypeDescriptor } from './domain/assets/descriptor.ts';
import { ASSET_TYPES } from './domain/assets/types/catalog.ts';
import type { Role } from './domain/kernel/principal.ts';
import type { RouteRule } from './http-kit/route-rules.ts';
import { SWAGGER_UI_FILES } from './swagger-ui-files.ts';

export interface RouteDefinition {
  /** HEAD only where a client asks for it (API Gateway matches no GET route to a HEAD): the GET's handler, no body. */
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'ANY';
  /** API Gateway path syntax (`{lotId}`); `$default` catches unknown paths. */
  path: string;
  /** Module under `functions/`, without extension. */
  handler: string;
  auth: 'any' | 'read' | 'public' | readonly Role[];
  table: 'ro' | 'rw' | 'none';
  /** Response media type; 2.3 answers add `; charset=UTF-8`. */
  contentType?: string;
  /** `Location` on 201: an absolute URL (0.1, 2.3, 2.4) or a path (2.5). */
  location?: 'url' | 'path';
  /**
   * The auction or asset type a route serves, where one handler module serves several types at their own API paths
   * (assets: `bounce` at 2.4, `basic` at 0.1). Handlers read it from the request; the CDK function id includes it.
   */
  type?: string;
  /** The API version of a route whose handler serves several versions alike (transfers): its function id includes it. */
  apiVersion?: string;
  /**
   * `binary`: the body is raw bytes (a file upload), handed to the handler as is instead of parsed as JSON.
   * `optional`: a POST that takes nothing (rotate, ping): no body, or an empty one, is `{"data": {}}`; one sent is JSON.
   */
  body?: 'binary' | 'optional';
  /** Server secrets the handler reads (`participation`: it keys bidders' participation links); CDK grants only those. */
  secrets?: readonly 'participation'[];
  /** The handler shows the auction room's WebSocket URL (the room page): CDK gives it the room stage's (AGORA_ROOM_SOCKET). */
  roomSocket?: true;
  /** Files of npm packages the handler reads at run time (`swagger-ui-dist/swagger-ui.css`): shipped next to its bundle. */
  files?: readonly string[];
  /** What the OpenAPI document says of the route (functions/openapi/): every route has one, a test checks it. */
  doc?: RouteDoc;
}

/**
 * A route's description for the OpenAPI document. Schemas are named, not imported, so this table stays data and
 * every Lambda's bundle small: functions/openapi/schemas.ts maps each name to the schema object the domain validates
 * with (the same object, one source of truth).
 */
export interface RouteDoc {
  summary: string;
  /** The schema of the body's `data`; a PATCH body takes any part of it. */
  request?: string;
  /**
   * What answers: `resource` (200 `{data}`), `created` (201 `{data, access?}` and Location), `listing` (the dateModified
   * feed: `{data:[{id, dateModified}], next_page, prev_page}`), `revisions` (an object's change log: `{data, next_page}`), `collection` (`{data:[...]}`), `download` (302 to the
   * file, or its bytes), `schema` (a JSON Schema as is), `openapi`, `html`, `asset` (a static file).
   */
  response:
    | 'resource'
    | 'created'
    | 'listing'
    | 'revisions'
    | 'collection'
    | 'download'
    | 'schema'
    | 'openapi'
    | 'html'
    | 'asset'
    | 'health';
  /** The schema of the answered object (or of each element); defaults to `request`. */
  resource?: string;
  /** The owner's token is sent too (`acc_token` or `X-Access-Token`). */
  token?: true;
  /** The operationId, when the one derived from the handler and type (`createLot`) does not fit. */
  operationId?: string;
}

type Method = RouteDefinition['method'];
/** What a route answers: its RouteDoc without the summary. */
type Answer = Omit<RouteDoc, 'summary'>;
/** What a route adds to its family's: `table` when not its method's, the secrets, body kind or files it reads. */
type RouteExtras = Partial<Pick<RouteDefinition, 'table' | 'secrets' | 'body' | 'files' | 'location' | 'roomSocket'>>;
/**
 * One route of a family: method, path under the family's base, handler module under its folder, who may call it,
 * its OpenAPI summary and answer (`{type}` in them: the family's type), and what it adds (`RouteExtras`).
 */
type RouteRow = readonly [Method, string, string, RouteDefinition['auth'], string, Answer, RouteExtras?];
/** What every route of a family shares: the type it serves, or its API version, and that version's style. */
type Shared = Pick<RouteDefinition, 'type' | 'apiVersion' | 'location' | 'contentType'>;

/** The entries of a family: each route's path under `base`, its handler under `folder`, `table` from its method. */
const family = (base: string, folder: string, rows: readonly RouteRow[], shared: Shared = {}): RouteDefinition[] =>
  rows.map(([method, path, handler, auth, summary, answer, extras]) => ({
    method,
    path: `${base}${path}`,
    handler: `${folder}/${handler}`,
    auth,
    table: method === 'GET' ? 'ro' : 'rw',
    ...shared,
    ...extras,
    doc: typed({ summary, ...answer }, shared.type ?? ''),
  }));

/** A route's doc with `{type}` in its summary and schema names read as its family's type. */
function typed(doc: RouteDoc, type: string): RouteDoc {
  const fill = (text: string) => text.replaceAll('{type}', type);
  const { summary, request, resource, operationId } = doc;
  return {
    ...doc,
    summary: fill(summary),
    ...(request && { request: fill(request) }),
    ...(resource && { resource: fill(resource) }),
    ...(operationId && { operationId: fill(operationId) }),
  };
}

/** Public data: anyone reads it (unless the operator requires a key for reads), the domain hiding what must be. */
const READ = 'read';
const PUBLIC = 'public';
const BROKER = ['broker'] as const;
const CONCIERGE = ['concierge', 'admin'] as const;
const NO_TABLE = { table: 'none' } as const;
/** A POST that takes no body (an empty or absent one; `{"data": {}}` too). */
const NO_BODY = { body: 'optional' } as const;
/** The routes that answer a bid's owner (or the auction system) compute its participation link: never stored. */
const PARTICIPATION = { secrets: ['participation'] } as const;
/** A read answers no `Location`, whatever its API version's style. */
const NO_LOCATION = { location: undefined };
/** The owner's token is sent too. */
const TOKEN = { token: true } as const;
const LISTING: Answer = { response: 'listing' };
/** An object's change log: `{data: [revision], next_page}` (domain/history/revisions.ts). */
const REVISIONS: Answer = { response: 'revisions' };
const collection = (resource: string, more: Partial<Answer> = {}): Answer => ({
  response: 'collection',
  resource,
  ...more,
});
/** 200 `{data}`: the object read (`resource`), or changed with a body (`update`). */
const resource = (resource?: string, more: Partial<Answer> = {}): Answer => ({
  response: 'resource',
  ...(resource && { resource }),
  ...more,
});
const update = (request: string, more: Partial<Answer> = {}): Answer => ({ response: 'resource', request, ...more });
const created = (request: string, more: Partial<Answer> = {}): Answer => ({ response: 'created', request, ...more });

// biome-ignore format: one route a line, read down like a table
const LOTS: readonly RouteRow[] = [
  ['GET', '', 'list-lots', READ, 'List lots', LISTING],
  ['POST', '', 'post-lot', ['broker', 'concierge', 'convoy'], 'Create a lot', created('lot')],
  ['GET', '/{lotId}', 'get-lot', READ, 'Read a lot', resource('lot')],
  ['PATCH', '/{lotId}', 'patch-lot', ['broker', 'concierge', 'convoy', 'admin'], 'Change a lot (owner, concierge, convoy)', update('lot', TOKEN)],
  ['GET', '/{lotId}/documents', 'list-lot-documents', READ, 'List the documents of a lot (the current version of each; `?all=1`: every version)', collection('document')],
  ['POST', '/{lotId}/documents', 'post-lot-document', BROKER, 'Add a document to a lot (owner)', created('document', TOKEN)],
  ['GET', '/{lotId}/documents/{documentId}', 'get-lot-document', READ, 'Read a document of a lot', resource('document')],
  ['PUT', '/{lotId}/documents/{documentId}', 'put-lot-document', BROKER, 'Upload a new version of a lot document (owner)', update('document', TOKEN)],
  ['POST', '/{lotId}/ownership', 'post-lot-ownership', BROKER, 'Take a lot over with a transfer (new owner)', resource('lot', { request: 'ownership' })],
  ['GET', '/{lotId}/revisions', 'list-lot-revisions', READ, 'The change log of a lot, oldest first (`offset`, `limit`)', REVISIONS],
];

/** Transfers of ownership at an API version whose objects answer `access.transfer` (one store for every version). */
// biome-ignore format: one route a line, read down like a table
const TRANSFERS: readonly RouteRow[] = [
  ['POST', '', 'post-transfer', BROKER, 'Create a transfer: the tokens a broker takes an object over with', { response: 'created', resource: 'transfer' }],
  ['GET', '/{transferId}', 'get-transfer', BROKER, 'Read a transfer (`usedFor` once used)', resource('transfer'), NO_LOCATION],
];
/** The transfers at `version` (its routes get their own functions: one store serves every version alike). */
const transfers = (version: string, style: Shared = {}) =>
  family(`/api/${version}/transfers`, 'http/transfers', TRANSFERS, { apiVersion: version, ...style });

/** The routes every asset type has. */
// biome-ignore format: one route a line, read down like a table
const ASSET_ROUTES: readonly RouteRow[] = [
  ['GET', '', 'list-assets', READ, 'List {type} assets', LISTING],
  ['POST', '', 'post-asset', BROKER, 'Create a {type} asset', created('asset.{type}')],
  ['GET', '/{assetId}', 'get-asset', READ, 'Read a {type} asset', resource('asset.{type}')],
  ['PATCH', '/{assetId}', 'patch-asset', ['broker', 'concierge', 'admin'], 'Change a {type} asset (owner, concierge)', update('asset.{type}', TOKEN)],
  ['POST', '/{assetId}/ownership', 'post-asset-ownership', BROKER, 'Take a {type} asset over with a transfer (new owner)', resource('asset.{type}', { request: 'ownership' })],
  ['GET', '/{assetId}/revisions', 'list-asset-revisions', READ, 'The change log of a {type} asset, oldest first (`offset`, `limit`)', REVISIONS],
];
/** The routes only some asset types have, by their descriptor: `items`, `decisions`, `documents`, `relatedProcesses`. */
// biome-ignore format: one route a line, read down like a table
const ASSET_ITEMS: readonly RouteRow[] = [
  ['POST', '/{assetId}/items', 'post-asset-item', BROKER, 'Add an item to a {type} asset (owner)', created('item.{type}', TOKEN)],
  ['PATCH', '/{assetId}/items/{itemId}', 'patch-asset-item', BROKER, 'Change an item of a {type} asset (owner)', update('item.{type}', TOKEN)],
];
// biome-ignore format: one route a line, read down like a table
const ASSET_DECISIONS: readonly RouteRow[] = [
  ['POST', '/{assetId}/decisions', 'post-asset-decision', BROKER, 'Add a decision to a {type} asset (owner)', created('decision.{type}', TOKEN)],
];
// biome-ignore format: one route a line, read down like a table
const ASSET_DOCUMENTS: readonly RouteRow[] = [
  ['GET', '/{assetId}/documents', 'list-asset-documents', READ, 'List the documents of an asset (the current version of each; `?all=1`: every version)', collection('document')],
  ['POST', '/{assetId}/documents', 'post-asset-document', BROKER, 'Add a document to an asset (owner)', created('document', TOKEN)],
  ['GET', '/{assetId}/documents/{documentId}', 'get-asset-document', READ, 'Read a document of an asset', resource('document')],
];
// biome-ignore format: one route a line, read down like a table
const RELATED_PROCESSES: readonly RouteRow[] = [
  ['GET', '/{assetId}/related_processes', 'list-related-processes', READ, 'List the related processes of an asset', collection('relatedProcess')],
  ['POST', '/{assetId}/related_processes', 'post-related-process', CONCIERGE, 'Link an asset to a lot (concierge)', created('relatedProcess')],
  ['GET', '/{assetId}/related_processes/{relatedProcessId}', 'get-related-process', READ, 'Read a related process of an asset', resource('relatedProcess')],
  ['PATCH', '/{assetId}/related_processes/{relatedProcessId}', 'patch-related-process', CONCIERGE, 'Change a related process of an asset (concierge)', update('relatedProcess')],
  ['DELETE', '/{assetId}/related_processes/{relatedProcessId}', 'delete-related-process', CONCIERGE, 'Remove a related process of an asset (concierge): `{"data": null}`', resource()],
];

/** An asset type's routes: those every type has, those its descriptor names, and its API version's transfers. */
const assetTypeRoutes = (type: AssetTypeDescriptor): RouteDefinition[] => [
  ...family(
    type.apiBase,
    'http/assets',
    [
      ...ASSET_ROUTES,
      ...(type.items ? ASSET_ITEMS : []),
      ...(type.decisions ? ASSET_DECISIONS : []),
      ...(type.documents ? ASSET_DOCUMENTS : []),
      ...(type.relatedProcesses ? RELATED_PROCESSES : []),
    ],
    { type: type.assetType },
  ),
  ...(type.transfers ? transfers(type.transfers.version) : []),
];

/** The routes every auction type has; the handlers are shared by the types. */
// biome-ignore format: one route a line, read down like a table
const AUCTION_ROUTES: readonly RouteRow[] = [
  ['GET', '', 'list-auctions', READ, 'List {type} auctions', LISTING],
  ['POST', '', 'post-auction', BROKER, 'Create a {type} auction', created('auction.{type}')],
  ['GET', '/{auctionId}', 'get-auction', READ, 'Read an auction', resource('auction.{type}')],
  ['GET', '/{auctionId}/revisions', 'list-auction-revisions', READ, 'The change log of an auction, oldest first (`offset`, `limit`)', REVISIONS],
  ['PATCH', '/{auctionId}', 'patch-auction', BROKER, 'Change an auction (owner)', update('auction.{type}.stored', TOKEN)],
  ['GET', '/{auctionId}/documents', 'list-auction-documents', READ, 'List the documents of an auction (the current version of each; `?all=1`: every version)', collection('document')],
  ['POST', '/{auctionId}/documents', 'post-auction-document', BROKER, 'Add a document to an auction (owner)', created('document', TOKEN)],
  ['GET', '/{auctionId}/documents/{documentId}', 'get-auction-document', READ, 'Read a document of an auction', resource('document')],
  ['PUT', '/{auctionId}/documents/{documentId}', 'put-auction-document', BROKER, 'Upload a new version of an auction document (owner)', update('document', TOKEN)],
  ['GET', '/{auctionId}/questions', 'list-questions', READ, 'List the questions of an auction', collection('question')],
  ['POST', '/{auctionId}/questions', 'post-question', BROKER, 'Ask the organizer a question', created('question')],
  ['GET', '/{auctionId}/questions/{questionId}', 'get-question', READ, 'Read a question', resource('question')],
  ['PATCH', '/{auctionId}/questions/{questionId}', 'patch-question', BROKER, 'Answer a question (auction owner)', resource('question', { request: 'answer', token: true })],
  ['POST', '/{auctionId}/bids', 'post-bid', BROKER, 'Place a bid', created('bid.{type}'), PARTICIPATION],
  ['GET', '/{auctionId}/bids/{bidId}', 'get-bid', READ, 'Read a bid (its owner, or anyone once bids are disclosed)', resource('bid.{type}', TOKEN), PARTICIPATION],
  ['PATCH', '/{auctionId}/bids/{bidId}', 'patch-bid', BROKER, 'Change a bid (bid owner)', resource('bid.{type}', { request: 'bid.{type}.patch', token: true }), PARTICIPATION],
  ['DELETE', '/{auctionId}/bids/{bidId}', 'delete-bid', BROKER, 'Withdraw a bid (bid owner)', resource('bid.{type}', TOKEN)],
  ['POST', '/{auctionId}/bids/{bidId}/documents', 'post-bid-document', BROKER, 'Add a document to a bid (bid owner)', created('document', TOKEN)],
  ['GET', '/{auctionId}/bids/{bidId}/documents', 'list-bid-documents', READ, 'List the documents of a bid (`?all=1`: every version; its owner, or anyone once bids are disclosed)', collection('document', TOKEN)],
  ['GET', '/{auctionId}/bids/{bidId}/documents/{documentId}', 'get-bid-document', READ, 'Read a document of a bid', resource('document', TOKEN)],
  ['PUT', '/{auctionId}/bids/{bidId}/documents/{documentId}', 'put-bid-document', BROKER, 'Upload a new version of a bid document (bid owner)', update('document', TOKEN)],
  ['PATCH', '/{auctionId}/bids/{bidId}/documents/{documentId}', 'patch-bid-document', BROKER, 'Change the fields of a bid document, not its file (bid owner)', update('document.patch', TOKEN)],
  ['GET', '/{auctionId}/auction', 'get-auction-module', ['auction'], 'The procedure as the auction system reads it', resource('auction.{type}'), PARTICIPATION],
  ['POST', '/{auctionId}/auction', 'post-auction-results', ['auction'], 'Report the auction results (auction system)', resource('auction.{type}', { request: 'auction.results' }), PARTICIPATION],
  ['GET', '/{auctionId}/awards', 'list-awards', READ, 'List the awards of an auction', collection('award')],
  ['GET', '/{auctionId}/awards/{awardId}', 'get-award', READ, 'Read an award', resource('award')],
  ['PATCH', '/{auctionId}/awards/{awardId}', 'patch-award', BROKER, 'Decide on an award (auction owner; the winning bidder may decline)', resource('award', { request: 'award.patch', token: true })],
  ['POST', '/{auctionId}/awards/{awardId}/documents', 'post-award-document', BROKER, 'Add a document to an award (auction owner, or the awarded bid owner)', created('document', TOKEN)],
  ['GET', '/{auctionId}/awards/{awardId}/documents', 'list-award-documents', READ, 'List the documents of an award (the current version of each; `?all=1`: every version)', collection('document')],
  ['GET', '/{auctionId}/awards/{awardId}/documents/{documentId}', 'get-award-document', READ, 'Read a document of an award', resource('document')],
  ['PUT', '/{auctionId}/awards/{awardId}/documents/{documentId}', 'put-award-document', BROKER, 'Upload a new version of an award document (its author: auction owner or awarded bid owner)', update('document', TOKEN)],
  ['GET', '/{auctionId}/contracts', 'list-contracts', READ, 'List the contracts of an auction', collection('contract')],
  ['GET', '/{auctionId}/contracts/{contractId}', 'get-contract', READ, 'Read a contract', resource('contract')],
  ['PATCH', '/{auctionId}/contracts/{contractId}', 'patch-contract', BROKER, 'Sign and activate a contract (auction owner)', resource('contract', { request: 'contract.patch', token: true })],
  ['GET', '/{auctionId}/contracts/{contractId}/documents', 'list-contract-documents', READ, 'List the documents of a contract (`?all=1`: every version)', collection('document')],
  ['POST', '/{auctionId}/contracts/{contractId}/documents', 'post-contract-document', BROKER, 'Add a document to a contract (auction owner)', created('document', TOKEN)],
  ['GET', '/{auctionId}/contracts/{contractId}/documents/{documentId}', 'get-contract-document', READ, 'Read a document of a contract', resource('document')],
  ['PUT', '/{auctionId}/contracts/{contractId}/documents/{documentId}', 'put-contract-document', BROKER, 'Upload a new version of a contract document (auction owner)', update('document', TOKEN)],
  ['GET', '/{auctionId}/cancellations', 'list-cancellations', READ, 'List the cancellations of an auction', collection('cancellation')],
  ['POST', '/{auctionId}/cancellations', 'post-cancellation', BROKER, 'Ask to cancel an auction (owner)', created('cancellation', TOKEN)],
  ['GET', '/{auctionId}/cancellations/{cancellationId}', 'get-cancellation', READ, 'Read a cancellation', resource('cancellation')],
  ['PATCH', '/{auctionId}/cancellations/{cancellationId}', 'patch-cancellation', BROKER, 'Change or activate a cancellation: active cancels the auction (owner)', resource('cancellation', { request: 'cancellation.patch', token: true })],
  ['GET', '/{auctionId}/cancellations/{cancellationId}/documents', 'list-cancellation-documents', READ, 'List the documents of a cancellation (the current version of each; `?all=1`: every version)', collection('document')],
  ['POST', '/{auctionId}/cancellations/{cancellationId}/documents', 'post-cancellation-document', BROKER, 'Add a document to a cancellation (auction owner)', created('document', TOKEN)],
  ['GET', '/{auctionId}/cancellations/{cancellationId}/documents/{documentId}', 'get-cancellation-document', READ, 'Read a document of a cancellation', resource('document')],
  ['PUT', '/{auctionId}/cancellations/{cancellationId}/documents/{documentId}', 'put-cancellation-document', BROKER, 'Upload a new version of a cancellation document (auction owner)', update('document', TOKEN)],
  ['PATCH', '/{auctionId}/cancellations/{cancellationId}/documents/{documentId}', 'patch-cancellation-document', BROKER, 'Change the fields of a cancellation document, not its file (auction owner)', update('document.patch', TOKEN)],
];
/** The routes of the auction types whose contracts can be prolonged (descriptor `prolongations`). */
// biome-ignore format: one route a line, read down like a table
const CONTRACT_PROLONGATIONS: readonly RouteRow[] = [
  ['GET', '/{auctionId}/contracts/{contractId}/prolongations', 'list-prolongations', READ, 'List the prolongations of a contract', collection('prolongation')],
  ['POST', '/{auctionId}/contracts/{contractId}/prolongations', 'post-prolongation', BROKER, 'Record a prolongation of a contract (auction owner)', created('prolongation', TOKEN)],
  ['GET', '/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}', 'get-prolongation', READ, 'Read a prolongation', resource('prolongation')],
  ['PATCH', '/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}', 'patch-prolongation', BROKER, 'Change a draft prolongation, or apply it: the signing period is extended (auction owner)', resource('prolongation', { request: 'prolongation.patch', token: true })],
  ['GET', '/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}/documents', 'list-prolongation-documents', READ, 'List the documents of a prolongation (`?all=1`: every version)', collection('document')],
  ['POST', '/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}/documents', 'post-prolongation-document', BROKER, 'Add a document (its protocol) to a prolongation (auction owner)', created('document', TOKEN)],
  ['GET', '/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}/documents/{documentId}', 'get-prolongation-document', READ, 'Read a document of a prolongation', resource('document')],
  ['PATCH', '/{auctionId}/contracts/{contractId}/prolongations/{prolongationId}/documents/{documentId}', 'patch-prolongation-document', BROKER, 'Change the fields of a prolongation document, not its file (auction owner)', update('document.patch', TOKEN)],
];
/** The routes of the auction types whose auctions can be taken over (descriptor `transfers`). */
// biome-ignore format: one route a line, read down like a table
const AUCTION_OWNERSHIP: readonly RouteRow[] = [
  ['POST', '/{auctionId}/ownership', 'post-auction-ownership', BROKER, 'Take an auction over with a transfer (new owner)', resource('auction.{type}', { request: 'ownership' })],
  ['GET', '/{auctionId}/extract_credentials', 'get-auction-credentials', ['admin'], 'The owner and the stored (hashed) transfer token of an auction (admin; upstream: the contracting service)', resource('credentials')],
];

/**
 * An auction type's routes: those every type has, contract prolongations where its contracts have them, and where its
 * auctions can be taken over, ownership and transfers.
 */
const auctionTypeRoutes = ({
  apiBase,
  procurementMethodType,
  style,
  transfers: to,
  prolongations,
}: AuctionTypeDescriptor) => [
  ...family(
    apiBase,
    'http/auctions',
    [...AUCTION_ROUTES, ...(prolongations ? CONTRACT_PROLONGATIONS : []), ...(to ? AUCTION_OWNERSHIP : [])],
    { type: procurementMethodType, ...style },
  ),
  ...(to ? transfers(to.version, style) : []),
];

/** Webhook subscriptions: a broker's (or an admin's); every route but the create is its owner's (key and token). */
const HOOKS = ['broker', 'admin'] as const;
// biome-ignore format: one route a line, read down like a table
const SUBSCRIPTIONS: readonly RouteRow[] = [
  ['POST', '', 'post-subscription', HOOKS, 'Subscribe a URL to changes of lots, assets and auctions: signed webhooks (its token and secret answered once)', created('subscription')],
  ['GET', '/{subscriptionId}', 'get-subscription', HOOKS, 'Read a subscription (owner)', resource('subscription', TOKEN)],
  ['PATCH', '/{subscriptionId}', 'patch-subscription', HOOKS, 'Change a subscription: url, events, description, status (owner)', resource('subscription', { request: 'subscription.patch', token: true })],
  ['DELETE', '/{subscriptionId}', 'delete-subscription', HOOKS, 'Delete a subscription (owner): `{"data": null}`', resource(undefined, TOKEN)],
  ['POST', '/{subscriptionId}/secret', 'post-subscription-secret', HOOKS, 'Rotate the signing secret (owner; no body): the new one answered once; the old one signs too for 24 h', resource('subscription.secret', TOKEN), NO_BODY],
  ['GET', '/{subscriptionId}/deliveries', 'list-deliveries', HOOKS, 'The newest deliveries of a subscription: attempts, answers, next retry (owner)', collection('delivery', TOKEN)],
  ['POST', '/{subscriptionId}/replay', 'post-subscription-replay', HOOKS, 'Send again the deliveries that followed a cursor (owner)', resource('subscription.replayed', { request: 'subscription.replay', token: true })],
  ['POST', '/{subscriptionId}/ping', 'post-subscription-ping', HOOKS, 'Send a `webhook.ping` at once (owner; no body): the delivery', resource('delivery', TOKEN), NO_BODY],
];

/** Item schemas and the document service (its downloads public: the signature is the credential). */
// biome-ignore format: one route a line, read down like a table
const SERVICE: readonly RouteRow[] = [
  ['GET', '/api/schemas', 'schemas/list-schemas', READ, 'List the item schemas (family code, version)', collection('schema.entry'), NO_TABLE],
  ['GET', '/api/schemas/{code}', 'schemas/get-schema', READ, 'The JSON Schema of an item family (`?version=001|latest`)', { response: 'schema' }, NO_TABLE],
  ['POST', '/api/docservice/register', 'docservice/register', BROKER, 'Register a file by its md5: a signed url and an upload url', created('docservice.register', { resource: 'docservice.file' }), NO_TABLE],
  ['POST', '/api/docservice/upload', 'docservice/upload', BROKER, 'Upload a file (raw bytes)', resource('docservice.file'), { ...NO_TABLE, body: 'binary' }],
  ['PUT', '/api/docservice/upload/{key}', 'docservice/upload-registered', BROKER, 'Upload the bytes of a registered file (its signed upload url)', resource('docservice.file'), { ...NO_TABLE, body: 'binary' }],
  ['GET', '/api/docservice/get/{key}', 'docservice/get-file', PUBLIC, 'Download a file by its signed link', { response: 'download' }, NO_TABLE],
];
/** The working-day calendar: public to read, changed by an admin only (each change in its change log). */
const ADMIN = ['admin'] as const;
// biome-ignore format: one route a line, read down like a table
const CALENDAR: readonly RouteRow[] = [
  ['GET', '', 'get-calendar', READ, 'The working-day calendar periods are counted with: coverage, holidays and working weekends of both modes', resource('calendar')],
  ['PATCH', '', 'patch-calendar', ADMIN, 'Change the calendar (admin): extend the coverage, add or remove holidays and working weekends', update('calendar.change', { resource: 'calendar' })],
  ['GET', '/revisions', 'list-calendar-revisions', READ, 'The change log of the calendar, oldest first (`offset`, `limit`)', REVISIONS],
];
/** The API's own description, and health (public: load balancers and uptime checks carry no key). */
// biome-ignore format: one route a line, read down like a table
const DOCS: readonly RouteRow[] = [
  ['GET', '/api/openapi.json', 'docs/openapi-json', PUBLIC, 'This OpenAPI 3.1 document', { response: 'openapi' }, NO_TABLE],
  ['HEAD', '/api/openapi.json', 'docs/openapi-json', PUBLIC, 'The headers of this document (its length, its type), without it', { response: 'openapi', operationId: 'headOpenApiDocument' }, NO_TABLE],
  ['GET', '/api/docs', 'docs/docs-page', PUBLIC, 'The API reference page (Swagger UI)', { response: 'html' }, NO_TABLE],
  ['GET', '/api/docs/{file}', 'docs/docs-asset', PUBLIC, 'A static file of the reference page', { response: 'asset' }, { ...NO_TABLE, files: SWAGGER_UI_FILES }],
  ['GET', '/api/health', 'health', PUBLIC, 'Health: the table answers', { response: 'health', operationId: 'getHealth' }],
  ['ANY', '$default', 'not-found', PUBLIC, 'Any other method and path: 404', resource(), NO_TABLE],
];

/**
 * The auction room's page of one auction type (functions/room-page/: HTML through the HTTP kit's pageHandler), public,
 * at the path its bidders' links name (`<path>/{auctionId}`: domain/auctions/room-links.ts). `kind` names its operations.
 */
const roomPage = (path: string, type: string, kind: string): RouteDefinition[] =>
  // biome-ignore format: one route a line, read down like a table
  family(`/${path}/{auctionId}`, 'room-page', [
    ['GET', '', 'page', PUBLIC, 'The auction room page', { response: 'html', operationId: `get${kind}RoomPage` }, { ...NO_TABLE, roomSocket: true }],
    ['GET', '/login', 'login', PUBLIC, "A bidder's participation link: the auction's terms", { response: 'html', operationId: `get${kind}RoomLogin` }, { table: 'ro', ...PARTICIPATION }],
    ['POST', '/login', 'agree', PUBLIC, "A bidder agrees to the terms: the session (a cookie), then the page", { response: 'html', operationId: `post${kind}RoomLogin` }, { ...NO_TABLE, ...PARTICIPATION }],
    ['GET', '/session', 'session-token', PUBLIC, "The room page's WebSocket token of a bidder's session", resource(undefined, { operationId: `get${kind}RoomSession` }), { ...NO_TABLE, ...PARTICIPATION }],
  ], { type });
// biome-ignore format: one route a line, read down like a table
const ROOM_PAGE_FILES: readonly RouteRow[] = [
  ['GET', '/room-page/{file}', 'asset', PUBLIC, 'A file of the room page', { response: 'asset', operationId: 'getRoomPageFile' }, NO_TABLE],
];

export const routes: readonly RouteDefinition[] = [
  ...family('/api/0.1/lots', 'http/lots', LOTS),
  ...transfers('0.1'),
  ...family('/api/0.1/subscriptions', 'http/subscriptions', SUBSCRIPTIONS),
  ...ASSET_TYPES.flatMap(assetTypeRoutes),
  ...family('', 'http', SERVICE),
  ...family('/api/calendar', 'http/calendar', CALENDAR),
  ...AUCTION_TYPES.flatMap(auctionTypeRoutes),
  ...roomPage('insider-auctions', 'dgfInsider', 'Insider'),
  ...roomPage('texas-auctions', 'landlease', 'Texas'),
  ...family('', 'room-page', ROOM_PAGE_FILES),
  ...family('', 'http', DOCS),
];

export const routeKey = (r: Pick<RouteDefinition, 'method' | 'path'>): string =>
  r.path === '$default' ? '$default' : `${r.method} ${r.path}`;

/**
 * What a route needs of the document service: `files` (the docservice routes: signing key and the file store),
 * `keys` (routes on documents: the signing key to check URLs and sign download links, and marking files attached).
 */
export const docserviceAccess = (r: Pick<RouteDefinition, 'path'>): 'files' | 'keys' | undefined =>
  r.path.startsWith('/api/docservice/') ? 'files' : /\/documents(\/|$)/.test(r.path) ? 'keys' : undefined;

/** What the HTTP kit reads of a route at request time (http-kit/route-rules.ts): no docs, grants or files. */
export const routeRule = (r: RouteDefinition): RouteRule => ({
  key: routeKey(r),
  auth: r.auth,
  ...(r.contentType && { contentType: r.contentType }),
  ...(r.location && { location: r.location }),
  ...(r.type && { type: r.type }),
  ...(r.body && { body: r.body }),
  ...(docserviceAccess(r) && { documents: docserviceAccess(r) }),
});
