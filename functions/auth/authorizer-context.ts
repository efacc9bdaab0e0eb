import { isObject } from '../domain/kernel/objects.ts';
import { ROLES, type Role } from '../domain/kernel/principal.ts';

/**
 * What the authorizer (authorizer.ts) tells each route about its caller, in API Gateway's
 * `requestContext.authorizer.lambda`: strings, as a simple response's context carries them.
 */
export interface AuthorizerContext {
  name: string;
  role: Role | 'anonymous';
  levels: string;
  /** Seconds to wait: the key's request allowance is spent. */
  retryAfter?: string;
  /** The key store could not be read (a passing database fault): the HTTP kit answers 503, not 401. */
  unavailable?: string;
}

export const ANONYMOUS: AuthorizerContext = { name: 'anonymous', role: 'anonymous', levels: '' };

const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/**
 * The caller as the HTTP kit reads it from an event's authorizer context, checked field by field rather than cast: a
 * role nobody may hold, or a name or levels that are not strings, make the anonymous caller (who is admitted only
 * where a route is public); `retryAfter` counts only as whole seconds.
 */
export function authorizerContextOf(lambda: unknown): AuthorizerContext {
  const context = isObject(lambda) ? lambda : {};
  const text = (key: string) => (typeof context[key] === 'string' ? (context[key] as string) : undefined);
  const [name, role, levels, retryAfter, unavailable] = ['name', 'role', 'levels', 'retryAfter', 'unavailable'].map(
    text,
  );
  const caller = isRole(role) && name !== undefined ? { name, role, levels: levels ?? '' } : ANONYMOUS;
  return {
    ...caller,
    ...(retryAfter && /^\d+$/.test(retryAfter) && { retryAfter }),
    ...(unavailable && { unavailable }),
  };
}
