import { roomContext } from './context.ts';
import { wsHandler } from './kit.ts';
import { disconnect } from './room.ts';

/** $disconnect: the connection is forgotten (API Gateway calls it on a close, best effort; a 410 on send does too). */
export const handler = wsHandler(async (event) => {
  await disconnect(roomContext(), event.requestContext.connectionId);
  return { statusCode: 200 };
});
