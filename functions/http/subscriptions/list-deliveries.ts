import { ownedSubscription } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { deliveries } from '#runtime/webhooks.ts';
import { subscriptionsContext } from './context.ts';

/** GET /api/0.1/subscriptions/{subscriptionId}/deliveries (owner): the newest 100, where each stands, the retries. */
export const handler = httpHandler(async (req) => {
  const subscription = await ownedSubscription(subscriptionsContext(req), req.params.subscriptionId);
  return { data: await deliveries(subscription, 100) };
});
