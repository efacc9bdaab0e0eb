import middy from '@middy/core';
import type { JsonRecord } from '#domain/kernel/objects.ts';
import { requestNow } from '#platform/clock.ts';
import { log } from '#runtime/observability.ts';
import { wireRuntime } from '#runtime/wiring.ts';
import { admission } from './middlewares/admission.ts';
import { authContext } from './middlewares/auth-context.ts';
import { body, rawBytes } from './middlewares/body.ts';
import { envelope, publicBaseUrl } from './middlewares/envelope.ts';
import { errors } from './middlewares/errors.ts';
import { observability } from './middlewares/observability.ts';
import { validation } from './middlewares/validation.ts';
import { documentPortsOf, type RouteRule } from './route-rules.ts';
import type { Event, HttpRequest, HttpResult, KitContext, Response } from './types.ts';

export type { HttpRequest, HttpResult } from './types.ts';
export { MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH } from './middlewares/body.ts';

type Handler = (req: HttpRequest) => Promise<HttpResult>;

wireRuntime();

/**
 * The one middy stack of every HTTP Lambda. Before the handler, in this order: admission (the route's rule, the
 * caller; 503/429/401/403), body (415/413/422), auth context (the principal, whose token may come in the body),
 * validation (the body validators loaded). After it: the envelope (`{data}`, links, headers). Any error of those, or
 * of the handler: the error envelope. Around all: observability (correlation id, the request line, metrics). Middy
 * runs the `before`s in the order of `use` and the `after`s and `onError`s in reverse, hence the order below.
 */
export function httpHandler(handler: Handler) {
  return middy<Event, Response | HttpResult, Error, KitContext>()
    .use(observability())
    .use(errors())
    .use(envelope())
    .use(admission())
    .use(body())
    .use(authContext())
    .use(validation())
    .handler(async (event, context) => {
      const rule = context.rule!;
      const request: HttpRequest = {
        method: event.requestContext.http.method,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
        headers: event.headers,
        data: (context.body?.data as JsonRecord) ?? {},
        principal: context.principal!,
        now: requestNow(),
        baseUrl: publicBaseUrl(event),
        path: apiPathOf(rule, event),
        sourceIp: event.requestContext.http.sourceIp,
        type: rule.type,
        bytes: rule.body === 'binary' ? rawBytes(event) : Buffer.alloc(0),
      };
      return rule.documents ? withDocuments(rule, request, handler) : handler(request);
    }) as (event: Event, context: KitContext) => Promise<Response>;
}

/**
 * The kit of a page route (the room page's HTML, forms, cookies and files: functions/room-page/), which answers
 * itself: the same observability (correlation id, the request line, metrics), errors (the error envelope, a logged
 * 500) and admission (the route's rule: who may call) as every API route; no JSON body, principal, validators or
 * `{data}` envelope, which a page does not have.
 */
export function pageHandler(handler: (event: Event) => Promise<Response>) {
  return middy<Event, Response | HttpResult, Error, KitContext>()
    .use(observability())
    .use(errors())
    .use(admission())
    .handler((event) => handler(event)) as (event: Event, context: KitContext) => Promise<Response>;
}

/**
 * The API's own path of the request, from the route and its parameters: under a custom domain's API mapping, API
 * Gateway leaves the mapping key in `rawPath` (`/agora/api/...`), and the public base URL carries it already, so links
 * built from `rawPath` would name it twice. Only the catch-all route has no template: it answers 404 from `rawPath`.
 */
export function apiPathOf(rule: RouteRule, event: Event): string {
  if (rule.key === '$default') return event.rawPath;
  const params = event.pathParameters ?? {};
  return rule.key
    .slice(rule.key.indexOf(' ') + 1)
    .replace(/\{(\w+)(\+?)\}/g, (_, name: string, greedy: string) =>
      (greedy ? encodeURI : encodeURIComponent)(params[name] ?? ''),
    );
}

/**
 * Runs a handler of a route that touches documents inside its document context (keyring, docservice URL, the
 * documents collection the path addresses); once it succeeded, the files its documents took are kept by the store.
 */
async function withDocuments(route: RouteRule, req: HttpRequest, run: Handler): Promise<HttpResult> {
  // Handed in only to routes that touch documents (the store's keyring and file store stay out of the others' bundles).
  const ports = await documentPortsOf(route);
  const at = req.path.lastIndexOf('/documents');
  const collection = at >= 0 ? req.path.slice(0, at + '/documents'.length) : undefined;
  const context = ports.context({ baseUrl: req.baseUrl, now: req.now, collection });
  const result = await run({ ...req, files: context });
  // The document is saved: a failure to mark its file only leaves it to the bucket's expiry rule, so it is logged.
  if (context.attached.length) {
    await ports
      .markAttached(context.attached)
      .catch((error) => log().error('markAttached failed', { files: context.attached, error: error as Error }));
  }
  return result;
}
