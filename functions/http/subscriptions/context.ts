import type { SubscriptionsContext } from '#domain/webhooks/subscription.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { targetPolicy } from '#runtime/webhooks.ts';
import { subscriptionRepository } from '#store/subscription-repository.ts';

export const subscriptionsContext = (req: HttpRequest): SubscriptionsContext => ({
  principal: req.principal,
  now: req.now,
  subscriptions: subscriptionRepository,
  targets: targetPolicy(),
});
