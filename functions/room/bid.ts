import { messageHandler, send } from './kit.ts';
import { placeBidFrom } from './room.ts';

/**
 * `{"action":"bid","amount":N,"bidId"?:"..."}`: a bidder's bid, answered with its outcome before the room tells everyone else
 * (room.ts `placeBidFrom`).
 */
export const handler = messageHandler('bid', async (message, connection) => {
  await placeBidFrom(connection, message.amount, (answer) => send(connection.connectionId, answer), message.bidId);
  return undefined;
});
