import { bid } from './bidding.ts';
import { roomContext } from './context.ts';
import { messageHandler } from './kit.ts';

/**
 * `{"action":"bid","amount":N,"bidId"?:"..."}`: a bidder's bid, answered with its outcome before the room tells everyone
 * else (bidding.ts `bid`).
 */
export const handler = messageHandler('bid', async (message, connection) => {
  await bid(roomContext(), connection, message);
  return undefined;
});
