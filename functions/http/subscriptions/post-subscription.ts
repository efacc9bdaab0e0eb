import { createSubscription } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { subscriptionsContext } from './context.ts';

/** POST /api/0.1/subscriptions: a broker's (or admin's) subscription; its token and signing secret answered once. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const { subscription, token, secret } = await createSubscription(subscriptionsContext(req), req.data, id);
    return {
      status: 201,
      data: subscription,
      access: { token, ...(secret && { secret }) },
      location: `${req.path}/${subscription.id}`,
    };
  }),
);
