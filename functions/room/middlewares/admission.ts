import { DomainError } from '#domain/kernel/errors.ts';
import type { RateLimit } from '#domain/kernel/rate-limit.ts';
import { requestNow } from '#platform/clock.ts';
import { log } from '#runtime/observability.ts';
import { roomRepository } from '#store/room-repository.ts';
import { ClosingRefusal } from './errors.ts';
import type { SocketMiddleware } from './types.ts';

/**
 * What one connection may send (docs/api.md): bursts of 20 messages, 5 a second sustained. In AWS every room shares
 * the WebSocket stage's throttle, so a connection past its limit is told why and closed: its flood stops costing the
 * others. The allowance is a token bucket on the connection's own item (store/room-repository.ts spendMessage).
 */
export const ROOM_MESSAGES: RateLimit = { rate: 5, burst: 20 };

const TOO_MANY = `Too many messages: at most ${ROOM_MESSAGES.burst} at once and ${ROOM_MESSAGES.rate} a second; connect again`;

/**
 * First of a message route's own: spends one message of the connection's allowance and finds its session in the
 * same request (`context.connection`), before the message is even read (junk is how a flood comes). A connection the
 * room does not know is refused (404: connect again); one over its limit is refused and closed (429).
 */
export const admission = (): SocketMiddleware => ({
  before: async ({ event, context }) => {
    const { connectionId } = event.requestContext;
    const spent = await roomRepository.spendMessage(connectionId, ROOM_MESSAGES, Math.floor(requestNow() / 1000));
    if (!spent)
      throw new DomainError(404, {
        location: 'url',
        name: 'connection',
        description: 'Unknown connection: connect again',
      });
    context.connection = spent.connection;
    if (spent.admitted) return;
    log().warn('room: a connection sent too many messages; closed', { auction: spent.connection.auctionId });
    throw new ClosingRefusal(429, 'rate', TOO_MANY);
  },
});
