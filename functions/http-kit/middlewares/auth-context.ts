import { isObject } from '#domain/kernel/objects.ts';
import type { KitMiddleware } from '../types.ts';

/**
 * The principal the domain commands get: the caller admission found (its key's name, role and accreditation levels)
 * and the owner token it sent, from `acc_token`, `X-Access-Token` or the body's `access.token` (after the body
 * middleware: a token may come in the body).
 */
export const authContext = (): KitMiddleware => ({
  before: ({ event, context }) => {
    const { name, role, levels } = context.caller!;
    const token =
      event.queryStringParameters?.acc_token ??
      event.headers['x-access-token'] ??
      (isObject(context.body?.access) ? context.body.access.token : undefined);
    context.principal = { name, role, levels, token: typeof token === 'string' ? token : undefined };
  },
});
