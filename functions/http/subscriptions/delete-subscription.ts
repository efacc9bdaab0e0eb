import { deleteSubscription } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { subscriptionsContext } from './context.ts';

/** DELETE /api/0.1/subscriptions/{subscriptionId} (owner): no more deliveries; `{"data": null}`. */
export const handler = httpHandler(async (req) => {
  await deleteSubscription(subscriptionsContext(req), req.params.subscriptionId);
  return { data: null };
});
