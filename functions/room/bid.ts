import { log } from '#runtime/observability.ts';
import { messageHandler, send } from './kit.ts';
import { placeBidFrom } from './room.ts';

/**
 * `{"action":"bid","amount":N,"bidId"?:"..."}`: a bidder's bid, answered with its outcome before the room tells everyone else
 * (room.ts `placeBidFrom`). Each answer is logged (auction, bidder, outcome, refusal code; never the amount: a sealed
 * bid stays sealed in the logs too).
 */
export const handler = messageHandler('bid', async (message, connection) => {
  await placeBidFrom(
    connection,
    message.amount,
    (answer) => {
      log().info('room bid', {
        auction: connection.auctionId,
        bidder: connection.bidderId ?? 'observer',
        outcome: answer.outcome,
        ...(answer.code && { code: answer.code }),
      });
      return send(connection.connectionId, answer);
    },
    message.bidId,
  );
  return undefined;
});
