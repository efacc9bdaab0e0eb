import { DomainError, UnprocessableError } from '#domain/kernel/errors.ts';
import { type Incoming, parseMessage } from '../protocol.ts';
import type { SocketMiddleware } from './types.ts';

/**
 * The message checked against the protocol (protocol.schema.json) before anything acts on it (`context.message`): not
 * JSON, a field its action does not know, a value out of bounds is refused (422, the protocol's errors); a message
 * of another action than the route's (`$default` has none) names no route (404 `action`).
 */
export const message = (action: Incoming['action'] | undefined): SocketMiddleware => ({
  before: ({ event, context }) => {
    const parsed = parseMessage(event.body ?? undefined);
    if ('errors' in parsed) throw new UnprocessableError(parsed.errors);
    if (parsed.message.action !== action)
      throw new DomainError(404, { location: 'body', name: 'action', description: 'Not Found' });
    context.message = parsed.message;
  },
});
