import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { AuthorizerContext } from '../auth/authorizer-context.ts';
import type { DocumentContext } from '#domain/documents/docservice.ts';
import type { JsonRecord } from '#domain/kernel/objects.ts';
import type { Principal } from '#domain/kernel/principal.ts';
import type { Micros } from '#domain/kernel/time.ts';
import type { RouteRule } from './route-rules.ts';

/** What a handler sees: the request already checked, parsed and attributed to a principal. */
export interface HttpRequest {
  method: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** The `data` object of the body (`{}` for requests without a body). */
  data: JsonRecord;
  principal: Principal;
  now: Micros;
  /** The configured public base URL (never the request's `Host` or `X-Forwarded-Proto`): for absolute links. */
  baseUrl: string;
  /** The API's path of this request (`/api/0.1/lots/<id>`), from the route: links are `baseUrl` + a path like it. */
  path: string;
  /** The caller's address as API Gateway saw it (per-address limits of public routes). */
  sourceIp: string;
  /** The auction or asset type the route serves (routes.ts `type`), when it serves one. */
  type?: string;
  /** The raw request body, for routes that take bytes (`body: 'binary'`). */
  bytes: Buffer;
  /** The document service context (keyring, links), on routes that touch documents (`docserviceAccess`). */
  files?: DocumentContext;
}

export interface HttpResult {
  status?: number;
  data?: unknown;
  access?: JsonRecord;
  /** A path; made absolute unless the route answers with paths (2.5). */
  location?: string;
  /** Extra top-level members (`next_page`, `prev_page`). */
  extra?: JsonRecord;
  /** 302 target, for document downloads. */
  redirect?: string;
  /** A file answered as bytes (the local document service). */
  file?: { bytes: Uint8Array; contentType: string };
  /** Extra response headers (the docs page's Content-Security-Policy). */
  headers?: Record<string, string>;
}

/** An HTTP API v2 event; its authorizer context is read through `authorizerContextOf`, never as it comes. */
export type Event = APIGatewayProxyEventV2 & { requestContext: { authorizer?: { lambda?: unknown } } };
export type Response = APIGatewayProxyStructuredResultV2;

/** What the kit's middlewares learn of a request, each for those after it and the handler. */
export interface KitContext extends Context {
  /** Admission: the route's rule and the caller the authorizer identified. */
  rule?: RouteRule;
  caller?: AuthorizerContext;
  /** Body: the parsed JSON body, on a request that carries one. */
  body?: JsonRecord;
  /** Auth context: who calls, with the owner token they sent. */
  principal?: Principal;
  /** Observability: when the request started, and its correlation id. */
  started?: number;
  correlationId?: string;
}

/** One middleware of the kit: the handler answers an HttpResult, which the envelope turns into the Lambda's answer. */
export type KitMiddleware = MiddlewareObj<Event, Response | HttpResult, Error, KitContext>;
