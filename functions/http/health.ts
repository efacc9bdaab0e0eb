import { httpHandler } from '#http-kit/http-handler.ts';
import { tableAnswers } from '#store/health.ts';

/** GET /api/health (public): 200 when the table answers, 503 when not; for load balancers and uptime checks. */
export const handler = httpHandler(async () => {
  const table = (await tableAnswers()) ? 'ok' : 'unavailable';
  return { status: table === 'ok' ? 200 : 503, data: { status: table, checks: { table } } };
});
