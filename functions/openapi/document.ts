import { routes, type RouteDefinition, type RouteDoc } from '../routes.ts';
import { EXAMPLES } from './examples.ts';
import { namedSchemas } from './schemas.ts';

/**
 * The OpenAPI 3.1 document of the service, generated from the route table (paths, methods, who may call, media
 * types) and the JSON Schemas the handlers validate with (functions/openapi/schemas.ts): nothing is written twice.
 * Pure and cheap (no AWS, no I/O): built once per container, at the first request that needs it.
 */

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** Component names may only hold `[A-Za-z0-9._-]`: schema names already do. */
const componentOf = (name: string) => name;
const partialOf = (name: string) => `${name}.partial`;

const isSchema = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A subschema that closes nothing of its own says so: `unevaluatedProperties: true`, a no-op in JSON Schema. */
const open = (schema: unknown): unknown =>
  isSchema(schema) && !('additionalProperties' in schema) && !('unevaluatedProperties' in schema)
    ? { ...schema, unevaluatedProperties: true }
    : schema;

/**
 * The schema with each conditional part (`if`, `then`, `else`, the items of `allOf`, `anyOf`, `oneOf`, at any depth)
 * saying that it closes nothing: the object is closed where the schema says so (`additionalProperties: false`), as the
 * validators read it. Linters that close every subschema left silent (Redocly's recommended rules check the examples
 * so) otherwise refuse a valid body inside its `else`; with this, a consumer linting with the defaults sees no warning.
 * Validation is unchanged: `unevaluatedProperties: true` never fails, and no closed object here counts on it.
 */
export function openBranches<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(openBranches) as T;
  if (!isSchema(schema)) return schema;
  const out: Json = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, openBranches(v)]));
  for (const k of ['if', 'then', 'else']) if (isSchema(out[k])) out[k] = open(out[k]);
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(out[k])) out[k] = out[k].map(open);
  return out as T;
}

/** Every field optional, as a PATCH takes them: the schema less its top-level `required` and conditional parts. */
function partial(schema: object): object {
  const { required: _required, if: _if, then: _then, else: _else, ...rest } = schema as Json;
  return { ...rest, description: 'Any part of the fields; the result is checked as a whole.' };
}

/** The schema of an answered object: the fields as sent plus those the server sets (id, dates, status, owner ...). */
function answered(schema: object): object {
  // The server adds fields: neither additional nor unevaluated properties are closed in an answer.
  const {
    required: _required,
    additionalProperties: _additional,
    unevaluatedProperties: _unevaluated,
    if: _if,
    then: _then,
    else: _else,
    ...rest
  } = schema as Json;
  const properties = {
    id: { type: 'string', description: 'Set by the server.' },
    dateModified: { type: 'string', format: 'date-time', description: 'Set by the server.' },
    ...(rest.properties as Json),
  };
  return {
    ...rest,
    properties,
    // Open, and said so: a linter that closes what a schema leaves silent would refuse the server's fields.
    unevaluatedProperties: true,
    description: 'The fields as sent, and those the server sets (id, date, dateModified, status ...).',
  };
}
const answeredOf = (name: string) => `${name}.answer`;

const ERROR = {
  type: 'object',
  description: 'The error envelope of every refusal (401, 403, 404, 405, 409, 412, 415, 422, 500).',
  required: ['status', 'errors'],
  properties: {
    status: { const: 'error' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['location', 'name', 'description'],
        properties: {
          location: { enum: ['body', 'url', 'querystring', 'header'] },
          name: { type: 'string', description: 'The field (or parameter) at fault.' },
          description: { description: 'A text, a list of texts, or per nested field (validation errors).' },
        },
      },
    },
  },
};

const PAGE_LINK = {
  type: 'object',
  required: ['offset', 'path', 'uri'],
  properties: { offset: { type: 'string' }, path: { type: 'string' }, uri: { type: 'string', format: 'uri' } },
};

/** An object's change log (domain/kernel/history.ts, domain/history/revisions.ts). */
const REVISIONS = {
  type: 'object',
  description:
    "One page of an object's change log, oldest first: follow `next_page` (it names the next page even at the end: " +
    "poll it for new revisions). Applying every revision's `changes` in order to `{}` gives the public view; `hash` " +
    'is the hex SHA-256 of the RFC 8785 canonical JSON of the revision without `hash`, `previousHash` the one before ' +
    "(`''` for the first): `npm run history -- verify <object URL>` checks a chain.",
  required: ['data', 'next_page'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['date', 'author', 'changes', 'previousHash', 'hash'],
        properties: {
          date: { type: 'string', format: 'date-time', description: "The object's `dateModified` after the change." },
          author: {
            type: 'object',
            required: ['role', 'name'],
            properties: { role: { type: 'string' }, name: { type: 'string' } },
          },
          changes: {
            type: 'array',
            description:
              'RFC 6902 operations from the previous public view; a value too large to keep is replaced by its size ' +
              '(`valueBytes`).',
            items: {
              type: 'object',
              required: ['op', 'path'],
              properties: {
                op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
                path: { type: 'string' },
                value: {},
                from: { type: 'string' },
                valueBytes: { type: 'integer' },
              },
            },
          },
          previousHash: { type: 'string' },
          hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
      },
    },
    next_page: ref('PageLink'),
  },
};

const REVISIONS_PARAMETERS = [
  {
    name: 'offset',
    in: 'query',
    description: 'How many revisions the client has read (from `next_page`); none: from the first.',
    schema: { type: 'integer', minimum: 0 },
  },
  {
    name: 'limit',
    in: 'query',
    description: 'Revisions per page: default 100, at most 1000.',
    schema: { type: 'integer', minimum: 1, maximum: 1000 },
  },
];

const LISTING = {
  type: 'object',
  description: 'One page of the dateModified feed: follow `next_page` until a page comes back empty.',
  required: ['data', 'next_page'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'dateModified'],
        properties: { id: { type: 'string' }, dateModified: { type: 'string', format: 'date-time' } },
        description: 'Also the fields asked for with `opt_fields`.',
      },
    },
    next_page: ref('PageLink'),
    prev_page: ref('PageLink'),
  },
};

const HEALTH = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { enum: ['ok', 'unavailable'] },
    checks: { type: 'object', properties: { table: { enum: ['ok', 'unavailable'] } } },
  },
  example: { status: 'ok', checks: { table: 'ok' } },
};

/** Every `$ref` in a JSON value. */
const refsOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(refsOf)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsOf(v)))
      : [];

const ACCESS = {
  type: 'object',
  description:
    'The owner token, answered once at creation: send it as `acc_token` or `X-Access-Token` to act as the owner.',
  properties: { token: { type: 'string' }, transfer: { type: 'string' } },
};

const LISTING_PARAMETERS = [
  {
    name: 'offset',
    in: 'query',
    description:
      'The `dateModified` of the last row seen (from `next_page`); with `feed=changes`, the opaque cursor `next_page` gives.',
    schema: { type: 'string' },
  },
  {
    name: 'feed',
    in: 'query',
    description:
      '`changes`: every change of the listed objects in order, each row the listing view at that change plus `revision` (its number in `/{id}/revisions`).',
    schema: { type: 'string', enum: ['changes'] },
  },
  { name: 'descending', in: 'query', description: 'Newest first.', schema: { type: 'string', enum: ['1'] } },
  {
    name: 'limit',
    in: 'query',
    description:
      'Rows per page: default 100, at most 1000 (100 with `opt_fields`); any other value gives 100, as upstream.',
    schema: { type: 'integer', minimum: 1, maximum: 1000 },
  },
  {
    name: 'opt_fields',
    in: 'query',
    description: 'Comma-separated fields to add to each row.',
    schema: { type: 'string' },
  },
  {
    name: 'mode',
    in: 'query',
    description: '`test`: the feed of test objects.',
    schema: { type: 'string', enum: ['test'] },
  },
];

const PRETTY = {
  name: 'opt_pretty',
  in: 'query',
  description: 'Indented JSON.',
  schema: { type: 'string', enum: ['1'] },
};

/** `GET /api/0.1/lots` → tag `lots 0.1`; `/api/2.5/auctions` (landlease) → `auctions 2.5 (landlease)`; else its first segment. */
function tagOf(route: RouteDefinition): string {
  const [, , first, second] = route.path.split('/');
  const served = route.type ?? (route.apiVersion && `v${route.apiVersion}`);
  if (/^\d+\.\d+$/.test(first)) return `${second} ${first}${served ? ` (${served})` : ''}`;
  return first === 'openapi.json' ? 'docs' : first;
}

/** Handler verbs and the operationId verb a generated client gets (`post-lot` -> createLot). */
const VERBS: Record<string, string> = {
  post: 'create',
  get: 'get',
  list: 'list',
  patch: 'update',
  put: 'replace',
  delete: 'delete',
};
/** Handlers whose name is no CRUD verb + noun: their operationId (`{Type}` = the route's type). */
const OPERATION_NAMES: Record<string, string> = {
  'post-auction-results': 'report{Type}AuctionResults',
  'get-auction-module': 'get{Type}AuctionForAuctionModule',
  register: 'registerFile',
  upload: 'uploadFile',
  'upload-registered': 'uploadRegisteredFile',
  'get-file': 'downloadFile',
  'openapi-json': 'getOpenApiDocument',
  'docs-page': 'getDocsPage',
  'docs-asset': 'getDocsPageFile',
  'list-schemas': 'listItemSchemas',
  'get-schema': 'getItemSchema',
};
const pascal = (words: string) =>
  words
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * The name generated clients give the operation, from the handler, the type and the API version: `createLot`,
 * `listLandleaseAuctions`, `updateBounceAsset`. An explicit `doc.operationId` wins.
 */
export const operationId = (
  route: Pick<RouteDefinition, 'method' | 'path' | 'handler' | 'type' | 'apiVersion' | 'doc'>,
): string => {
  if (route.doc?.operationId) return route.doc.operationId;
  const name = route.handler.split('/').at(-1)!;
  // A type reads before the noun (createLandleaseAuction), an API version after it (createTransferV24).
  const type = route.type ? pascal(route.type) : '';
  const version = route.apiVersion ? pascal(`v${route.apiVersion}`) : '';
  if (name in OPERATION_NAMES) return OPERATION_NAMES[name].replace('{Type}', type) + version;
  // POST .../ownership takes the object over with a transfer.
  const ownership = /^post-(.+)-ownership$/.exec(name);
  if (ownership) return `takeOver${type}${pascal(ownership[1])}${version}`;
  const [verb, ...noun] = name.split('-');
  return `${VERBS[verb] ?? verb}${type}${pascal(noun.join('-'))}${version}`;
};

/** What each group of routes is, for the tags' descriptions (by the path's resource segment). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  lots: 'Lots of the registry: a set of assets offered for sale, through verification by the concierge to an auction.',
  assets: 'Assets of the registry (one type per API path): the things sold, grouped into lots.',
  auctions:
    'Auctions of one procurementMethodType: the procedure, its documents, questions, bids, awards, contracts and cancellations.',
  schemas: 'The JSON Schemas of item families (land parcels...) that check `schema_properties`.',
  docservice:
    'The document service: files are uploaded here first; the signed `url` it answers is what documents carry.',
  docs: 'This description and its reference page.',
};
const tagDescription = (tag: string) =>
  TAG_DESCRIPTIONS[tag.split(' ')[0]] ?? `The routes under /api/${tag.split(' ')[0]}.`;

function security(route: RouteDefinition, doc: RouteDoc): Json[] {
  if (route.auth === 'public') return [];
  // A read of public data takes no key (`{}`: no requirement) unless the operator requires one.
  const keyless = route.auth === 'read' ? [{}] : [];
  if (doc.token) return [...keyless, { apiKey: [], accessToken: [] }, { apiKey: [], accessTokenHeader: [] }];
  return [...keyless, { apiKey: [] }];
}

function json(route: RouteDefinition, schema: object) {
  return { content: { [route.contentType ?? 'application/json']: { schema } } };
}

function responses(route: RouteDefinition, doc: RouteDoc): Json {
  const of = doc.resource ?? doc.request;
  const item = of ? ref(answeredOf(of)) : { type: 'object' };
  const errors = {
    ...(route.auth !== 'public' && { 401: response('Unauthorized'), 403: response('Forbidden') }),
    404: response('NotFound'),
    ...(doc.request !== undefined && { 422: response('Unprocessable') }),
    429: response('TooManyRequests'),
  };
  // What a client reads back: the example body it sent, with the fields the server adds.
  const sample =
    of && route.method !== 'PATCH' && EXAMPLES[of] !== undefined
      ? {
          example: {
            data: {
              id: '6cf2ba0bb5e1467da0b2b1c1d2e3f4a5',
              dateModified: '2026-11-23T12:04:05.123456+02:00',
              ...(EXAMPLES[of] as object),
            },
          },
        }
      : {};
  const withSample = (answer: { content: Record<string, object> }) => ({
    ...answer,
    content: Object.fromEntries(Object.entries(answer.content).map(([type, media]) => [type, { ...media, ...sample }])),
  });
  switch (doc.response) {
    case 'resource':
      return {
        200: {
          description: 'The object.',
          ...withSample(json(route, { type: 'object', required: ['data'], properties: { data: item } })),
        },
        ...errors,
      };
    case 'created':
      return {
        201: {
          description: 'Created.',
          headers: { Location: { description: 'Where the new object is read.', schema: { type: 'string' } } },
          ...withSample(
            json(route, { type: 'object', required: ['data'], properties: { data: item, access: ref('Access') } }),
          ),
        },
        ...errors,
      };
    case 'listing':
      return { 200: { description: 'A page of the feed.', ...json(route, ref('Listing')) }, ...errors };
    case 'revisions':
      return { 200: { description: 'A page of the change log.', ...json(route, ref('Revisions')) }, ...errors };
    case 'collection':
      return {
        200: {
          description: 'Every element.',
          ...json(route, { type: 'object', required: ['data'], properties: { data: { type: 'array', items: item } } }),
        },
        ...errors,
      };
    case 'download':
      return {
        200: {
          description: 'The bytes (local service).',
          content: {
            'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
          },
        },
        302: {
          description: 'In AWS: a short-lived presigned link to the file.',
          headers: { Location: { schema: { type: 'string' } } },
        },
        ...errors,
      };
    case 'schema':
      return {
        200: {
          description: 'A JSON Schema (draft-04).',
          ...json(route, { type: 'object', properties: { data: { type: 'object' } } }),
        },
        ...errors,
      };
    case 'openapi':
      return {
        200: { description: 'This document.', content: { 'application/json': { schema: { type: 'object' } } } },
        429: response('TooManyRequests'),
      };
    case 'html':
      return {
        200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
        429: response('TooManyRequests'),
      };
    case 'health':
      return {
        200: {
          description: 'The table answers.',
          ...json(route, { type: 'object', required: ['data'], properties: { data: ref('Health') } }),
        },
        503: {
          description: 'The table does not answer.',
          ...json(route, { type: 'object', required: ['data'], properties: { data: ref('Health') } }),
        },
        429: response('TooManyRequests'),
      };
    case 'asset':
      return {
        200: {
          description: 'The file (CSS or JavaScript).',
          content: { 'text/css': { schema: { type: 'string' } }, 'text/javascript': { schema: { type: 'string' } } },
        },
        404: response('NotFound'),
        429: response('TooManyRequests'),
      };
  }
}

/** A real body (from the README's walkthroughs) for the request, when there is one for this schema and method. */
function exampleOf(route: RouteDefinition, schema: string): Json {
  const example = EXAMPLES[`${route.method} ${schema}`] ?? EXAMPLES[schema];
  return example === undefined ? {} : { example: { data: example } };
}

function operation(route: RouteDefinition, doc: RouteDoc): Json {
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query =
    doc.response === 'listing'
      ? LISTING_PARAMETERS
      : doc.response === 'revisions'
        ? REVISIONS_PARAMETERS
        : doc.response === 'resource' || doc.response === 'created' || doc.response === 'collection'
          ? [PRETTY]
          : [];
  const auth =
    route.auth === 'public'
      ? 'Public.'
      : route.auth === 'read'
        ? 'Anyone, with or without an API key (unless the operator requires a key for reads); a key shows what its role may see.'
        : route.auth === 'any'
          ? 'Any API key.'
          : `API keys of role ${route.auth.join(', ')}.`;
  const body =
    route.body === 'binary'
      ? {
          required: true,
          content: {
            'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
          },
        }
      : route.body === 'optional'
        ? {
            required: false,
            description: 'None: send no body (or an empty one); `{"data": {}}` is taken too.',
            content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'object' } } } } },
          }
        : doc.request !== undefined
          ? {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['data'],
                    // A schema of its own for a PATCH (`award.patch`) is the body as is; else any part of the fields.
                    properties: {
                      data: ref(
                        route.method === 'PATCH' && !doc.request.endsWith('.patch')
                          ? partialOf(doc.request)
                          : componentOf(doc.request),
                      ),
                    },
                  },
                  ...exampleOf(route, doc.request),
                },
              },
            }
          : undefined;
  return {
    operationId: operationId(route),
    summary: doc.summary,
    description: `${auth}${doc.token ? ' The owner token is sent too (`acc_token` or `X-Access-Token`).' : ''}`,
    tags: [tagOf(route)],
    ...(pathParameters.length + query.length > 0 && { parameters: [...pathParameters, ...query] }),
    ...(body && { requestBody: body }),
    responses: responses(route, doc),
    security: security(route, doc),
  };
}

/** Routes with no description or naming a schema that does not exist: what the test reports. */
export function undocumented(): string[] {
  return routes
    .filter((r) => r.path !== '$default')
    .flatMap((r) => {
      const key = `${r.method} ${r.path}`;
      if (!r.doc) return [`${key}: no doc`];
      return [r.doc.request, r.doc.resource]
        .filter((n) => n !== undefined && !(n in namedSchemas))
        .map((n) => `${key}: no schema named ${n}`);
    });
}

let built: Json | undefined;

/**
 * The document (built once). A route without a description (a test fails on it) still appears, bare, so the page
 * never hides an operation; a schema name nobody declared is left out of its operation the same way.
 */
export function openApiDocument(): Json {
  if (built) return built;
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    // The API only: the auction room's pages (functions/room-page/) are HTML for people, at the paths links name.
    if (route.path === '$default' || route.method === 'ANY' || !route.path.startsWith('/api/')) continue;
    paths[route.path] ??= {};
    const doc = route.doc ?? { summary: `${route.handler} (not described yet)`, response: 'resource' };
    const known = (name: string | undefined) => (name !== undefined && name in namedSchemas ? name : undefined);
    paths[route.path][route.method.toLowerCase()] = operation(route, {
      ...doc,
      request: known(doc.request),
      resource: known(doc.resource),
    });
  }
  const all: Json = {
    Error: ERROR,
    PageLink: PAGE_LINK,
    Listing: LISTING,
    Revisions: REVISIONS,
    Access: ACCESS,
    Health: HEALTH,
  };
  for (const [name, schema] of Object.entries(namedSchemas)) {
    all[componentOf(name)] = openBranches(schema);
    all[partialOf(name)] = openBranches(partial(schema));
    all[answeredOf(name)] = openBranches(answered(schema));
  }
  // Only the schemas an operation uses (directly or through another schema): none is left dangling.
  const schemas: Json = {};
  const visit = (value: unknown) => {
    for (const target of refsOf(value)) {
      const name = /^#\/components\/schemas\/(.+)$/.exec(target)?.[1];
      if (name && !(name in schemas) && name in all) {
        schemas[name] = all[name];
        visit(all[name]);
      }
    }
  };
  visit(paths);
  schemas.Error = ERROR; // the shared error responses' schema
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
  built = {
    openapi: '3.1.0',
    info: {
      title: 'Agora API',
      version: '0.1.0',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description:
        'Public registry and auctions: lots (0.1), assets (2.4 bounce, 0.1 basic), auctions (2.5 landlease, 2.3 dgfInsider), ' +
        'item schemas and the document service. Bodies are `{"data": {...}}`; answers are `{"data": ...}` or the error envelope. ' +
        'Authenticate with HTTP Basic: the API key as user name, an empty password. Creating an object answers its owner ' +
        'token once (`access.token`): send it as `acc_token` (query) or `X-Access-Token` (header) to change the object. ' +
        'Every create (a lot, asset, auction, transfer, and a child: bid, question, document, item, decision, ' +
        'cancellation...) may carry an `Idempotency-Key` header (a UUID): sent again by the same API key with the same ' +
        'key and body, it gets the first answer again, tokens included, and makes no second object. A 503 says whether ' +
        'the change was not stored (send it again) or, with a key, to send it again with that key.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    // Relative: the host and port that serve this document (npm start on any PORT, the API in AWS), never a fixed one.
    servers: [{ url: '/', description: 'The service that serves this document' }],
    tags: [...new Set(routes.filter((r) => r.path.startsWith('/api/')).map(tagOf))].map((name) => ({
      name,
      description: tagDescription(name),
    })),
    paths,
    components: {
      schemas,
      responses: {
        Unauthorized: error('No valid API key.'),
        Forbidden: error('Not allowed to this key (role, owner token, status or period).'),
        NotFound: error('No such object (or path).'),
        Unprocessable: error('The body is not valid: one entry per field at fault.'),
        TooManyRequests: {
          description:
            'Over the throttling rate (AWS): API Gateway answers `{"message":"Too Many Requests"}`; retry later.',
          content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } },
        },
      },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'basic', description: 'The API key as the user name, an empty password.' },
        accessToken: { type: 'apiKey', in: 'query', name: 'acc_token', description: 'The owner token of the object.' },
        accessTokenHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Access-Token',
          description: 'The owner token of the object.',
        },
      },
    },
  };
  return built;
}
