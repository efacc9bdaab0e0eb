import { randomUUID } from 'node:crypto';
import { log, withCorrelation } from '#runtime/observability.ts';
import { wireRuntime } from '#runtime/wiring.ts';
import { roomRepository, type RoomConnection } from '#store/room-repository.ts';
import { roomPorts } from './ports.ts';
import { parseMessage, type Incoming } from './protocol.ts';

/** What API Gateway (WebSocket API) hands a route's Lambda; the local room server builds the same. */
export interface WebSocketEvent {
  requestContext: { routeKey: string; connectionId: string; requestId?: string; domainName?: string; stage?: string };
  queryStringParameters?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface WebSocketResult {
  statusCode: number;
  body?: string;
}

/** One route's Lambda: the runtime wired, a correlation id per message, and never a thrown error (a logged 500). */
export const wsHandler =
  (fn: (event: WebSocketEvent) => Promise<WebSocketResult>) =>
  (event: WebSocketEvent): Promise<WebSocketResult> => {
    wireRuntime();
    const { routeKey, connectionId, requestId } = event.requestContext;
    return withCorrelation(
      requestId ?? randomUUID(),
      { route: `ws ${routeKey}`, connection: connectionId },
      async () => {
        try {
          return await fn(event);
        } catch (error) {
          log().error('room: the message failed', { error: error as Error });
          return { statusCode: 500 };
        }
      },
    );
  };

/** Sends one message to one connection: an object as JSON, a string as the message already serialized. */
export const send = (connectionId: string, message: unknown) =>
  roomPorts().send(connectionId, Buffer.from(typeof message === 'string' ? message : JSON.stringify(message)));

/**
 * A message route: the message checked against the protocol (an `error` answer otherwise), the connection's session
 * found (a connection the room does not know is answered so, and ends), then `fn`.
 */
export const messageHandler = <A extends Incoming['action']>(
  action: A,
  fn: (message: Extract<Incoming, { action: A }>, connection: RoomConnection) => Promise<unknown>,
) =>
  wsHandler(async (event) => {
    const { connectionId } = event.requestContext;
    const parsed = parseMessage(event.body ?? undefined);
    if ('errors' in parsed || parsed.message.action !== action) {
      await send(connectionId, { type: 'error', errors: 'errors' in parsed ? parsed.errors : [] });
      return { statusCode: 200 };
    }
    const connection = await roomRepository.connection(connectionId);
    if (!connection) {
      await send(connectionId, {
        type: 'error',
        errors: [{ location: 'url', name: 'connection', description: 'Unknown connection: connect again' }],
      });
      return { statusCode: 200 };
    }
    const answer = await fn(parsed.message as Extract<Incoming, { action: A }>, connection);
    if (answer !== undefined) await send(connectionId, answer);
    return { statusCode: 200 };
  });
