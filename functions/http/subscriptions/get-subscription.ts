import { ownedSubscription } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { subscriptionsContext } from './context.ts';

/** GET /api/0.1/subscriptions/{subscriptionId}: its owner (key and token) or an admin; never the secret. */
export const handler = httpHandler(async (req) => ({
  data: (await ownedSubscription(subscriptionsContext(req), req.params.subscriptionId)).root,
}));
