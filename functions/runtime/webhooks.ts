import { createHash } from 'node:crypto';
import { formatKyiv } from '#domain/kernel/time.ts';
import { AWS_TARGETS, LOCAL_TARGETS, type TargetPolicy } from '#domain/webhooks/address.ts';
import { eventBody, eventType, hears, matches, type ObjectChange, PING, positionOf } from '#domain/webhooks/events.ts';
import { verdict } from '#domain/webhooks/schedule.ts';
import { signatureHeader } from '#domain/webhooks/signature.ts';
import { liveSecrets } from '#domain/webhooks/subscription.ts';
import { type Delivery, dueDeliveries, PING_PREFIX, putDelivery, recordAttempt } from '#store/deliveries.ts';
import {
  activeSubscriptions,
  disableSubscription,
  getSubscription,
  markFailing,
  markHealthy,
  type SubscriptionRecord,
} from '#store/subscription-repository.ts';
import { requestNow } from './clock.ts';
import { config } from './config.ts';
import { log } from './observability.ts';
import { postWebhook } from './webhook-sender.ts';

/**
 * The delivery of webhooks, the same in AWS and locally: `acceptChanges` fans a batch of changes out to the matching
 * subscriptions (one delivery item each, sent at once), `sendDue` sends what the schedule made due again.
 */

/** Where deliveries may go: public https addresses in AWS; the local runtime also reaches loopback over http. */
export const targetPolicy = (): TargetPolicy => (config().local ? LOCAL_TARGETS : AWS_TARGETS);

/** Subscriptions sent to at once (each one's deliveries go in order, one at a time). */
const PARALLEL = 32;

/** The `webhook-id` of a change for a subscription: the same for every retry and replay of it, and for a duplicate. */
const webhookIdOf = (subscriptionId: string, position: string) =>
  `msg_${createHash('sha256').update(`${subscriptionId}|${position}`).digest('base64url').slice(0, 27)}`;

/** Fans changes out to the subscriptions that ask for them, and sends each at once. Returns the deliveries made. */
export async function acceptChanges(changes: readonly ObjectChange[]): Promise<number> {
  if (!changes.length) return 0;
  const subscriptions = await activeSubscriptions();
  const now = requestNow();
  const fresh = new Map<string, Delivery[]>();
  const ordered = [...changes].sort((a, b) => positionOf(a).localeCompare(positionOf(b)));
  const puts = ordered.flatMap((change) => {
    const type = eventType(change);
    const body = JSON.stringify(eventBody(change));
    const position = positionOf(change);
    return subscriptions
      .filter((s) => matches(s.events, type) && hears(s.owner, change))
      .map((s) => ({ subscriptionId: s.id, position, webhookId: webhookIdOf(s.id, position), type, body }));
  });
  await inParallel(puts, PARALLEL, async (d) => {
    if (!(await putDelivery(d, now))) return; // handed twice by the stream: sent (or due) already
    const list = fresh.get(d.subscriptionId) ?? [];
    list.push({ ...d, state: 'pending', attempts: [], attemptCount: 0, due: now });
    fresh.set(d.subscriptionId, list);
  });
  await sendAll([...fresh.values()]);
  return puts.length;
}

/** Sends every delivery due at the service clock's now (retries, replays, a first attempt a crash left behind). */
export async function sendDue(): Promise<{ due: number; delivered: number }> {
  const due = await dueDeliveries(requestNow());
  const bySubscription = new Map<string, Delivery[]>();
  for (const d of due) bySubscription.set(d.subscriptionId, [...(bySubscription.get(d.subscriptionId) ?? []), d]);
  const delivered = await sendAll([...bySubscription.values()]);
  return { due: due.length, delivered };
}

/** A ping: a `webhook.ping` delivery of the subscription, sent at once; the delivery as recorded. */
export async function ping(subscription: SubscriptionRecord): Promise<Delivery> {
  const now = requestNow();
  const timestamp = new Date(now / 1000).toISOString();
  const position = `${PING_PREFIX}${timestamp}`;
  const d = {
    subscriptionId: subscription.root.id,
    position,
    webhookId: webhookIdOf(subscription.root.id, position),
    type: PING,
    body: JSON.stringify({ type: PING, timestamp, data: { id: subscription.root.id } }),
  };
  await putDelivery(d, now);
  return attempt({ ...d, state: 'pending', attempts: [], attemptCount: 0, due: now }, subscription);
}

/** Each subscription's deliveries in order, `PARALLEL` subscriptions at a time. Returns how many were delivered. */
async function sendAll(groups: Delivery[][]): Promise<number> {
  let delivered = 0;
  await inParallel(groups, PARALLEL, async (group) => {
    let subscription = await getSubscription(group[0]!.subscriptionId);
    for (const d of group) {
      const after = await attempt(d, subscription);
      if (after.state === 'delivered') delivered++;
      // The subscription as it is after a failure (disabled, failing since): the next delivery sees it.
      if (after.state !== 'delivered') subscription = await getSubscription(d.subscriptionId);
    }
  });
  return delivered;
}

/**
 * One attempt of a delivery: signed with every live secret at the service clock's time, sent, judged (schedule.ts),
 * recorded. A subscription deleted or disabled meanwhile leaves its delivery `failed`, listed and replayable.
 */
async function attempt(d: Delivery, subscription: SubscriptionRecord | undefined): Promise<Delivery> {
  const now = requestNow();
  const at = formatKyiv(now);
  if (subscription?.root.status !== 'active') {
    const made = { at, error: 'subscription disabled', ms: 0 };
    await recordAttempt(d, made, { state: 'failed' });
    return { ...d, state: 'failed', attempts: [...d.attempts, made], attemptCount: d.attemptCount + 1 };
  }
  const timestamp = Math.floor(now / 1_000_000);
  const sent = await postWebhook(
    subscription.root.url,
    {
      'webhook-id': d.webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(liveSecrets(subscription, now), d.webhookId, timestamp, d.body),
    },
    d.body,
    targetPolicy(),
    config().webhookTimeoutMs,
  );
  const { ms, answer, status, error } = sent;
  const next = verdict(sent, d.attemptCount + 1, subscription.failingSince, now, Math.random());
  const made = { at, ms, ...(status !== undefined && { status }), ...(error && { error }), ...(answer && { answer }) };
  const recorded = await recordAttempt(d, made, next.state === 'pending' ? next : { state: next.state });
  if (!recorded) return d; // another sweep recorded this attempt: its verdict stands
  const id = subscription.root.id;
  if (next.state === 'delivered') {
    if (subscription.failingSince !== undefined) await markHealthy(id);
  } else if (next.state === 'failed') {
    log().warn('webhook subscription disabled', { subscription: id, reason: next.disable });
    await disableSubscription(id, next.disable, at);
  } else if (subscription.failingSince === undefined) await markFailing(id, now);
  return {
    ...d,
    state: next.state,
    attempts: [...d.attempts, made],
    attemptCount: d.attemptCount + 1,
    ...(next.state === 'pending' && { due: next.due }),
  };
}

/** Runs `work` on every item, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
