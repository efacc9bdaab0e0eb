import { admit, send, wsHandler } from './kit.ts';
import { parseMessage } from './protocol.ts';

/**
 * $default: a message that names no known action (or is not JSON): answered with the protocol's errors. It spends
 * from the connection's allowance like any message (junk is how a flood comes).
 */
export const handler = wsHandler(async (event) => {
  if (!(await admit(event.requestContext.connectionId))) return { statusCode: 200 };
  const parsed = parseMessage(event.body ?? undefined);
  const errors = 'errors' in parsed ? parsed.errors : [{ location: 'body', name: 'action', description: 'Not Found' }];
  await send(event.requestContext.connectionId, { type: 'error', errors });
  return { statusCode: 200 };
});
