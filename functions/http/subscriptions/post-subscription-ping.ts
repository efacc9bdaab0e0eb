import { ownedSubscription } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { ping } from '#runtime/webhooks.ts';
import { subscriptionsContext } from './context.ts';

/** POST /api/0.1/subscriptions/{subscriptionId}/ping (owner): a `webhook.ping` sent at once; its attempt. */
export const handler = httpHandler(async (req) => {
  const subscription = await ownedSubscription(subscriptionsContext(req), req.params.subscriptionId);
  return { data: await ping(subscription) };
});
