import { createHash } from 'node:crypto';
import { formatKyiv, type Micros, parseInstant } from '#domain/kernel/time.ts';
import { AWS_TARGETS, LOCAL_TARGETS, type TargetPolicy } from '#domain/webhooks/address.ts';
import { eventBody, eventType, hears, matches, type ObjectChange, PING, positionOf } from '#domain/webhooks/events.ts';
import { DOWN_AFTER_ATTEMPTS, verdict } from '#domain/webhooks/schedule.ts';
import { signatureHeader } from '#domain/webhooks/signature.ts';
import { liveSecrets } from '#domain/webhooks/subscription.ts';
import {
  claimQueue,
  closeQueue,
  type Delivery,
  dueQueues,
  holdQueue,
  openQueue,
  openQueues,
  type Outcome,
  parkQueue,
  PING_PREFIX,
  type Queue,
  queueDeliveries,
  queuedDeliveries,
  recordAttempts,
  recordFirstAttempts,
  requeue,
  rescheduleQueue,
  setQueueLog,
  type Settled,
  storedDeliveries,
} from '#store/deliveries.ts';
import { horizon, logChanges, logKeyAt, loggedChanges } from '#store/webhook-log.ts';
import {
  type ActiveSubscription,
  activeSubscriptions,
  disableSubscription,
  getSubscriptions,
  getSubscriptionsAndQueues,
  markFailing,
  markHealthy,
  setParked,
  type SubscriptionRecord,
} from '#store/subscription-repository.ts';
import { requestNow } from './clock.ts';
import { config } from './config.ts';
import { log } from './observability.ts';
import { postWebhook } from './webhook-sender.ts';

/**
 * The delivery of webhooks, the same in AWS and locally. `acceptChanges` takes one batch of journaled changes (an SQS
 * batch in AWS, one of the local pipe's; each object's in `seq` order, each once: domain/journal), and sends each
 * subscription's at once, all
 * subscriptions in parallel and one object's changes to one subscription one after the other; the deliveries are
 * written with their attempts, 25 to a request. A subscription whose receiver failed has its own queue
 * (store/deliveries.ts): its later deliveries wait there, in order, without an attempt, and `sendDue` (the retry
 * sweep) sends them when the circuit's schedule says, one probe first. One whose retry failed too is parked: the
 * batches log what it owes once for all parked ones (store/webhook-log.ts) and its sweep copies that into its queue
 * when its receiver takes it. A failing receiver costs its own subscription only.
 */

/** Where deliveries may go: public https addresses in AWS; the local runtime also reaches loopback over http. */
export const targetPolicy = (): TargetPolicy => (config().local ? LOCAL_TARGETS : AWS_TARGETS);

/** Requests to receivers in flight at once from one batch (keep-alive connections: webhook-sender.ts). */
const PARALLEL = 64;
/** Queue items written at once by one batch (its DynamoDB connections stay few: the API's share them locally). */
const QUEUE_WRITES = 8;
/** Queues the sweep works on at once (all it takes per run: one receiver's hang holds no other's), and per queue. */
const PARALLEL_QUEUES = 100;
const QUEUE_PAGE = 100;
/** A sweep sends one queue's deliveries for this long at most, then leaves the rest to its next run. */
const DRAIN_BUDGET_MS = 30_000;
/** A sweep holds a queue it took up this long past its budget and last answer (a second sweep leaves it alone). */
const LEASE_MARGIN: Micros = 15_000_000;
/** A queue is closed only once its last joiner is this old: the index shows a queued delivery within it (DESIGN §4). */
const INDEX_SETTLE: Micros = 3_000_000;
/** Log entries a sweep copies into a parked subscription's queue at once (each a batch's changes, 10 at most). */
const LOG_PAGE = 100;
/** A parked subscription's cursor starts this far before the parking: batches under way then log what it owes too. */
const PARK_OVERLAP: Micros = 1_000_000;
/**
 * Batches may read a subscription parked this long after it was taken back (the fan-out's list lags its version by
 * the index's settle; a log entry is sent within the feeds' 1 s budget of its read): copied before anything is sent.
 */
const RESUME_WINDOW: Micros = INDEX_SETTLE + 1_000_000;

/** A change's deliveries to those of these subscriptions that hear of it. */
function deliveriesOf(
  change: ObjectChange,
  subscriptions: readonly Pick<ActiveSubscription, 'id' | 'events' | 'owner'>[],
) {
  const type = eventType(change);
  const body = JSON.stringify(eventBody(change));
  const position = positionOf(change);
  return subscriptions
    .filter((s) => matches(s.events, type) && hears(s.owner, change))
    .map((s) => ({ subscriptionId: s.id, position, webhookId: webhookIdOf(s.id, position), type, body }));
}

/** The `webhook-id` of a change for a subscription: the same for every retry and replay of it, and for a duplicate. */
const webhookIdOf = (subscriptionId: string, position: string) =>
  `msg_${createHash('sha256').update(`${subscriptionId}|${position}`).digest('base64url').slice(0, 27)}`;

/**
 * Takes a batch of journaled changes (each object's in `seq` order, each once: domain/journal) and fans them out.
 * `handedBefore`: the batch came back after a handling that failed (SQS's receive count above 1), so some deliveries
 * may be written already: those are looked up, not sent again. Returns the deliveries made.
 */
export async function acceptChanges(changes: readonly ObjectChange[], handedBefore = false): Promise<number> {
  if (!changes.length) return 0;
  const { list: active } = await activeSubscriptions();
  const readAt = requestNow(); // which subscriptions are parked, as of now: the stamp of what is logged for them
  return fanOut(changes, active, handedBefore, readAt);
}

/**
 * Fans changes out to the subscriptions that ask for them and sends each at once, in order per object and
 * subscription: a change goes out only after the previous change of its object to that subscription was answered.
 * `careful`: some deliveries may be written already (a batch handed again, changes read from the log): those are
 * not sent again. Returns the deliveries made.
 */
async function fanOut(
  changes: readonly ObjectChange[],
  active: readonly ActiveSubscription[],
  careful: boolean,
  readAt: Micros,
) {
  const now = requestNow();
  const ordered = [...changes].sort((a, b) => positionOf(a).localeCompare(positionOf(b)));
  // Parked subscriptions cost the batch one log entry, whatever their number: their sweep copies what they owe.
  const parked = active.filter((s) => s.parked);
  const logged = ordered.some((c) => parked.some((s) => matches(s.events, eventType(c)) && hears(s.owner, c)))
    ? logChanges(readAt, ordered)
    : undefined;
  const live = active.filter((s) => !s.parked);
  const wanted = ordered.flatMap((change) => deliveriesOf(change, live));
  if (!wanted.length) {
    await logged;
    return 0;
  }
  const ids = [...new Set(wanted.map((d) => d.subscriptionId))];
  const { subscriptions, queues } = await getSubscriptionsAndQueues(ids);
  // Subscriptions with an open queue get theirs queued, beside (never before) the first attempts of the others.
  const waiting = (d: { subscriptionId: string }) => queues.has(d.subscriptionId);
  await Promise.all([
    (async () => {
      const first = wanted.filter((d) => !waiting(d));
      // Written by a handling that failed (or before a mark): sent already, or pending in their queue, whose sweep
      // sends them (and, behind them, this batch's later deliveries to those subscriptions).
      const written = careful ? await storedDeliveries(first) : [];
      const leftBehind = written.length ? await requeue(written) : [];
      const fresh = first
        .filter((d) => !written.includes(d))
        .map((d) => ({ ...d, state: 'pending' as const, attempts: [], attemptCount: 0 }));
      const joined = new Set(leftBehind.map((d) => d.subscriptionId));
      await sendBatch(fresh, subscriptions, queues, now, joined, !careful);
    })(),
    (async () => {
      const queued = wanted.filter(waiting);
      if (!queued.length) return;
      await queueDeliveries(queued, !careful);
      await inParallel([...new Set(queued.map((d) => d.subscriptionId))], QUEUE_WRITES, (id) => openQueue(id, now));
    })(),
    logged,
  ]);
  return wanted.length;
}

/**
 * Sends deliveries not written yet, then writes them with their attempts (store: `recordFirstAttempts`): each
 * subscription's one object's in order, everything else in parallel. A subscription with an open queue (its receiver
 * failed), or whose receiver fails now, gets no attempt: its deliveries are written into its queue, the queue is
 * opened (or told more joined) and the sweep sends them on the circuit's schedule.
 */
async function sendBatch(
  fresh: readonly Delivery[],
  subscriptions: Map<string, SubscriptionRecord>,
  queues: Map<string, Queue>,
  now: Micros,
  joined: Set<string>,
  firstHandling = false,
): Promise<Settled[]> {
  const chains = new Map<string, Delivery[]>();
  for (const d of fresh) {
    const chain = `${d.subscriptionId}|${d.position.split('#').slice(1, 3).join('#')}`;
    chains.set(chain, [...(chains.get(chain) ?? []), d]);
  }
  const settled: Settled[] = [];
  /** Deliveries not attempted (behind what waits): written into their subscription's queue with the attempts. */
  const skipped: Delivery[] = [];
  /** Subscriptions whose receiver failed in this batch: when their circuit tries again. */
  const opened = new Map<string, Micros>();
  const disabled = new Map<string, 'gone' | 'failing'>();
  await inParallel([...chains.values()], PARALLEL, async (chain) => {
    for (const d of chain) {
      const id = d.subscriptionId;
      // `joined` holds from the start the subscriptions whose deliveries an earlier handling left pending: they wait
      // in its queue, so this batch's later ones wait behind them even when that handling never opened the queue.
      if (queues.has(id) || joined.has(id) || opened.has(id) || disabled.has(id)) {
        joined.add(id); // behind what waits: in order, sent by the sweep
        skipped.push(d);
        continue;
      }
      const subscription = subscriptions.get(id);
      // A first attempt waits 2 s at most (config: `webhookFirstAttemptMs`; the retries the full 15 s): a batch is
      // never held longer by one slow receiver, and one that does not answer within it is sent from its queue.
      const result = await attempt(d, subscription, config().webhookFirstAttemptMs);
      settled.push(result);
      const next = result.next;
      if (next.state === 'failed' && result.disable) disabled.set(id, result.disable);
      if (next.state === 'pending') opened.set(id, next.due ?? now);
    }
  });
  const recorded = await recordFirstAttempts(settled, skipped, firstHandling);
  await afterAttempts(recorded, subscriptions, opened, disabled, now);
  await inParallel(
    [...joined].filter((id) => !opened.has(id)),
    QUEUE_WRITES,
    (id) => openQueue(id, now),
  );
  return recorded;
}

/** What the attempts made of their subscriptions: failing (their queue opened), healthy again, or disabled. */
async function afterAttempts(
  recorded: readonly Settled[],
  subscriptions: Map<string, SubscriptionRecord>,
  opened: Map<string, Micros>,
  disabled: Map<string, 'gone' | 'failing'>,
  now: Micros,
) {
  const delivered = new Set(recorded.filter((s) => s.next.state === 'delivered').map((s) => s.delivery.subscriptionId));
  await Promise.all([
    ...[...opened].map(async ([id, due]) => {
      await openQueue(id, due);
      if (subscriptions.get(id)?.failingSince === undefined) await markFailing(id, now);
    }),
    ...[...disabled].map(([id, reason]) => {
      log().warn('webhook subscription disabled', { subscription: id, reason });
      return disableSubscription(id, reason, formatKyiv(now));
    }),
    ...[...delivered]
      .filter((id) => !opened.has(id) && subscriptions.get(id)?.failingSince !== undefined)
      .map((id) => markHealthy(id)),
  ]);
}

/**
 * The retry sweep: each queue due (at most one per subscription) is taken up, its deliveries sent in order, one at a
 * time: the first is the circuit's probe; at the first failure the queue waits for the schedule's next try, and once
 * empty it is closed (first attempts go out at once again). A subscription whose retry fails too is parked (what it
 * owes is logged per batch, not written per delivery) and copied into its queue from the log once that is empty; it
 * is taken back once its receiver answers and the log is sent. A deleted or disabled subscription's queue is emptied
 * (its deliveries failed, still listed and replayable) and dropped.
 */
export async function sendDue(): Promise<{ due: number; delivered: number }> {
  const now = requestNow();
  const due = await dueQueues(now);
  const subscriptions = await getSubscriptions(due.map((q) => q.subscriptionId));
  let delivered = 0;
  await inParallel(due, PARALLEL_QUEUES, async (queue) => {
    delivered += await drain(queue, subscriptions.get(queue.subscriptionId));
  });
  return { due: due.length, delivered };
}

/**
 * A queued delivery the sweep may not send yet: it joined its queue within the index's settle time (store/deliveries.ts
 * `writeNew`: the index may not show an earlier delivery of its object yet), or its change is that young (one of an
 * older release, with no stamp). The queue is sent in position order, so the sweep leaves it, and what follows, for
 * its next run: the order test saw seq 4 sent from a queue whose index did not show seq 3 yet.
 */
const settling = (d: Delivery, now: Micros) =>
  (d.queuedAt ?? 0) > now - INDEX_SETTLE ||
  (!d.position.startsWith(PING_PREFIX) && (parseInstant(d.position.split('#')[0]!) ?? 0) > now - INDEX_SETTLE);

async function drain(queue: Queue, subscription: SubscriptionRecord | undefined): Promise<number> {
  const now = requestNow();
  const id = queue.subscriptionId;
  // Taken for longer than a drain can last: no other sweep sends its deliveries meanwhile.
  const timeout = config().webhookTimeoutMs;
  if (!(await claimQueue(queue, now + (DRAIN_BUDGET_MS + timeout) * 1000 + LEASE_MARGIN))) return 0;
  const active = subscription?.root.status === 'active';
  // Disabled by its owner (no reason of ours): what waits is kept for when it is enabled again (store: holdQueue).
  if (subscription && !active && subscription.root.disabledReason === undefined) {
    await holdQueue(id);
    return 0;
  }
  if (!active && queue.logCursor !== undefined) await setQueueLog(id, {}); // what it owed goes with it
  const { page, hold, idle } = await waitingNow(queue, active ? subscription : undefined);
  if (hold) {
    await rescheduleQueue(id, now + 1_000_000);
    return 0;
  }
  const settled: Settled[] = [];
  let stopped: Outcome | undefined;
  let disable: 'gone' | 'failing' | undefined;
  let more = page.more;
  const started = performance.now();
  for (const d of page.waiting) {
    if (performance.now() - started > DRAIN_BUDGET_MS) {
      more = true; // the rest at the next run, the lease kept short
      break;
    }
    if (active && settling(d, requestNow())) {
      more = true; // it and what follows at the next run, once an earlier change of its object had time to join
      break;
    }
    const result = await attempt(d, subscription, timeout);
    settled.push(result);
    if (result.next.state === 'delivered') continue;
    if (result.next.state === 'failed' && !active) continue; // emptied, one by one
    stopped = result.next;
    disable = result.disable;
    break;
  }
  const recorded = await recordAttempts(settled);
  const delivered = recorded.filter((s) => s.next.state === 'delivered').length;
  const parked = active && queue.logCursor !== undefined && queue.liveFrom === undefined;
  if (disable) {
    log().warn('webhook subscription disabled', { subscription: id, reason: disable });
    await disableSubscription(id, disable, formatKyiv(now));
    await rescheduleQueue(id, now); // the next run fails what still waits
  } else if (stopped?.state === 'pending') {
    await rescheduleQueue(id, stopped.due ?? now);
    if (subscription?.failingSince === undefined) await markFailing(id, now);
    // Its receiver is down (one delivery failed DOWN_AFTER_ATTEMPTS times in a row, a minute and more): parked, so
    // that what it owes costs the fan-out nothing per subscription (one log entry a batch); the queue's cursor first,
    // so a batch that reads it parked has its changes copied. A receiver that errs now and then is never parked: its
    // retries come within seconds (schedule.ts) and its queue drains as soon as it answers.
    if (active && queue.logCursor === undefined && settled.at(-1)!.delivery.attemptCount + 1 >= DOWN_AFTER_ATTEMPTS) {
      await parkQueue(id, logKeyAt(now - PARK_OVERLAP));
      await setParked(id, true);
    }
  } else if (more) await rescheduleQueue(id, now);
  else if (parked) {
    // Its queue and the log are empty and its receiver answered the last: taken back. Batches that read it parked
    // until then log what they owe it; the sweep copies that (up to the switch and its window) before it sends more.
    if (idle) {
      await setQueueLog(id, { cursor: queue.logCursor!, liveFrom: now });
      await setParked(id, false);
    }
    await rescheduleQueue(id, now + 1_000_000);
  } else if (await closeQueue(queue, now - INDEX_SETTLE)) {
    if (subscription?.failingSince !== undefined) await markHealthy(id);
  } else await rescheduleQueue(id, now + 1_000_000);
  return delivered;
}

/**
 * What the sweep sends now: the queue's first page, after what a parked subscription owes has joined it from the log
 * (a page of it once the queue is empty: a dead receiver's backlog stays in the log; resuming, all of it up to the
 * switch). `hold`: a resuming subscription's log is not all copied yet, so nothing is sent. `idle`: a parked one's
 * queue and log are empty. `subscription`: the active one (none: a disabled or deleted one, only its queue is sent).
 */
async function waitingNow(queue: Queue, subscription: SubscriptionRecord | undefined) {
  const id = queue.subscriptionId;
  const page = await queuedDeliveries(id, QUEUE_PAGE);
  const resuming = queue.liveFrom !== undefined;
  const empty = !page.waiting.length && !page.more;
  if (!subscription || queue.logCursor === undefined || !(resuming || empty)) return { page, hold: false, idle: false };
  const copied = await copyFromLog(queue, subscription);
  if (resuming && !copied.caughtUp) return { page, hold: true, idle: false };
  if (!copied.count) return { page, hold: false, idle: !resuming && copied.caughtUp };
  await new Promise((r) => setTimeout(r, INDEX_SETTLE / 1000 + 100)); // the queue's index shows them, settled
  return { page: await queuedDeliveries(id, QUEUE_PAGE), hold: false, idle: false };
}

/**
 * Copies what a parked (or resuming) subscription owes from the webhook log into its queue: the entries after its
 * cursor, up to the settle horizon (resuming: and no later than the switch and its window), one page; the cursor moves
 * past them. `caughtUp`: nothing more to copy (resuming: the log state is removed, the queue is an ordinary one).
 */
async function copyFromLog(queue: Queue, subscription: SubscriptionRecord) {
  const id = queue.subscriptionId;
  const settledKey = `${horizon()}#~`;
  const switchKey = queue.liveFrom !== undefined ? logKeyAt(queue.liveFrom + RESUME_WINDOW) : undefined;
  const through = switchKey !== undefined && switchKey < settledKey ? switchKey : settledKey;
  const { entries, more } = await loggedChanges(queue.logCursor!, through, LOG_PAGE);
  const them = [{ id, events: subscription.root.events, owner: subscription.owner }];
  const owed = entries.flatMap((e) => e.changes.flatMap((c) => deliveriesOf(c, them)));
  if (owed.length) await queueDeliveries(owed);
  const cursor = entries.at(-1)?.key ?? queue.logCursor!;
  const caughtUp = !more && (switchKey === undefined || switchKey <= settledKey);
  if (caughtUp && queue.liveFrom !== undefined) await setQueueLog(id, {});
  else if (cursor !== queue.logCursor)
    await setQueueLog(id, { cursor, ...(queue.liveFrom !== undefined && { liveFrom: queue.liveFrom }) });
  queue.logCursor = cursor;
  return { count: owed.length, caughtUp };
}

/** A ping: a `webhook.ping` delivery of the subscription, sent at once (or queued behind what waits); as recorded. */
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
  const id = subscription.root.id;
  const fresh = [{ ...d, state: 'pending' as const, attempts: [], attemptCount: 0 }];
  const [recorded] = await sendBatch(fresh, new Map([[id, subscription]]), await openQueues([id]), now, new Set());
  if (!recorded) return { ...d, state: 'pending', attempts: [], attemptCount: 0 };
  return {
    ...recorded.delivery,
    state: recorded.next.state,
    attempts: [...recorded.delivery.attempts, recorded.attempt],
    attemptCount: recorded.delivery.attemptCount + 1,
    ...(recorded.next.state === 'pending' && recorded.next.due !== undefined && { due: recorded.next.due }),
  };
}

/**
 * One attempt of a delivery: signed with every live secret, sent, judged (schedule.ts) on the service clock. Its
 * `webhook-timestamp` is the wall clock of sending, whatever the service clock says (a local clock moved days ahead
 * would have every receiver refuse the message as "too new"): receivers compare it with their own clock.
 * A subscription deleted or disabled meanwhile leaves its delivery `failed`, listed and replayable.
 */
async function attempt(
  d: Delivery,
  subscription: SubscriptionRecord | undefined,
  timeoutMs: number,
): Promise<Settled & { disable?: 'gone' | 'failing' }> {
  const now = requestNow();
  const at = formatKyiv(now);
  if (subscription?.root.status !== 'active')
    return { delivery: d, attempt: { at, error: 'subscription disabled', ms: 0 }, next: { state: 'failed' } };
  const post = () => {
    const timestamp = Math.floor(Date.now() / 1000);
    return postWebhook(
      subscription.root.url,
      {
        'webhook-id': d.webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(liveSecrets(subscription, now), d.webhookId, timestamp, d.body),
      },
      d.body,
      targetPolicy(),
      Math.min(timeoutMs, config().webhookTimeoutMs),
    );
  };
  const first = await post();
  // Waiting is not failing: a receiver that answered an error at once (not 410, not a Retry-After: it said when) is
  // tried again at once, once; one that did not answer in time is not (it would hold the batch twice as long).
  const again = quickRetry(first) ? await post() : undefined;
  const sent = again ?? first;
  const { ms, answer, status, error } = sent;
  const next = verdict(sent, d.attemptCount + 1, subscription.failingSince, now, Math.random());
  const made = {
    at,
    ms: again ? first.ms + again.ms : ms,
    ...(status !== undefined && { status }),
    ...(error && { error }),
    ...(answer && { answer }),
    ...(again && { quickRetryOf: first.status ?? first.error }),
  };
  if (next.state === 'failed') return { delivery: d, attempt: made, next: { state: 'failed' }, disable: next.disable };
  return { delivery: d, attempt: made, next };
}

/** Whether an attempt's outcome is worth one more try at once: an error answered quickly, no word on when to return. */
const quickRetry = (r: { status?: number; retryAfter?: string; error?: string }) =>
  r.status !== undefined
    ? (r.status < 200 || r.status >= 300) &&
      r.status !== 410 &&
      !((r.status === 429 || r.status === 503) && r.retryAfter)
    : r.error !== undefined && !/^no answer in|refused|cannot resolve|no address/.test(r.error);

/** Runs `work` on every item, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
