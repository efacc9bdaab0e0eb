/**
 * THE route table: data only. The CDK ApiStack makes one Lambda per entry, the local gateway serves the same
 * entries with the same handlers, and the HTTP kit gets each route's access rule from here (`routeRule`), handed in
 * by the build (each Lambda only its own routes') or the local gateway: only the OpenAPI document imports this table.
 *
 * `auth`: who may call. `'any'` = any valid API key (reads); a list = only keys of those roles. Owner-only
 * operations list `broker` and the owner's token is then checked by the domain command.
 * `table`: the grant the function gets (`ro` for reads).
 */
import { AUCTION_TYPES } from './domain/auctions/catalog.ts';
import type { AuctionTypeDescriptor } from './domain/auctions/descriptor.ts';
import type { Role } from './domain/kernel/principal.ts';
import type { RouteRule } from './http-kit/route-rules.ts';
import { SWAGGER_UI_FILES } from './openapi/swagger-ui-files.ts';

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
  /** Server secrets the handler reads (`participation`: it keys bidders' participation links); CDK grants only those. */
  secrets?: readonly 'participation'[];
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
   * feed: `{data:[{id, dateModified}], next_page, prev_page}`), `collection` (`{data:[...]}`), `download` (302 to the
   * file, or its bytes), `schema` (a JSON Schema as is), `openapi`, `html`, `asset` (a static file).
   */
  response:
    | 'resource'
    | 'created'
    | 'listing'
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
  /** The operationId, when the one derived from the handler and variant (`createLot`) does not fit. */
  operationId?: string;
}

const LOTS = '/api/0.1/lots';
const OWNER_AND_BOTS = ['broker', 'concierge', 'convoy', 'admin'] as const;
const BOUNCE_ASSETS = '/api/2.4/assets';
const BASIC_ASSETS = '/api/0.1/assets';
const SCHEMAS = '/api/schemas';
const DOCSERVICE = '/api/docservice';
const DOCS = '/api/docs';

/** Listing, create, read and PATCH of the assets of one type (`variant`) at its API path. */
const assetRoutes = (base: string, variant: string): RouteDefinition[] => [
  {
    method: 'GET',
    path: base,
    handler: 'http/assets/list-assets',
    auth: 'any',
    table: 'ro',
    variant,
    doc: { summary: `List ${variant} assets`, response: 'listing' },
  },
  {
    method: 'POST',
    path: base,
    handler: 'http/assets/post-asset',
    auth: ['broker'],
    table: 'rw',
    variant,
    doc: { summary: `Create a ${variant} asset`, request: `asset.${variant}`, response: 'created' },
  },
  {
    method: 'GET',
    path: `${base}/{assetId}`,
    handler: 'http/assets/get-asset',
    auth: 'any',
    table: 'ro',
    variant,
    doc: { summary: `Read a ${variant} asset`, response: 'resource', resource: `asset.${variant}` },
  },
  {
    method: 'PATCH',
    path: `${base}/{assetId}`,
    handler: 'http/assets/patch-asset',
    auth: ['broker', 'concierge', 'admin'],
    table: 'rw',
    variant,
    doc: {
      summary: `Change a ${variant} asset (owner, concierge)`,
      request: `asset.${variant}`,
      response: 'resource',
      token: true,
    },
  },
  {
    method: 'POST',
    path: `${base}/{assetId}/ownership`,
    handler: 'http/assets/post-asset-ownership',
    auth: ['broker'],
    table: 'rw',
    variant,
    doc: {
      summary: `Take a ${variant} asset over with a transfer (new owner)`,
      request: 'ownership',
      response: 'resource',
      resource: `asset.${variant}`,
    },
  },
];

/**
 * Transfers of ownership at an API version whose objects answer `access.transfer` (one store for all versions; the
 * version is the `variant` only so that each route gets its own function).
 */
const transferRoutes = (
  version: string,
  style: Pick<RouteDefinition, 'location' | 'contentType'> = {},
): RouteDefinition[] => [
  {
    method: 'POST',
    path: `/api/${version}/transfers`,
    handler: 'http/transfers/post-transfer',
    auth: ['broker'],
    table: 'rw',
    variant: `v${version}`,
    ...style,
    doc: {
      summary: 'Create a transfer: the tokens a broker takes an object over with',
      response: 'created',
      resource: 'transfer',
    },
  },
  {
    method: 'GET',
    path: `/api/${version}/transfers/{transferId}`,
    handler: 'http/transfers/get-transfer',
    auth: ['broker'],
    table: 'ro',
    variant: `v${version}`,
    ...(style.contentType && { contentType: style.contentType }),
    doc: { summary: 'Read a transfer (`usedFor` once used)', response: 'resource', resource: 'transfer' },
  },
];

/**
 * Every route of the auctions of one type (`variant` = procurementMethodType) at its API path; the handlers are
 * shared by the types. `style` carries what differs between API versions (Location form, media type).
 */
const auctionRoutes = (
  base: string,
  variant: string,
  style: Pick<RouteDefinition, 'location' | 'contentType'>,
): RouteDefinition[] => {
  const auction = `auction.${variant}`;
  const bid = `bid.${variant}`;
  // `secrets`: a bid made active signs its participation link at once where the type says so (dgfInsider).
  return [
    {
      method: 'GET',
      path: base,
      handler: 'http/auctions/list-auctions',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: `List ${variant} auctions`, response: 'listing' },
    },
    {
      method: 'POST',
      path: base,
      handler: 'http/auctions/post-auction',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: { summary: `Create a ${variant} auction`, request: auction, response: 'created' },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}`,
      handler: 'http/auctions/get-auction',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read an auction', response: 'resource', resource: auction },
    },
    {
      method: 'PATCH',
      path: `${base}/{auctionId}`,
      handler: 'http/auctions/patch-auction',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: { summary: 'Change an auction (owner)', request: `${auction}.stored`, response: 'resource', token: true },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/documents`,
      handler: 'http/auctions/list-auction-documents',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: {
        summary: 'List the documents of an auction (the current version of each; `?all=1`: every version)',
        response: 'collection',
        resource: 'document',
      },
    },
    {
      method: 'POST',
      path: `${base}/{auctionId}/documents`,
      handler: 'http/auctions/post-auction-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: { summary: 'Add a document to an auction (owner)', request: 'document', response: 'created', token: true },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/documents/{documentId}`,
      handler: 'http/auctions/get-auction-document',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read a document of an auction', response: 'resource', resource: 'document' },
    },
    {
      method: 'PUT',
      path: `${base}/{auctionId}/documents/{documentId}`,
      handler: 'http/auctions/put-auction-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Upload a new version of an auction document (owner)',
        request: 'document',
        response: 'resource',
        token: true,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/questions`,
      handler: 'http/auctions/list-questions',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'List the questions of an auction', response: 'collection', resource: 'question' },
    },
    {
      method: 'POST',
      path: `${base}/{auctionId}/questions`,
      handler: 'http/auctions/post-question',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: { summary: 'Ask the organizer a question', request: 'question', response: 'created' },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/questions/{questionId}`,
      handler: 'http/auctions/get-question',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read a question', response: 'resource', resource: 'question' },
    },
    {
      method: 'PATCH',
      path: `${base}/{auctionId}/questions/{questionId}`,
      handler: 'http/auctions/patch-question',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Answer a question (auction owner)',
        request: 'answer',
        response: 'resource',
        resource: 'question',
        token: true,
      },
    },
    {
      method: 'POST',
      path: `${base}/{auctionId}/bids`,
      handler: 'http/auctions/post-bid',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      secrets: ['participation'],
      doc: { summary: 'Place a bid', request: bid, response: 'created' },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/bids/{bidId}`,
      handler: 'http/auctions/get-bid',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: {
        summary: 'Read a bid (its owner, or anyone once bids are disclosed)',
        response: 'resource',
        resource: bid,
        token: true,
      },
    },
    {
      method: 'PATCH',
      path: `${base}/{auctionId}/bids/{bidId}`,
      handler: 'http/auctions/patch-bid',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      secrets: ['participation'],
      doc: {
        summary: 'Change a bid (bid owner)',
        request: `${bid}.patch`,
        response: 'resource',
        resource: bid,
        token: true,
      },
    },
    {
      method: 'DELETE',
      path: `${base}/{auctionId}/bids/{bidId}`,
      handler: 'http/auctions/delete-bid',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: { summary: 'Withdraw a bid (bid owner)', response: 'resource', resource: bid, token: true },
    },
    {
      method: 'POST',
      path: `${base}/{auctionId}/bids/{bidId}/documents`,
      handler: 'http/auctions/post-bid-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: { summary: 'Add a document to a bid (bid owner)', request: 'document', response: 'created', token: true },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/bids/{bidId}/documents`,
      handler: 'http/auctions/list-bid-documents',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: {
        summary: 'List the documents of a bid (`?all=1`: every version; its owner, or anyone once bids are disclosed)',
        response: 'collection',
        resource: 'document',
        token: true,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/bids/{bidId}/documents/{documentId}`,
      handler: 'http/auctions/get-bid-document',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read a document of a bid', response: 'resource', resource: 'document', token: true },
    },
    {
      method: 'PUT',
      path: `${base}/{auctionId}/bids/{bidId}/documents/{documentId}`,
      handler: 'http/auctions/put-bid-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Upload a new version of a bid document (bid owner)',
        request: 'document',
        response: 'resource',
        token: true,
      },
    },
    {
      method: 'PATCH',
      path: `${base}/{auctionId}/bids/{bidId}/documents/{documentId}`,
      handler: 'http/auctions/patch-bid-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Change the fields of a bid document, not its file (bid owner)',
        request: 'document.patch',
        response: 'resource',
        token: true,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/auction`,
      handler: 'http/auctions/get-auction-module',
      auth: ['auction'],
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'The procedure as the auction system reads it', response: 'resource', resource: auction },
    },
    {
      method: 'POST',
      path: `${base}/{auctionId}/auction`,
      handler: 'http/auctions/post-auction-results',
      auth: ['auction'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Report the auction results (auction system)',
        request: 'auction.results',
        response: 'resource',
        resource: auction,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/awards`,
      handler: 'http/auctions/list-awards',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'List the awards of an auction', response: 'collection', resource: 'award' },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/awards/{awardId}`,
      handler: 'http/auctions/get-award',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read an award', response: 'resource', resource: 'award' },
    },
    {
      method: 'PATCH',
      path: `${base}/{auctionId}/awards/{awardId}`,
      handler: 'http/auctions/patch-award',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Decide on an award (auction owner; the winning bidder may decline)',
        request: 'award.patch',
        response: 'resource',
        resource: 'award',
        token: true,
      },
    },
    {
      method: 'POST',
      path: `${base}/{auctionId}/awards/{awardId}/documents`,
      handler: 'http/auctions/post-award-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Add a document to an award (auction owner, or the awarded bid owner)',
        request: 'document',
        response: 'created',
        token: true,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/awards/{awardId}/documents`,
      handler: 'http/auctions/list-award-documents',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: {
        summary: 'List the documents of an award (the current version of each; `?all=1`: every version)',
        response: 'collection',
        resource: 'document',
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/awards/{awardId}/documents/{documentId}`,
      handler: 'http/auctions/get-award-document',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read a document of an award', response: 'resource', resource: 'document' },
    },
    {
      method: 'PUT',
      path: `${base}/{auctionId}/awards/{awardId}/documents/{documentId}`,
      handler: 'http/auctions/put-award-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Upload a new version of an award document (its author: auction owner or awarded bid owner)',
        request: 'document',
        response: 'resource',
        token: true,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/contracts`,
      handler: 'http/auctions/list-contracts',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'List the contracts of an auction', response: 'collection', resource: 'contract' },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/contracts/{contractId}`,
      handler: 'http/auctions/get-contract',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read a contract', response: 'resource', resource: 'contract' },
    },
    {
      method: 'PATCH',
      path: `${base}/{auctionId}/contracts/{contractId}`,
      handler: 'http/auctions/patch-contract',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Sign and activate a contract (auction owner)',
        request: 'contract.patch',
        response: 'resource',
        resource: 'contract',
        token: true,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/contracts/{contractId}/documents`,
      handler: 'http/auctions/list-contract-documents',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: {
        summary: 'List the documents of a contract (`?all=1`: every version)',
        response: 'collection',
        resource: 'document',
      },
    },
    {
      method: 'POST',
      path: `${base}/{auctionId}/contracts/{contractId}/documents`,
      handler: 'http/auctions/post-contract-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Add a document to a contract (auction owner)',
        request: 'document',
        response: 'created',
        token: true,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/contracts/{contractId}/documents/{documentId}`,
      handler: 'http/auctions/get-contract-document',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read a document of a contract', response: 'resource', resource: 'document' },
    },
    {
      method: 'PUT',
      path: `${base}/{auctionId}/contracts/{contractId}/documents/{documentId}`,
      handler: 'http/auctions/put-contract-document',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Upload a new version of a contract document (auction owner)',
        request: 'document',
        response: 'resource',
        token: true,
      },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/cancellations`,
      handler: 'http/auctions/list-cancellations',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'List the cancellations of an auction', response: 'collection', resource: 'cancellation' },
    },
    {
      method: 'POST',
      path: `${base}/{auctionId}/cancellations`,
      handler: 'http/auctions/post-cancellation',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: { summary: 'Ask to cancel an auction (owner)', request: 'cancellation', response: 'created', token: true },
    },
    {
      method: 'GET',
      path: `${base}/{auctionId}/cancellations/{cancellationId}`,
      handler: 'http/auctions/get-cancellation',
      auth: 'any',
      table: 'ro',
      variant,
      ...style,
      doc: { summary: 'Read a cancellation', response: 'resource', resource: 'cancellation' },
    },
    {
      method: 'PATCH',
      path: `${base}/{auctionId}/cancellations/{cancellationId}`,
      handler: 'http/auctions/patch-cancellation',
      auth: ['broker'],
      table: 'rw',
      variant,
      ...style,
      doc: {
        summary: 'Change or activate a cancellation: active cancels the auction (owner)',
        request: 'cancellation.patch',
        response: 'resource',
        resource: 'cancellation',
        token: true,
      },
    },
  ];
};

/** An auction type's routes (catalog.ts): its auctions, and where they can be taken over, ownership and transfers. */
const auctionTypeRoutes = ({
  apiBase,
  procurementMethodType: variant,
  style,
  transfers,
}: AuctionTypeDescriptor): RouteDefinition[] => [
  ...auctionRoutes(apiBase, variant, style),
  ...(transfers
    ? [
        {
          method: 'POST',
          path: `${apiBase}/{auctionId}/ownership`,
          handler: 'http/auctions/post-auction-ownership',
          auth: ['broker'],
          table: 'rw',
          variant,
          ...style,
          doc: {
            summary: 'Take an auction over with a transfer (new owner)',
            request: 'ownership',
            response: 'resource',
            resource: `auction.${variant}`,
          },
        } as const,
        // Upstream core transferring: the owner and stored transfer token for the contracting service (the admin's here).
        {
          method: 'GET',
          path: `${apiBase}/{auctionId}/extract_credentials`,
          handler: 'http/auctions/get-auction-credentials',
          auth: ['admin'],
          table: 'ro',
          variant,
          ...style,
          doc: {
            summary:
              'The owner and the stored (hashed) transfer token of an auction (admin; upstream: the contracting service)',
            response: 'resource',
            resource: 'credentials',
          },
        } as const,
        ...transferRoutes(transfers.version, {
          ...(style.location && { location: style.location }),
          ...(style.contentType && { contentType: style.contentType }),
        }),
      ]
    : []),
];

/** The auction room's page (functions/room-page/): public, at the paths bidders' links name (room-links.ts). */
const ROOM_PAGES = [
  ['/insider-auctions/{auctionId}', 'Insider'],
  ['/texas-auctions/{auctionId}', 'Texas'],
].flatMap(([page, kind]) => [
  {
    method: 'GET',
    path: page,
    handler: 'room-page/page',
    doc: { summary: 'The auction room page', response: 'html', operationId: `get${kind}RoomPage` },
  },
  ...(['GET', 'POST'] as const).map((method) => ({
    method,
    path: `${page}/login`,
    handler: 'room-page/login',
    secrets: ['participation'],
    doc: {
      summary: 'The participation link of a bidder: the terms, then the session',
      response: 'html',
      operationId: `${method.toLowerCase()}${kind}RoomLogin`,
    },
  })),
  {
    method: 'GET',
    path: `${page}/session`,
    handler: 'room-page/session-token',
    secrets: ['participation'],
    doc: {
      summary: 'The WebSocket token of the session of a bidder (the room page)',
      response: 'resource',
      operationId: `get${kind}RoomSession`,
    },
  },
]);
const ROOM_PAGE_ROUTES: RouteDefinition[] = [
  ...ROOM_PAGES,
  {
    method: 'GET',
    path: '/room-page/{file}',
    handler: 'room-page/asset',
    doc: { summary: 'A file of the room page', response: 'asset', operationId: 'getRoomPageFile' },
  },
].map((r) => ({ auth: 'public', table: 'none', ...r }) as RouteDefinition);

export const routes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: LOTS,
    handler: 'http/lots/list-lots',
    auth: 'any',
    table: 'ro',
    doc: { summary: 'List lots', response: 'listing' },
  },
  {
    method: 'POST',
    path: LOTS,
    handler: 'http/lots/post-lot',
    auth: ['broker', 'concierge', 'convoy'],
    table: 'rw',
    doc: { summary: 'Create a lot', request: 'lot', response: 'created' },
  },
  {
    method: 'GET',
    path: `${LOTS}/{lotId}`,
    handler: 'http/lots/get-lot',
    auth: 'any',
    table: 'ro',
    doc: { summary: 'Read a lot', response: 'resource', resource: 'lot' },
  },
  {
    method: 'PATCH',
    path: `${LOTS}/{lotId}`,
    handler: 'http/lots/patch-lot',
    auth: OWNER_AND_BOTS,
    table: 'rw',
    doc: { summary: 'Change a lot (owner, concierge, convoy)', request: 'lot', response: 'resource', token: true },
  },
  {
    method: 'GET',
    path: `${LOTS}/{lotId}/documents`,
    handler: 'http/lots/list-lot-documents',
    auth: 'any',
    table: 'ro',
    doc: {
      summary: 'List the documents of a lot (the current version of each; `?all=1`: every version)',
      response: 'collection',
      resource: 'document',
    },
  },
  {
    method: 'POST',
    path: `${LOTS}/{lotId}/documents`,
    handler: 'http/lots/post-lot-document',
    auth: ['broker'],
    table: 'rw',
    doc: { summary: 'Add a document to a lot (owner)', request: 'document', response: 'created', token: true },
  },
  {
    method: 'GET',
    path: `${LOTS}/{lotId}/documents/{documentId}`,
    handler: 'http/lots/get-lot-document',
    auth: 'any',
    table: 'ro',
    doc: { summary: 'Read a document of a lot', response: 'resource', resource: 'document' },
  },
  {
    method: 'PUT',
    path: `${LOTS}/{lotId}/documents/{documentId}`,
    handler: 'http/lots/put-lot-document',
    auth: ['broker'],
    table: 'rw',
    doc: {
      summary: 'Upload a new version of a lot document (owner)',
      request: 'document',
      response: 'resource',
      token: true,
    },
  },
  {
    method: 'POST',
    path: `${LOTS}/{lotId}/ownership`,
    handler: 'http/lots/post-lot-ownership',
    auth: ['broker'],
    table: 'rw',
    doc: {
      summary: 'Take a lot over with a transfer (new owner)',
      request: 'ownership',
      response: 'resource',
      resource: 'lot',
    },
  },
  ...transferRoutes('0.1'),
  ...assetRoutes(BOUNCE_ASSETS, 'bounce'),
  {
    method: 'PATCH',
    path: `${BOUNCE_ASSETS}/{assetId}/items/{itemId}`,
    handler: 'http/assets/patch-asset-item',
    auth: ['broker'],
    table: 'rw',
    variant: 'bounce',
    doc: {
      summary: 'Change an item of a bounce asset (owner)',
      request: 'item.bounce',
      response: 'resource',
      token: true,
    },
  },
  {
    method: 'GET',
    path: `${BOUNCE_ASSETS}/{assetId}/documents`,
    handler: 'http/assets/list-asset-documents',
    auth: 'any',
    table: 'ro',
    variant: 'bounce',
    doc: {
      summary: 'List the documents of an asset (the current version of each; `?all=1`: every version)',
      response: 'collection',
      resource: 'document',
    },
  },
  {
    method: 'POST',
    path: `${BOUNCE_ASSETS}/{assetId}/documents`,
    handler: 'http/assets/post-asset-document',
    auth: ['broker'],
    table: 'rw',
    variant: 'bounce',
    doc: { summary: 'Add a document to an asset (owner)', request: 'document', response: 'created', token: true },
  },
  {
    method: 'GET',
    path: `${BOUNCE_ASSETS}/{assetId}/documents/{documentId}`,
    handler: 'http/assets/get-asset-document',
    auth: 'any',
    table: 'ro',
    variant: 'bounce',
    doc: { summary: 'Read a document of an asset', response: 'resource', resource: 'document' },
  },
  {
    method: 'GET',
    path: `${BOUNCE_ASSETS}/{assetId}/related_processes`,
    handler: 'http/assets/list-related-processes',
    auth: 'any',
    table: 'ro',
    variant: 'bounce',
    doc: { summary: 'List the related processes of an asset', response: 'collection', resource: 'relatedProcess' },
  },
  {
    method: 'POST',
    path: `${BOUNCE_ASSETS}/{assetId}/related_processes`,
    handler: 'http/assets/post-related-process',
    auth: ['concierge', 'admin'],
    table: 'rw',
    variant: 'bounce',
    doc: { summary: 'Link an asset to a lot (concierge)', request: 'relatedProcess', response: 'created' },
  },
  {
    method: 'GET',
    path: `${BOUNCE_ASSETS}/{assetId}/related_processes/{relatedProcessId}`,
    handler: 'http/assets/get-related-process',
    auth: 'any',
    table: 'ro',
    variant: 'bounce',
    doc: { summary: 'Read a related process of an asset', response: 'resource', resource: 'relatedProcess' },
  },
  {
    method: 'PATCH',
    path: `${BOUNCE_ASSETS}/{assetId}/related_processes/{relatedProcessId}`,
    handler: 'http/assets/patch-related-process',
    auth: ['concierge', 'admin'],
    table: 'rw',
    variant: 'bounce',
    doc: {
      summary: 'Change a related process of an asset (concierge)',
      request: 'relatedProcess',
      response: 'resource',
    },
  },
  {
    method: 'DELETE',
    path: `${BOUNCE_ASSETS}/{assetId}/related_processes/{relatedProcessId}`,
    handler: 'http/assets/delete-related-process',
    auth: ['concierge', 'admin'],
    table: 'rw',
    variant: 'bounce',
    doc: { summary: 'Remove a related process of an asset (concierge): `{"data": null}`', response: 'resource' },
  },
  ...transferRoutes('2.4'),
  ...assetRoutes(BASIC_ASSETS, 'basic'),
  {
    method: 'GET',
    path: SCHEMAS,
    handler: 'http/schemas/list-schemas',
    auth: 'any',
    table: 'none',
    doc: { summary: 'List the item schemas (family code, version)', response: 'collection', resource: 'schema.entry' },
  },
  {
    method: 'GET',
    path: `${SCHEMAS}/{code}`,
    handler: 'http/schemas/get-schema',
    auth: 'any',
    table: 'none',
    doc: { summary: 'The JSON Schema of an item family (`?version=001|latest`)', response: 'schema' },
  },
  {
    method: 'POST',
    path: `${DOCSERVICE}/register`,
    handler: 'http/docservice/register',
    auth: ['broker'],
    table: 'none',
    doc: {
      summary: 'Register a file by its md5: a signed url and an upload url',
      request: 'docservice.register',
      response: 'created',
      resource: 'docservice.file',
    },
  },
  {
    method: 'POST',
    path: `${DOCSERVICE}/upload`,
    handler: 'http/docservice/upload',
    auth: ['broker'],
    table: 'none',
    body: 'binary',
    doc: { summary: 'Upload a file (raw bytes)', response: 'resource', resource: 'docservice.file' },
  },
  {
    method: 'PUT',
    path: `${DOCSERVICE}/upload/{key}`,
    handler: 'http/docservice/upload-registered',
    auth: ['broker'],
    table: 'none',
    body: 'binary',
    doc: {
      summary: 'Upload the bytes of a registered file (its signed upload url)',
      response: 'resource',
      resource: 'docservice.file',
    },
  },
  // Public: the signature is the credential (a browser follows the 302 of `?download=` without API keys).
  {
    method: 'GET',
    path: `${DOCSERVICE}/get/{key}`,
    handler: 'http/docservice/get-file',
    auth: 'public',
    table: 'none',
    doc: { summary: 'Download a file by its signed link', response: 'download' },
  },
  ...AUCTION_TYPES.flatMap(auctionTypeRoutes),
  {
    method: 'GET',
    path: '/api/openapi.json',
    handler: 'http/docs/openapi-json',
    auth: 'public',
    table: 'none',
    doc: { summary: 'This OpenAPI 3.1 document', response: 'openapi' },
  },
  {
    method: 'GET',
    path: DOCS,
    handler: 'http/docs/docs-page',
    auth: 'public',
    table: 'none',
    doc: { summary: 'The API reference page (Swagger UI)', response: 'html' },
  },
  {
    method: 'GET',
    path: `${DOCS}/{file}`,
    handler: 'http/docs/docs-asset',
    auth: 'public',
    table: 'none',
    files: SWAGGER_UI_FILES,
    doc: { summary: 'A static file of the reference page', response: 'asset' },
  },
  // Public: load balancers and uptime checks carry no key; it says only whether the table answers.
  {
    method: 'GET',
    path: '/api/health',
    handler: 'http/health',
    auth: 'public',
    table: 'ro',
    doc: { summary: 'Health: the table answers', response: 'health', operationId: 'getHealth' },
  },
  ...ROOM_PAGE_ROUTES,
  {
    method: 'ANY',
    path: '$default',
    handler: 'http/not-found',
    auth: 'public',
    table: 'none',
    doc: { summary: 'Any other method and path: 404', response: 'resource' },
  },
];

export const routeKey = (r: Pick<RouteDefinition, 'method' | 'path'>): string =>
  r.path === '$default' ? '$default' : `${r.method} ${r.path}`;

/**
 * What a route needs of the document service: `files` (the docservice routes: signing key and the file store),
 * `keys` (routes on documents: the signing key to check URLs and sign download links, and marking files attached).
 */
export const docserviceAccess = (r: Pick<RouteDefinition, 'path'>): 'files' | 'keys' | undefined =>
  r.path.startsWith(`${DOCSERVICE}/`) ? 'files' : /\/documents(\/|$)/.test(r.path) ? 'keys' : undefined;

/** What the HTTP kit reads of a route at request time (http-kit/route-rules.ts): no docs, grants or files. */
export const routeRule = (r: RouteDefinition): RouteRule => ({
  key: routeKey(r),
  auth: r.auth,
  ...(r.contentType && { contentType: r.contentType }),
  ...(r.location && { location: r.location }),
  ...(r.variant && { variant: r.variant }),
  ...(r.body && { body: r.body }),
  ...(docserviceAccess(r) && { documents: docserviceAccess(r) }),
});
