import type { Request } from '@middy/core';
import { authorizerContextOf } from '../../auth/authorizer-context.ts';
import { closeRequest, openRequest, requestCorrelationId } from '#runtime/observability.ts';
import type { Event, HttpResult, KitContext, KitMiddleware, Response } from '../types.ts';

type KitRequest = Request<Event, Response | HttpResult, Error, KitContext>;

/**
 * Outermost of the kit: each request runs under its correlation id (the client's `x-correlation-id` when it is a plain
 * token, else API Gateway's request id), so every log line of the request carries it; the answer, whatever it is,
 * returns it in `x-correlation-id`, and one `request` line (route key, the path's ids, status, latency, caller name and
 * role; never headers, query or body) and the route's metrics close it (runtime/observability.ts `closeRequest`, as
 * the room's socket kit closes each message).
 */
export const observability = (): KitMiddleware => ({
  before: ({ event, context }) => {
    context.correlationId = requestCorrelationId(event.headers?.['x-correlation-id'], event.requestContext?.requestId);
    context.started = openRequest(context.correlationId, {
      route: event.routeKey ?? '$default',
      requestId: context.awsRequestId,
    });
  },
  after: close,
  onError: close,
});

function close(request: KitRequest): void {
  const { event, context } = request;
  const response = request.response;
  if (!response || !('statusCode' in response)) return;
  const caller = context.caller ?? authorizerContextOf(event.requestContext?.authorizer?.lambda);
  // The objects it was about (`lotId`, `bidId`...: the route's path parameters), beside the route template.
  closeRequest(
    event.routeKey ?? '$default',
    context.started ?? performance.now(),
    response.statusCode ?? 200,
    caller,
    event.pathParameters,
  );
  request.response = { ...response, headers: { ...response.headers, 'x-correlation-id': context.correlationId ?? '' } };
}
