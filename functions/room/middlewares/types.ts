import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { RoomConnection } from '#domain/room/model.ts';
import type { Incoming } from '../protocol.ts';

/** What API Gateway (WebSocket API) hands a route's Lambda; the local room server builds the same. */
export interface WebSocketEvent {
  requestContext: { routeKey: string; connectionId: string; requestId?: string; domainName?: string; stage?: string };
  queryStringParameters?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
}

/**
 * What a route's Lambda answers API Gateway: $connect's status (and body) is the handshake's; a message's is 200 once
 * the client was answered (a 4xx or 5xx would count as the stage's IntegrationError), 500 when it failed.
 */
export interface WebSocketResult {
  statusCode: number;
  body?: string;
}

/** What the socket kit's middlewares learn of a message, each for those after it and the handler. */
export interface SocketContext extends Context {
  /** Observability: when the message came. */
  started?: number;
  /** Admission: the connection's session (its auction, its bidder), once its allowance is spent. */
  connection?: RoomConnection;
  /** Message: the message, checked against the protocol. */
  message?: Incoming;
  /** Errors: the status of the refusal the message was answered with (the request line's status). */
  refused?: number;
}

export type SocketMiddleware = MiddlewareObj<WebSocketEvent, WebSocketResult, Error, SocketContext>;

/** The route key as the request line and the metrics name it (`ws bid`, `ws $connect`), beside the HTTP routes. */
export const routeOf = (event: WebSocketEvent) => `ws ${event.requestContext.routeKey}`;
