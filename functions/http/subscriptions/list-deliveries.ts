import { ownedSubscription } from '#domain/webhooks/subscription.ts';
import { deliveryView } from '#domain/webhooks/deliveries.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { listDeliveries } from '#store/deliveries.ts';
import { subscriptionsContext } from './context.ts';

/** GET /api/0.1/subscriptions/{subscriptionId}/deliveries (owner): the newest 100, with attempts and next retry. */
export const handler = httpHandler(async (req) => {
  const { root } = await ownedSubscription(subscriptionsContext(req), req.params.subscriptionId);
  return { data: (await listDeliveries(root.id, 100)).map(deliveryView) };
});
