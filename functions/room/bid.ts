import { messageHandler } from './kit.ts';
import { placeBidFrom } from './room.ts';

/** `{"action":"bid","amount":N}`: a bidder's bid, answered with its outcome (room.ts `placeBidFrom`). */
export const handler = messageHandler('bid', (message, connection) => placeBidFrom(connection, message.amount));
