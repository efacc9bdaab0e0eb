import { notOurCursor, ownedSubscription, replayCursor } from '#domain/webhooks/subscription.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { rewindCursor } from '#store/cursors.ts';
import { subscriptionsContext } from './context.ts';

/**
 * POST /api/0.1/subscriptions/{subscriptionId}/replay `{"after": <cursor>}` (owner): the subscription's cursor in that
 * lane moves back to it, so everything that followed is sent again, in order, from the sweep's next run.
 */
export const handler = httpHandler(async (req) => {
  const ctx = subscriptionsContext(req);
  const { root } = await ownedSubscription(ctx, req.params.subscriptionId);
  const { lane, pos } = replayCursor(req.data);
  const rewound = await rewindCursor(root.id, lane, pos, ctx.now);
  if (rewound === undefined) throw notOurCursor();
  return { data: { after: `${lane}:${pos}`, rewound } };
});
