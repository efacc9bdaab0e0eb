import { Ajv, type ValidateFunction } from 'ajv';
import protocol from './protocol.schema.json' with { type: 'json' };

/**
 * The room's message protocol (protocol.schema.json, the document clients read): every incoming message is checked
 * against it before anything else. A message that is not JSON, names no known action, or carries a field its action
 * does not know is answered with an `error` in the API's envelope, never acted on.
 */
export type Incoming = { action: 'ping' } | { action: 'resume' } | { action: 'bid'; amount: number; bidId?: string };

export interface ProtocolError {
  location: 'body';
  name: string;
  description: string;
}

const ACTIONS = ['ping', 'resume', 'bid'] as const;
type Action = (typeof ACTIONS)[number];

let validators: Record<Action, ValidateFunction> | undefined;
function validatorOf(action: Action): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: true });
    ajv.addSchema(protocol);
    const ref = (name: string) => ajv.getSchema(`${protocol.$id}#/definitions/${name}`)!;
    validators = { ping: ref('ping'), resume: ref('resume'), bid: ref('bid') };
  }
  return validators[action];
}

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
  const validate = validatorOf(action as Action);
  if (validate(data)) return { message: data as Incoming };
  return {
    errors: (validate.errors ?? []).map((e) => {
      const rogue = e.keyword === 'additionalProperties' ? String(e.params.additionalProperty) : undefined;
      const field = rogue ?? (e.instancePath.replace(/^\//, '') || String(e.params.missingProperty ?? 'data'));
      return { location: 'body', name: field, description: rogue ? 'Rogue field' : (e.message ?? 'Invalid') };
    }),
  };
}
