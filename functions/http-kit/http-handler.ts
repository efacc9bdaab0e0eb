import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { DomainError, PermissionError, UnauthorizedError, UnprocessableError, UnsupportedMediaTypeError } from '#domain/kernel/errors.ts';
import { isObject, type JsonObject } from '#domain/kernel/objects.ts';
import type { Principal, Role } from '#domain/kernel/principal.ts';
import type { Micros } from '#domain/kernel/time.ts';
import { routeKey, routes, type RouteDefinition } from '../routes.ts';
import { requestNow } from './clock.ts';

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
  /** `https://host`: for absolute `Location` and listing `uri`s. */
  baseUrl: string;
  path: string;
  /** The route's `variant` (the resource type it serves), when it has one. */
  variant?: string;
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
}

type Event = APIGatewayProxyEventV2 & { requestContext: { authorizer?: { lambda?: Record<string, string> } } };
type Handler = (req: HttpRequest) => Promise<HttpResult>;

const byKey = new Map(routes.map((r) => [routeKey(r), r]));
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function respond(route: RouteDefinition | undefined, event: Event, status: number, body: unknown, headers: Record<string, string> = {}) {
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

function parseBody(event: Event): JsonObject | undefined {
  if (!BODY_METHODS.has(event.requestContext.http.method)) return undefined;
  const contentType = (event.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw new UnsupportedMediaTypeError({
      location: 'header',
      name: 'Content-Type',
      description: "Content-Type header should be one of ['application/json']",
    });
  }
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    throw UnprocessableError.data((error as Error).message);
  }
  if (!isObject(body) || !isObject(body.data)) throw UnprocessableError.data('Data not available');
  return body;
}

function principalOf(event: Event, body: JsonObject | undefined): Principal {
  const ctx = event.requestContext.authorizer?.lambda ?? {};
  const token =
    event.queryStringParameters?.acc_token ?? event.headers['x-access-token'] ?? (isObject(body?.access) ? body.access.token : undefined);
  return {
    name: ctx.name ?? 'anonymous',
    role: (ctx.role as Role) ?? 'anonymous',
    levels: ctx.levels ?? '',
    token: typeof token === 'string' ? token : undefined,
  };
}

/** Refuses callers the route does not admit: no valid key → 401, a key of another role → 403. */
function admit(route: RouteDefinition | undefined, principal: Principal): void {
  if (!route || route.auth === 'public') return;
  if (principal.role === 'anonymous') throw new UnauthorizedError();
  if (route.auth !== 'any' && !route.auth.includes(principal.role)) throw new PermissionError();
}

/** Maps every error to the envelope; unknown ones are logged and become a bare 500. */
const envelope: MiddlewareObj<Event, APIGatewayProxyStructuredResultV2> = {
  onError: async (request) => {
    const error = request.error;
    const route = byKey.get(request.event.routeKey);
    if (error instanceof DomainError) {
      request.response = respond(route, request.event, error.status, { status: 'error', errors: error.entries });
      return;
    }
    console.error(JSON.stringify({ level: 'error', message: 'unhandled', error: String(error), stack: (error as Error)?.stack }));
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
  return middy<Event, APIGatewayProxyStructuredResultV2>()
    .use(envelope)
    .handler(async (event) => {
      const route = byKey.get(event.routeKey);
      const body = parseBody(event);
      const principal = principalOf(event, body);
      admit(route, principal);
      const proto = event.headers['x-forwarded-proto'] ?? 'https';
      const baseUrl = `${proto}://${event.headers.host ?? event.requestContext.domainName}`;
      const result = await handler({
        method: event.requestContext.http.method,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
        headers: event.headers,
        data: (body?.data as JsonObject) ?? {},
        principal,
        now: requestNow(),
        baseUrl,
        path: event.rawPath,
        variant: route?.variant,
      });
      if (result.redirect) return { statusCode: 302, headers: { location: result.redirect }, body: '' };
      const headers: Record<string, string> = {};
      if (result.location) headers.location = route?.location === 'path' ? result.location : baseUrl + result.location;
      const payload = { ...(result.data !== undefined && { data: result.data }), ...result.extra, ...(result.access && { access: result.access }) };
      return respond(route, event, result.status ?? 200, payload, headers);
    });
}
