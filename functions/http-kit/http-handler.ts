import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { DocumentContext } from '#domain/documents/docservice.ts';
import {
  DomainError,
  PayloadTooLargeError,
  PermissionError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableError,
  UnsupportedMediaTypeError,
} from '#domain/kernel/errors.ts';
import { isObject, type JsonObject } from '#domain/kernel/objects.ts';
import { loadValidators } from '#domain/kernel/validation.ts';
import type { Principal, Role } from '#domain/kernel/principal.ts';
import type { Micros } from '#domain/kernel/time.ts';
import { requestNow } from '#runtime/clock.ts';
import { config } from '#runtime/config.ts';
import { log, requestCorrelationId, requestMetrics, withCorrelation } from '#runtime/observability.ts';
import { wireRuntime } from '#runtime/wiring.ts';
import { documentPortsOf, routeRuleOf, servedValidators, type RouteRule } from './route-rules.ts';

/** What a handler sees: the request already checked, parsed and attributed to a principal. */
export interface HttpRequest {
  method: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** The `data` object of the body (`{}` for requests without a body). */
  data: JsonObject;
  principal: Principal;
  now: Micros;
  /** The configured public base URL (never the request's `Host` or `X-Forwarded-Proto`): for absolute links. */
  baseUrl: string;
  path: string;
  /** The caller's address as API Gateway saw it (per-address limits of public routes). */
  sourceIp: string;
  /** The route's `variant` (the resource type it serves), when it has one. */
  variant?: string;
  /** The raw request body, for routes that take bytes (`body: 'binary'`). */
  bytes: Buffer;
  /** The document service context (keyring, links), on routes that touch documents (`docserviceAccess`). */
  files?: DocumentContext;
}

export interface HttpResult {
  status?: number;
  data?: unknown;
  access?: JsonObject;
  /** A path; made absolute unless the route answers with paths (2.5). */
  location?: string;
  /** Extra top-level members (`next_page`, `prev_page`). */
  extra?: JsonObject;
  /** 302 target, for document downloads. */
  redirect?: string;
  /** A file answered as bytes (the local document service). */
  file?: { bytes: Uint8Array; contentType: string };
  /** Extra response headers (the docs page's Content-Security-Policy). */
  headers?: Record<string, string>;
}

type Event = APIGatewayProxyEventV2 & { requestContext: { authorizer?: { lambda?: Record<string, string> } } };
type Handler = (req: HttpRequest) => Promise<HttpResult>;

wireRuntime();

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function respond(
  route: RouteRule | undefined,
  event: Event,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const pretty = event.queryStringParameters?.opt_pretty;
  const text = pretty && pretty !== '0' && pretty !== 'false' ? JSON.stringify(body, null, 2) : JSON.stringify(body);
  return {
    statusCode: status,
    headers: {
      'content-type': route?.contentType ?? 'application/json',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
    body: text,
  } satisfies APIGatewayProxyStructuredResultV2;
}

/**
 * The largest JSON body taken: an item DynamoDB stores is at most 400 KB, so a larger body can never be saved and is
 * refused before it is parsed. File uploads (`body: 'binary'`) are bounded by the gateway and the file store.
 */
export const MAX_JSON_BODY_BYTES = 400 * 1024;
/** Arrays and objects nested deeper than this are refused before parsing (DynamoDB stores 32 levels at most). */
export const MAX_JSON_DEPTH = 32;

const rawBytes = (event: Event): Buffer => Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');

function parseBody(event: Event, route: RouteRule): JsonObject | undefined {
  if (!BODY_METHODS.has(event.requestContext.http.method) || route.body === 'binary') return undefined;
  const contentType = (event.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw new UnsupportedMediaTypeError({
      location: 'header',
      name: 'Content-Type',
      description: "Content-Type header should be one of ['application/json']",
    });
  }
  const size =
    event.body === undefined
      ? 0
      : event.isBase64Encoded
        ? Math.floor((event.body.length * 3) / 4)
        : Buffer.byteLength(event.body);
  if (size > MAX_JSON_BODY_BYTES) throw new PayloadTooLargeError(MAX_JSON_BODY_BYTES);
  const raw = rawBytes(event).toString('utf8');
  if (nestingDepth(raw) > MAX_JSON_DEPTH)
    throw UnprocessableError.data(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let body: unknown;
  try {
    // `__proto__` would become a prototype, not a field, when merged into an object; an own `constructor` makes the
    // DynamoDB marshaller take the object for a class instance (a 500). Neither is ever a field here.
    body = JSON.parse(raw, (key, value) => (key === '__proto__' || key === 'constructor' ? undefined : value));
  } catch (error) {
    throw UnprocessableError.data(notJson(raw) ?? (error as Error).message);
  }
  if (!isObject(body) || !isObject(body.data)) throw UnprocessableError.data('Data not available');
  assertStorableNumbers(body.data);
  return body;
}

/**
 * Python's text for a body that does not even start as JSON (`data`, a form): what the originals answered
 * ("Expecting value: line 1 column 1 (char 0)"); other syntax errors keep the parser's own text.
 */
function notJson(raw: string): string | undefined {
  const at = raw.search(/\S/);
  if (at >= 0 && /^[[{"\-0-9tfn]/.test(raw[at]!)) return undefined;
  const offset = at < 0 ? raw.length : at;
  const before = raw.slice(0, offset).split('\n');
  return `Expecting value: line ${before.length} column ${before[before.length - 1]!.length + 1} (char ${offset})`;
}

/** The deepest nesting of `[` and `{` in JSON text (outside strings): one pass, no recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * Numbers must survive storage exactly: integers within ±2^53 (what JavaScript and the SDK keep exact) and no
 * magnitude DynamoDB cannot hold (below 1e-130 or above 1e125). Anything else is a 422 on its top-level field.
 */
function assertStorableNumbers(data: JsonObject): void {
  const storable = (n: number) => {
    const size = Math.abs(n);
    return size === 0 || (size >= 1e-130 && size <= Number.MAX_SAFE_INTEGER);
  };
  const bad = (value: unknown): boolean =>
    typeof value === 'number'
      ? !storable(value)
      : Array.isArray(value)
        ? value.some(bad)
        : isObject(value) && Object.values(value).some(bad);
  for (const [field, value] of Object.entries(data)) {
    if (bad(value)) throw UnprocessableError.field(field, 'Number is out of range.');
  }
}

function principalOf(event: Event, body: JsonObject | undefined): Principal {
  const ctx = event.requestContext.authorizer?.lambda ?? {};
  const token =
    event.queryStringParameters?.acc_token ??
    event.headers['x-access-token'] ??
    (isObject(body?.access) ? body.access.token : undefined);
  return {
    name: ctx.name ?? 'anonymous',
    role: (ctx.role as Role) ?? 'anonymous',
    levels: ctx.levels ?? '',
    token: typeof token === 'string' ? token : undefined,
  };
}

/**
 * Refuses callers the route does not admit: no valid key → 401, a key of another role → 403, a key over its request
 * allowance → 429 (the authorizer's token bucket). Runs before the body is read, so an unauthenticated caller learns
 * nothing of how its body would be taken and costs no parsing.
 */
function admit(route: RouteRule, event: Event): void {
  const ctx = event.requestContext.authorizer?.lambda ?? {};
  if (ctx.unavailable) throw new ServiceUnavailableError();
  if (ctx.retryAfter) throw new TooManyRequestsError(Number(ctx.retryAfter));
  if (route.auth === 'public') return;
  const role = ctx.role ?? 'anonymous';
  if (role === 'anonymous') throw new UnauthorizedError();
  if (route.auth !== 'any' && !route.auth.includes(role as Role)) throw new PermissionError();
}

/** The public base URL: configured (AGORA_PUBLIC_URL), else the domain API Gateway received the request on. */
function publicBaseUrl(event: Event): string {
  const configured = config().publicUrl;
  return configured ? configured.replace(/\/+$/, '') : `https://${event.requestContext.domainName}`;
}

/**
 * DynamoDB errors that pass by themselves (throttling, an internal error, a timeout, a transaction cancelled for one
 * of those): a 503 the client may retry, never a 500. Conditions that failed are the store's own business (412/409).
 */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
  'TransactionInProgressException',
]);
function isTransient(error: unknown): boolean {
  const e = error as {
    name?: string;
    $metadata?: { httpStatusCode?: number };
    CancellationReasons?: { Code?: string }[];
  };
  if (e?.name === 'TransactionCanceledException') {
    return !!e.CancellationReasons?.some((r) => r.Code === 'ThrottlingError' || r.Code === 'TransactionConflict');
  }
  return TRANSIENT.has(e?.name ?? '') || (e?.$metadata?.httpStatusCode ?? 0) >= 500;
}

const headersOf = (error: DomainError): Record<string, string> =>
  error instanceof TooManyRequestsError || error instanceof ServiceUnavailableError
    ? { 'retry-after': String(error.retryAfterSeconds) }
    : error instanceof UnauthorizedError
      ? { 'www-authenticate': 'Basic realm="agora"' }
      : {};

/** The route's rule for the error answer's content type; none when the handler has none (that error is answered too). */
function ruleOrNone(event: Event): RouteRule | undefined {
  try {
    return routeRuleOf(event.routeKey ?? '$default');
  } catch {
    return undefined;
  }
}

/** Maps every error to the envelope; unknown ones are logged and become a bare 500. */
const envelope: MiddlewareObj<Event, APIGatewayProxyStructuredResultV2> = {
  onError: async (request) => {
    const route = ruleOrNone(request.event);
    const error =
      request.error instanceof DomainError || !isTransient(request.error)
        ? request.error
        : new ServiceUnavailableError();
    if (error instanceof ServiceUnavailableError) {
      const cause = request.error as Error;
      log().warn('database unavailable', { errorName: cause.name, errorMessage: cause.message });
    }
    if (error instanceof DomainError) {
      request.response = respond(
        route,
        request.event,
        error.status,
        { status: 'error', errors: error.entries },
        headersOf(error),
      );
      return;
    }
    log().error('unhandled', { error: error as Error });
    request.response = respond(route, request.event, 500, {
      status: 'error',
      errors: [{ location: 'body', name: 'data', description: 'Internal server error' }],
    });
  },
};

/**
 * The one middy stack of every HTTP Lambda: envelope errors, Content-Type (415), JSON body (422), principal,
 * route admission (401/403), then the handler; its result becomes the `{data}` body with the service's headers.
 */
export function httpHandler(handler: Handler) {
  return observed(
    middy<Event, APIGatewayProxyStructuredResultV2>()
      .use(envelope)
      .handler(async (event) => {
        const route = routeRuleOf(event.routeKey ?? '$default');
        admit(route, event);
        // Unknown paths answer 404 whatever their body.
        const body = route.key === '$default' ? undefined : parseBody(event, route);
        const principal = principalOf(event, body);
        // The body validators load apart from the bundle, on the first request that may need them (never on a read),
        // only those this Lambda's code checks with for the route's type.
        if (body) await loadValidators(servedValidators(route));
        const baseUrl = publicBaseUrl(event);
        const request: HttpRequest = {
          method: event.requestContext.http.method,
          params: (event.pathParameters ?? {}) as Record<string, string>,
          query: (event.queryStringParameters ?? {}) as Record<string, string>,
          headers: event.headers,
          data: (body?.data as JsonObject) ?? {},
          principal,
          now: requestNow(),
          baseUrl,
          path: event.rawPath,
          sourceIp: event.requestContext.http.sourceIp,
          variant: route.variant,
          bytes: route.body === 'binary' ? rawBytes(event) : Buffer.alloc(0),
        };
        const result = route.documents ? await withDocuments(route, request, handler) : await handler(request);
        if (result.file) {
          const headers = {
            'content-type': result.file.contentType,
            'x-content-type-options': 'nosniff',
            ...result.headers,
          };
          return {
            statusCode: 200,
            headers,
            body: Buffer.from(result.file.bytes).toString('base64'),
            isBase64Encoded: true,
          };
        }
        if (result.redirect)
          return { statusCode: 302, headers: { location: result.redirect, 'cache-control': 'no-store' }, body: '' };
        const headers: Record<string, string> = { ...result.headers };
        // An answer with a token, or to a caller who showed one (owner-only fields), must not be kept by any cache.
        if (result.access || principal.token) headers['cache-control'] = 'no-store';
        if (result.location) headers.location = route.location === 'path' ? result.location : baseUrl + result.location;
        const data = result.data === undefined ? undefined : absoluteLinks(result.data, baseUrl);
        const payload = {
          ...(data !== undefined && { data }),
          ...result.extra,
          ...(result.access && { access: result.access }),
        };
        return respond(route, event, result.status ?? 200, payload, headers);
      }),
  );
}

/**
 * Document links are stored as paths of this API (`/api/...`): every `url` that is one is answered absolute from the
 * configured base URL. A client's own links are absolute (format `uri`), so a path can only be the service's.
 */
function absoluteLinks(value: unknown, baseUrl: string): unknown {
  if (Array.isArray(value)) return value.map((v) => absoluteLinks(v, baseUrl));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      key === 'url' && typeof v === 'string' && v.startsWith('/') && !v.startsWith('//')
        ? baseUrl + v
        : absoluteLinks(v, baseUrl);
  }
  return out;
}

/**
 * Each invocation runs under its correlation id (the client's `x-correlation-id` when it is a plain token, else API
 * Gateway's request id): every log line of the request carries it, the answer returns it in `x-correlation-id`, and
 * one `request` line (route key, status, latency, caller name and role; never headers, query or body) and the
 * route's metrics close it.
 */
const observed =
  (run: (event: Event, context: Context) => Promise<APIGatewayProxyStructuredResultV2>) =>
  (event: Event, context: Context) => {
    const started = performance.now();
    const id = requestCorrelationId(event.headers?.['x-correlation-id'], event.requestContext?.requestId);
    const route = event.routeKey ?? '$default';
    return withCorrelation(id, { route, requestId: context?.awsRequestId }, async () => {
      const response = await run(event, context);
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      const status = response.statusCode ?? 200;
      const caller = event.requestContext?.authorizer?.lambda;
      log()[status >= 500 ? 'error' : 'info']('request', {
        status,
        latencyMs,
        caller: caller?.name ?? 'anonymous',
        role: caller?.role ?? 'anonymous',
      });
      requestMetrics(route, status, latencyMs);
      return { ...response, headers: { ...response.headers, 'x-correlation-id': id } };
    });
  };

/**
 * Runs a handler of a route that touches documents inside its document context (keyring, docservice URL, the
 * documents collection the path addresses); once it succeeded, the files its documents took are kept by the store.
 */
async function withDocuments(route: RouteRule, req: HttpRequest, run: Handler): Promise<HttpResult> {
  // Handed in only to routes that touch documents (the store's keyring and file store stay out of the others' bundles).
  const ports = await documentPortsOf(route);
  const at = req.path.lastIndexOf('/documents');
  const context: DocumentContext = {
    keyring: ports.keyring,
    docservice: ports.docservice(req.baseUrl),
    collection: at >= 0 ? req.path.slice(0, at + '/documents'.length) : undefined,
    baseUrl: req.baseUrl,
    nowSeconds: Math.floor(req.now / 1_000_000),
    attached: [],
  };
  const result = await run({ ...req, files: context });
  // The document is saved: a failure to mark its file only leaves it to the bucket's expiry rule, so it is logged.
  if (context.attached.length) {
    await ports
      .markAttached(context.attached)
      .catch((error) => log().error('markAttached failed', { files: context.attached, error: error as Error }));
  }
  return result;
}
