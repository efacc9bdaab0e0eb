import { participationSecret } from '#store/participation-secret.ts';
import { connect } from './connection.ts';
import { roomContext } from './context.ts';
import { wsHandler } from './kit.ts';

/**
 * $connect: an observer, or a bidder whose participation link or room page session verifies (connection.ts
 * `connect`). A refused handshake: API Gateway answers the client's upgrade with its status (the body, in the API's
 * error envelope, is for local clients).
 */
export const handler = wsHandler(async (event) => {
  const refused = await connect(
    { ...roomContext(), participationSecret },
    event.requestContext.connectionId,
    event.queryStringParameters ?? {},
  );
  if (!refused) return { statusCode: 200 };
  const { status, name, description } = refused;
  return {
    statusCode: status,
    body: JSON.stringify({ status: 'error', errors: [{ location: 'query', name, description }] }),
  };
});
