import type { Request } from '@middy/core';
import { authorizerContextOf } from '../../auth/authorizer-context.ts';
import { enterCorrelation, log, requestCorrelationId, requestMetrics } from '#runtime/observability.ts';
import type { Event, HttpResult, KitContext, KitMiddleware, Response } from '../types.ts';

type KitRequest = Request<Event, Response | HttpResult, Error, KitContext>;

/**
 * Outermost of the kit: each request runs under its correlation id (the client's `x-correlation-id` when it is a plain
 * token, else API Gateway's request id), so every log line of the request carries it; the answer, whatever it is,
 * returns it in `x-correlation-id`, and one `request` line (route key, the path's ids, status, latency, caller name and
 * role; never headers, query or body) and the route's metrics close it.
 */
export const observability = (): KitMiddleware => ({
  before: ({ event, context }) => {
    context.started = performance.now();
    context.correlationId = requestCorrelationId(event.headers?.['x-correlation-id'], event.requestContext?.requestId);
    enterCorrelation(context.correlationId, { route: event.routeKey ?? '$default', requestId: context.awsRequestId });
  },
  after: close,
  onError: close,
});

function close(request: KitRequest): void {
  const { event, context } = request;
  const response = request.response;
  if (!response || !('statusCode' in response)) return;
  const latencyMs = Math.round((performance.now() - (context.started ?? performance.now())) * 10) / 10;
  const status = response.statusCode ?? 200;
  const caller = context.caller ?? authorizerContextOf(event.requestContext?.authorizer?.lambda);
  // The objects it was about (`lotId`, `bidId`...: the route's path parameters), beside the route template.
  log()[status >= 500 ? 'error' : 'info']('request', {
    ...event.pathParameters,
    status,
    latencyMs,
    caller: caller.name,
    role: caller.role,
  });
  requestMetrics(event.routeKey ?? '$default', status, latencyMs);
  request.response = { ...response, headers: { ...response.headers, 'x-correlation-id': context.correlationId ?? '' } };
}
