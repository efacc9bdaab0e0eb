import { randomUUID } from 'node:crypto';
import type { RateLimit } from '#domain/kernel/rate-limit.ts';
import { requestNow } from '#runtime/clock.ts';
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
 * What one connection may send (docs/api.md): bursts of 20 messages, 5 a second sustained. In AWS every room shares
 * the WebSocket stage's throttle, so a connection past its limit is told why and closed: its flood stops costing the
 * others. The allowance is a token bucket on the connection's own item (store/room-repository.ts spendMessage).
 */
export const ROOM_MESSAGES: RateLimit = { rate: 5, burst: 20 };

const TOO_MANY = `Too many messages: at most ${ROOM_MESSAGES.burst} at once and ${ROOM_MESSAGES.rate} a second; connect again`;

/**
 * Spends one message of the connection's allowance and finds its session (one request); undefined, the client told
 * why, when the room does not know the connection or it is over its limit (then it is closed).
 */
export async function admit(connectionId: string): Promise<RoomConnection | undefined> {
  const spent = await roomRepository.spendMessage(connectionId, ROOM_MESSAGES, Math.floor(requestNow() / 1000));
  if (!spent) {
    await send(connectionId, {
      type: 'error',
      errors: [{ location: 'url', name: 'connection', description: 'Unknown connection: connect again' }],
    });
    return undefined;
  }
  if (spent.admitted) return spent.connection;
  log().warn('room: a connection sent too many messages; closed', { auction: spent.connection.auctionId });
  await send(connectionId, { type: 'error', errors: [{ location: 'body', name: 'rate', description: TOO_MANY }] });
  await roomPorts().close(connectionId, TOO_MANY);
  return undefined;
}

/**
 * A message route: the connection's allowance spent and its session found (`admit`), the message checked against the
 * protocol (an `error` answer otherwise), then `fn`.
 */
export const messageHandler = <A extends Incoming['action']>(
  action: A,
  fn: (message: Extract<Incoming, { action: A }>, connection: RoomConnection) => Promise<unknown>,
) =>
  wsHandler(async (event) => {
    const { connectionId } = event.requestContext;
    const connection = await admit(connectionId);
    if (!connection) return { statusCode: 200 };
    const parsed = parseMessage(event.body ?? undefined);
    if ('errors' in parsed || parsed.message.action !== action) {
      await send(connectionId, { type: 'error', errors: 'errors' in parsed ? parsed.errors : [] });
      return { statusCode: 200 };
    }
    const answer = await fn(parsed.message as Extract<Incoming, { action: A }>, connection);
    if (answer !== undefined) await send(connectionId, answer);
    return { statusCode: 200 };
  });
