import { TooManyRequestsError } from '#domain/kernel/errors.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { spendAddress } from '#runtime/address-limits.ts';
import { tableAnswers } from '#store/health.ts';

/**
 * GET /api/health (public): 200 when the table answers, 503 when not; for load balancers and uptime checks. Each
 * source address has its own allowance (config `addressRate`, in this container's memory: the check stays read-only),
 * so no caller can turn it into a stream of table reads: beyond it, 429 with Retry-After.
 */
export const handler = httpHandler(async ({ sourceIp }) => {
  const wait = spendAddress(sourceIp);
  if (wait !== undefined) throw new TooManyRequestsError(wait, 'Too many requests from this address; retry later');
  const table = (await tableAnswers()) ? 'ok' : 'unavailable';
  return { status: table === 'ok' ? 200 : 503, data: { status: table, checks: { table } } };
});
