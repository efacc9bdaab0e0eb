import { DomainError } from '#domain/kernel/errors.ts';
import { log } from '#runtime/observability.ts';
import { roomPorts } from '../ports.ts';
import { send } from './send.ts';
import type { SocketMiddleware } from './types.ts';

/** A refusal after which the connection is closed, `reason` its close frame's (a flood: answered, then ended). */
export class ClosingRefusal extends DomainError {
  constructor(
    status: number,
    name: string,
    readonly reason: string,
  ) {
    super(status, { location: 'body', name, description: reason });
  }
}

/**
 * Every error of the middlewares after it or the handler, and never a thrown one (API Gateway would log it as an
 * integration failure): a refusal (a DomainError) is answered in the API's error entries, to the handshake on
 * $connect (`{status: "error", errors}` with its status), else as an `error` message to the connection, which a
 * ClosingRefusal then closes (the message answered: 200 to API Gateway, the refusal's status in `refused` for the
 * request line); anything else is logged and a bare 500 that tells the client nothing.
 */
export const errors = (): SocketMiddleware => ({
  onError: async (request) => {
    const { error } = request;
    const { routeKey, connectionId } = request.event.requestContext;
    if (!(error instanceof DomainError)) {
      log().error('room: the message failed', { error: error as Error });
      request.response = { statusCode: 500 };
      return;
    }
    if (routeKey === '$connect') {
      request.response = { statusCode: error.status, body: JSON.stringify({ status: 'error', errors: error.entries }) };
      return;
    }
    try {
      await send(connectionId, { type: 'error', errors: error.entries });
      if (error instanceof ClosingRefusal) await roomPorts().close(connectionId, error.reason);
      request.context.refused = error.status;
      request.response = { statusCode: 200 };
    } catch (failure) {
      log().error('room: the refusal could not be sent', { error: failure as Error });
      request.response = { statusCode: 500 };
    }
  },
});
