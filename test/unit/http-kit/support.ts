import type { Request } from '@middy/core';
import type { Event, HttpResult, KitContext, KitMiddleware, Response } from '../../../functions/http-kit/types.ts';

/** An HTTP API v2 event of `routeKey` (`METHOD /path`), with the authorizer context `lambda`. */
export function event(routeKey: string, more: Partial<Event> & { lambda?: unknown } = {}): Event {
  const { lambda, ...rest } = more;
  const [method, path] = routeKey.split(' ');
  return {
    version: '2.0',
    routeKey,
    rawPath: path ?? '/',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: {
      http: { method: method === '$default' ? 'GET' : method, path: path ?? '/' },
      requestId: 'api-gateway-request-id',
      domainName: 'api.example.org',
      ...(lambda !== undefined && { authorizer: { lambda } }),
    },
    ...rest,
  } as Event;
}

export type KitRequest = Request<Event, Response | HttpResult, Error, KitContext>;

/** A middy request as the kit's middlewares get it. */
export const request = (e: Event, context: Partial<KitContext> = {}): KitRequest => ({
  event: e,
  context: context as KitContext,
  response: null,
  error: null,
  internal: {},
});

/** Runs one hook of one middleware alone; what it threw, if anything. */
export async function run(
  middleware: KitMiddleware,
  hook: 'before' | 'after' | 'onError',
  req: KitRequest,
): Promise<unknown> {
  try {
    await middleware[hook]!(req);
    return undefined;
  } catch (error) {
    return error;
  }
}

export const BROKER = { name: 'broker', role: 'broker', levels: '1234' };
