import type { ValidateFunction } from 'ajv';
import type { ErrorEntry } from '#domain/kernel/errors.ts';
import { ROOM_ACTIONS as ACTIONS, type RoomAction as Action } from './actions.ts';
import type { ErrorMessage, IncomingMessage } from './generated/protocol-types.ts';
import { bid, ping, resume } from './generated/protocol-validators.js';

/**
 * The room's message protocol (protocol.schema.json, the document clients read): every incoming message is checked
 * against it before anything else. A message that is not JSON, names no known action, or carries a field its action
 * does not know is answered with an `error` in the API's envelope, never acted on. The messages' types are generated
 * from the same schema (generated/protocol-types.ts).
 */
/** A client's message as the schema defines it; what the socket's message routes take. */
export type Incoming = IncomingMessage;
/** An error entry of the protocol's `error` message that is also one of the API's (the socket kit raises it). */
export type ProtocolError = ErrorMessage['errors'][number] & ErrorEntry;

/** Compiled ahead of time from protocol.schema.json (npm run generate): no room Lambda ships or runs ajv's compiler. */
const VALIDATORS: Record<Action, ValidateFunction> = { ping, resume, bid };

/** The message, checked; or the errors to answer with. */
export function parseMessage(body: string | undefined): { message: Incoming } | { errors: ProtocolError[] } {
  let data: unknown;
  try {
    data = JSON.parse(body ?? '');
  } catch {
    return { errors: [{ location: 'body', name: 'data', description: 'Expecting a JSON object' }] };
  }
  const action = (data as { action?: unknown } | null)?.action;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { errors: [{ location: 'body', name: 'data', description: 'Expecting a JSON object' }] };
  if (!ACTIONS.includes(action as Action))
    return { errors: [{ location: 'body', name: 'action', description: `Expecting one of: ${ACTIONS.join(', ')}` }] };
  const validate = VALIDATORS[action as Action];
  if (validate(data)) return { message: data as Incoming };
  return {
    errors: (validate.errors ?? []).map((e) => {
      const rogue = e.keyword === 'additionalProperties' ? String(e.params.additionalProperty) : undefined;
      const field = rogue ?? (e.instancePath.replace(/^\//, '') || String(e.params.missingProperty ?? 'data'));
      return { location: 'body', name: field, description: rogue ? 'Rogue field' : (e.message ?? 'Invalid') };
    }),
  };
}
