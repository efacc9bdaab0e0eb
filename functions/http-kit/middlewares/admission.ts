import { authorizerContextOf } from '../../auth/authorizer-context.ts';
import {
  NotStoredError,
  PermissionError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from '#domain/kernel/errors.ts';
import { spendAddress } from '#runtime/address-limits.ts';
import { config } from '#platform/config.ts';
import { routeRuleOf } from '../route-rules.ts';
import type { KitMiddleware } from '../types.ts';

/**
 * First of the kit: the route's rule, by the event's route key (a Lambda without one fails loudly, never serves an
 * unchecked request), and the caller, then refuses callers the route does not admit: the key store unavailable → 503,
 * the key over its allowance → 429 (the authorizer's token bucket), no valid key → 401 (but a read of public data
 * without any key is admitted as `anonymous`, within its source address's allowance, 429 beyond, unless the operator
 * requires a key for reads), a key of another role → 403. Before the body is read, so an unauthenticated caller costs no
 * parsing and learns nothing of how its body is taken.
 */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const admission = (): KitMiddleware => ({
  before: ({ event, context }) => {
    const caller = authorizerContextOf(event.requestContext.authorizer?.lambda);
    context.caller = caller;
    const rule = routeRuleOf(event.routeKey ?? '$default');
    context.rule = rule;
    // The keys could not be read: a write was not even started, and its caller may send it again as it is.
    if (caller.unavailable)
      throw READS.has(event.requestContext.http.method) ? new ServiceUnavailableError() : new NotStoredError();
    if (caller.retryAfter) throw new TooManyRequestsError(Number(caller.retryAfter));
    if (rule.auth === 'public') return;
    if (caller.role === 'anonymous') {
      // A key sent but unknown is a mistake to report (401), never read as nobody's.
      const keyless = event.headers.authorization === undefined;
      if (rule.auth !== 'read' || !keyless || config().readsNeedKey) throw new UnauthorizedError();
      const wait = spendAddress(event.requestContext.http.sourceIp);
      if (wait !== undefined) throw new TooManyRequestsError(wait, 'Too many requests from this address; retry later');
      return;
    }
    if (rule.auth !== 'any' && rule.auth !== 'read' && !rule.auth.includes(caller.role)) throw new PermissionError();
  },
});
