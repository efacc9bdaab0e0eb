import { replayCursor, ownedSubscription } from '#domain/webhooks/subscription.ts';
import { cursorOf } from '#domain/webhooks/events.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { replayAfter } from '#store/deliveries.ts';
import { subscriptionsContext } from './context.ts';

/** At most this many deliveries are made due again by one replay; `next` continues. */
const REPLAY_BATCH = 100;

/** POST /api/0.1/subscriptions/{subscriptionId}/replay `{"after": <cursor>}` (owner): what followed is sent again. */
export const handler = httpHandler(async (req) => {
  const ctx = subscriptionsContext(req);
  const { root } = await ownedSubscription(ctx, req.params.subscriptionId);
  const after = replayCursor(req.data);
  const { count, last, more } = await replayAfter(root.id, after, ctx.now, REPLAY_BATCH);
  return { data: { replayed: count, ...(more && last && { next: cursorOf(last) }) } };
});
