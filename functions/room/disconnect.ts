import { roomRepository } from '#store/room-repository.ts';
import { wsHandler } from './kit.ts';

/** $disconnect: the connection is forgotten (API Gateway calls it on a close, best effort; a 410 on send does too). */
export const handler = wsHandler(async (event) => {
  const connection = await roomRepository.connection(event.requestContext.connectionId);
  if (connection) await roomRepository.disconnect(connection);
  return { statusCode: 200 };
});
