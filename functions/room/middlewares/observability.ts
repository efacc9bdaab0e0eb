import type { Request } from '@middy/core';
import { closeRequest, openRequest, requestCorrelationId } from '#runtime/observability.ts';
import {
  routeOf,
  type SocketContext,
  type SocketMiddleware,
  type WebSocketEvent,
  type WebSocketResult,
} from './types.ts';

/** Nobody the room knows yet ($connect, $disconnect, an unknown connection). */
const ANONYMOUS = { name: 'anonymous', role: 'anonymous' };

/**
 * Outermost of the socket kit, as of the HTTP kit (runtime/observability.ts `openRequest`, `closeRequest`): each
 * message runs under its correlation id (API Gateway's request id) with its route (`ws bid`) and connection on every
 * line, and one `request` line (the auction, status, latency, the caller: a bidder by its bid's id, or an observer)
 * and the route's metrics close it.
 */
export const observability = (): SocketMiddleware => ({
  before: ({ event, context }) => {
    const { connectionId, requestId } = event.requestContext;
    context.started = openRequest(requestCorrelationId(undefined, requestId), {
      route: routeOf(event),
      connection: connectionId,
      requestId: context.awsRequestId,
    });
  },
  after: close,
  onError: close,
});

function close({ event, context, response }: Request<WebSocketEvent, WebSocketResult, Error, SocketContext>): void {
  if (!response) return;
  const connection = context.connection;
  const caller = !connection
    ? ANONYMOUS
    : connection.bidderId
      ? { name: connection.bidderId, role: 'bidder' }
      : { name: 'observer', role: 'observer' };
  // A refused message was answered (200 to API Gateway): its line and metrics count the refusal's status.
  const status = context.refused ?? response.statusCode;
  closeRequest(routeOf(event), context.started ?? performance.now(), status, caller, {
    auctionId: connection?.auctionId,
  });
}
