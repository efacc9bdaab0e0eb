import {
  DomainError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from '#domain/kernel/errors.ts';
import { log } from '#runtime/observability.ts';
import { isTransient } from '#platform/transient.ts';
import { type RouteRule, routeRuleOf } from '../route-rules.ts';
import type { Event, KitMiddleware } from '../types.ts';
import { respond } from './envelope.ts';

const headersOf = (error: DomainError): Record<string, string> =>
  error instanceof TooManyRequestsError || error instanceof ServiceUnavailableError
    ? { 'retry-after': String(error.retryAfterSeconds) }
    : error instanceof UnauthorizedError
      ? { 'www-authenticate': 'Basic realm="agora"' }
      : {};

/** The route's rule for the answer's media type; none when the Lambda has none (that error is answered too). */
function ruleOrNone(event: Event): RouteRule | undefined {
  try {
    return routeRuleOf(event.routeKey ?? '$default');
  } catch {
    return undefined;
  }
}

/**
 * Every error of the middlewares before it, the handler or the envelope, in the error envelope
 * `{"status":"error","errors":[...]}`: a DomainError with its status and entries, a passing database fault as 503,
 * anything else logged and a bare 500 that tells nothing of the internals.
 */
export const errors = (): KitMiddleware => ({
  onError: (request) => {
    const { event } = request;
    const rule = request.context.rule ?? ruleOrNone(event);
    const error =
      request.error instanceof DomainError || !isTransient(request.error)
        ? request.error
        : new ServiceUnavailableError();
    if (error instanceof ServiceUnavailableError) {
      const cause = request.error as Error;
      log().warn('database unavailable', { errorName: cause.name, errorMessage: cause.message });
    }
    if (error instanceof DomainError) {
      const body = { status: 'error', errors: error.entries };
      request.response = respond(rule, event, error.status, body, headersOf(error));
      return;
    }
    log().error('unhandled', { error: error as Error });
    request.response = respond(rule, event, 500, {
      status: 'error',
      errors: [{ location: 'body', name: 'data', description: 'Internal server error' }],
    });
  },
});
