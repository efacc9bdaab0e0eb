import { messageHandler } from './kit.ts';
import { documentFor } from './room.ts';

/** `{"action":"resume"}`: the room document now, after connecting or a forced reconnect (the whole of it). */
export const handler = messageHandler('resume', async (_message, connection) => {
  const message = await documentFor(connection);
  return message === undefined ? undefined : JSON.parse(message);
});
