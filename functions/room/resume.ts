import { roomContext } from './context.ts';
import { messageHandler } from './kit.ts';
import { documentFor } from './room.ts';

/**
 * `{"action":"resume"}`: the room document now, after connecting or a forced reconnect (the whole of it), sent as built.
 */
export const handler = messageHandler('resume', (_message, connection) => documentFor(roomContext(), connection));
