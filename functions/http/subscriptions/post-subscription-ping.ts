import { ownedSubscription } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { ping } from '#runtime/webhooks.ts';
import { getSubscription } from '#store/subscription-repository.ts';
import { subscriptionsContext } from './context.ts';

/** POST /api/0.1/subscriptions/{subscriptionId}/ping (owner): a `webhook.ping` sent at once; its attempt. */
export const handler = httpHandler(async (req) => {
  const { root } = await ownedSubscription(subscriptionsContext(req), req.params.subscriptionId);
  const subscription = await getSubscription(root.id);
  return { data: await ping(subscription!) };
});
