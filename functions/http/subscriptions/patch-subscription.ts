import { patchSubscription } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { subscriptionsContext } from './context.ts';

/** PATCH /api/0.1/subscriptions/{subscriptionId}: url, events, description, status (owner). */
export const handler = httpHandler(async (req) => ({
  data: await patchSubscription(subscriptionsContext(req), req.params.subscriptionId, req.data),
}));
