import { rotateSecret } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { subscriptionsContext } from './context.ts';

/** POST /api/0.1/subscriptions/{subscriptionId}/secret (owner): a new secret, answered once; the old signs for 24 h. */
export const handler = httpHandler(async (req) => ({
  data: await rotateSecret(subscriptionsContext(req), req.params.subscriptionId),
}));
