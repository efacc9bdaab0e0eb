import { createHash, randomUUID } from 'node:crypto';
import type { JournalChange, JournalEntry } from '#domain/journal/journal.ts';
import type { JsonRecord } from '#domain/kernel/objects.ts';
import { formatKyiv, type Micros } from '#domain/kernel/time.ts';
import { AWS_TARGETS, LOCAL_TARGETS, type TargetPolicy } from '#domain/webhooks/address.ts';
import {
  type Answered,
  type Attempt,
  type Cursor,
  type CursorPort,
  inParallel,
  sendCursor,
} from '#domain/webhooks/cursor.ts';
import { eventBody, eventType, hears, matches, type ObjectChange, PING } from '#domain/webhooks/events.ts';
import { verdict } from '#domain/webhooks/schedule.ts';
import { signatureHeader } from '#domain/webhooks/signature.ts';
import { liveSecrets, type StoredSubscription } from '#domain/webhooks/subscription.ts';
import {
  abandonCursor,
  takeable,
  dueCursors,
  moveCursor,
  releaseCursor,
  restCursor,
  subscriptionCursors,
  takeCursor,
} from '#store/cursors.ts';
import { tableName } from '#store/client.ts';
import { appendedPast, laneEntries } from '#store/journal.ts';
import {
  activeSubscriptions,
  disableSubscription,
  getSubscriptions,
  type SubscriptionRecord,
} from '#store/subscription-repository.ts';
import { requestNow } from '#platform/clock.ts';
import { config } from '#platform/config.ts';
import { log, MetricUnit, publishMetrics } from './observability.ts';
import { TELEMETRY } from '#platform/telemetry.ts';
import { postWebhook } from './webhook-sender.ts';

/**
 * The delivery of webhooks, the same in AWS and locally: each subscription is a cursor over each lane of the journal
 * (domain/webhooks/cursor.ts). After an append, `acceptChanges` wakes the cursors of the subscriptions that hear of
 * its changes; a woken cursor's sender reads the lane after it and sends what its subscription hears, one object's
 * entries one after the other, all else at once, and moves the cursor over what was answered. A failure stops the
 * cursor there until its retry is due; the retry sweep (`sendDue`) finds it on the work index. The journal is the log
 * of what is owed: a failing receiver costs its own cursor and nothing per change.
 */

/** Where deliveries may go: public https addresses in AWS; the local runtime also reaches loopback over http. */
export const targetPolicy = (): TargetPolicy => (config().local ? LOCAL_TARGETS : AWS_TARGETS);

/** Cursors the sweep, or one fan-out, sends at once (a receiver's hang holds no other cursor). */
const PARALLEL_CURSORS = 100;
/**
 * A sender sends one cursor for this long at most, then lets it go due at once (the next fan-out or sweep goes on). A
 * fan-out's sender stops sooner: its batch's objects wait behind it (the queue hands an object's next change only
 * once the batch before it is done), and it would otherwise read on for as long as appends come.
 */
const SEND_BUDGET_MS = { sweep: 10_000, fanOut: 1_000 };
/** A lease outlasts a sender's budget and its last answer: a second sender takes it only after the first stopped. */
const LEASE_MARGIN: Micros = 20_000_000;

/** The `webhook-id` of a change for a subscription: the same for every retry and replay of it, and for a duplicate. */
const webhookIdOf = (subscriptionId: string, c: Pick<ObjectChange, 'kind' | 'id' | 'seq'>) =>
  `msg_${createHash('sha256').update(`${subscriptionId}|${c.kind}#${c.id}#${c.seq}`).digest('base64url').slice(0, 27)}`;

/** The cursor a client sees for an entry: the change feed's (`<lane>:<position>`), where a replay may start. */
const entryCursor = (e: Pick<JournalEntry, 'lane' | 'pos'>) => `${e.lane}:${e.pos}`;

/** The message of an entry: its thin body, the same bytes on every retry and replay. */
const messageOf = (e: JournalEntry) => JSON.stringify(eventBody(e.change, entryCursor(e)));

/** Whether a subscription hears of a change: its events, and a draft only its owner's. */
const heardBy = (s: { events: readonly string[]; owner?: string }, c: ObjectChange) =>
  matches(s.events, eventType(c)) && hears(s.owner, c);
const heardByRecord = (s: StoredSubscription, c: ObjectChange) => heardBy({ events: s.root.events, owner: s.owner }, c);

/** The senders of this process, by cursor: a second wake-up here tells the one under way (`more`), which reads on. */
const sending = new Set<string>();
/**
 * Cursors this process found failing (a take refused them: a retry waits, or is the sweep's): the next fan-out reads
 * them in bulk before it takes any (store/cursors.ts `takeable`), instead of a take each. Efficiency only: the read
 * comes after the append committed, so a cursor it leaves out is covered by its holder or its retry.
 */
const failingCursors = new Set<string>();
const wasFailing = (key: string) => failingCursors.has(key);
function markFailing(key: string) {
  if (failingCursors.size >= 100_000) failingCursors.clear(); // deleted subscriptions' keys: forgetting costs a take
  failingCursors.add(key);
}
/** Cursors told more was appended since their sender's last read, and the senders waiting to be told. */
const told = new Set<string>();
const waiting = new Map<string, () => void>();
/** How long a sender that caught up waits to be told of more before it lets go (efficiency only: its release's
 * head check is the safety); under load the next batch comes sooner, and one sender takes them all. */
const LINGER_MS = 100;

function tell(key: string) {
  told.add(key);
  waiting.get(key)?.();
}
function toldMore(key: string, appended: () => boolean): Promise<boolean> {
  // An append this process committed and has not yet fanned out counts too: its release would fail on the head.
  if (told.delete(key) || appended()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiting.delete(key);
      resolve(told.delete(key) || appended());
    };
    const timer = setTimeout(done, LINGER_MS);
    waiting.set(key, done);
  });
}

/** Subscriptions' records as read at a version of the active list (every subscription write moves it), per table. */
const records = new Map<string, { version: number; byId: Map<string, SubscriptionRecord> }>();
async function recordsAt(version: number, ids: string[]): Promise<Map<string, SubscriptionRecord>> {
  const table = tableName();
  const kept = records.get(table);
  const known = kept?.version === version ? kept : { version, byId: new Map<string, SubscriptionRecord>() };
  records.set(table, known);
  const missing = ids.filter((id) => !known.byId.has(id));
  if (missing.length) for (const [id, s] of await getSubscriptions(missing)) known.byId.set(id, s);
  return known.byId;
}

/**
 * After an append: the cursors of the subscriptions that hear of its changes are woken, each sent by one sender
 * (taken conditionally: one under way elsewhere reads on by itself; a failing one, waiting for its retry or not, is
 * left to the sweep, so a receiver that hangs holds the sweep and never the pipe).
 * Returns the deliveries made.
 */
export async function acceptChanges(changes: readonly JournalChange[]): Promise<number> {
  const lanes = new Map<string, JournalChange[]>();
  for (const c of changes) if (c.lane) lanes.set(c.lane, [...(lanes.get(c.lane) ?? []), c]);
  if (!lanes.size) return 0;
  const { list, version } = await activeSubscriptions();
  const heard = [...lanes].flatMap(([lane, cs]) =>
    list
      .filter((s) => cs.some((c) => heardBy(s, c)))
      .filter((s) => {
        const underWay = sending.has(`${s.id}|${lane}`);
        if (underWay) tell(`${s.id}|${lane}`);
        return !underWay;
      })
      .map((s) => ({ subscriptionId: s.id, lane })),
  );
  // Cursors this process last found failing are read first, in bulk, and taken only if they are free now: a failing
  // receiver costs a read per batch, not a take per cursor.
  const now = requestNow();
  const failing = new Set(heard.filter((w) => wasFailing(`${w.subscriptionId}|${w.lane}`)));
  const free = new Set(failing.size ? await takeable([...failing], { now, wallNow: Date.now() * 1000 }, false) : []);
  for (const w of free) failingCursors.delete(`${w.subscriptionId}|${w.lane}`);
  const woken = heard.filter((w) => !failing.has(w) || free.has(w));
  if (!woken.length) return 0;
  const subscriptions = await recordsAt(version, [...new Set(woken.map((w) => w.subscriptionId))]);
  let delivered = 0;
  await inParallel(woken, PARALLEL_CURSORS, async (w) => {
    const s = subscriptions.get(w.subscriptionId);
    if (s?.root.status !== 'active') return;
    // Awaited first: `delivered += await …` would add to the total as it was before the await (senders run at once).
    const sent = await send(w, s, false);
    delivered += sent.delivered;
  });
  return delivered;
}

/**
 * The retry sweep: the cursors due (a retry, a backlog left at a sender's budget, a sender that stopped, a replay, a
 * subscription enabled again) are sent from where they stand, at once; one of a disabled subscription is held (off
 * the index, where it stands) until it is enabled again.
 */
export async function sendDue(): Promise<{ due: number; delivered: number }> {
  const now = requestNow();
  const due = await dueCursors(now);
  const subscriptions = await getSubscriptions([...new Set(due.map((c) => c.subscriptionId))]);
  let delivered = 0;
  let failingSince = now;
  await inParallel(due, PARALLEL_CURSORS, async (c) => {
    const s = subscriptions.get(c.subscriptionId);
    if (s?.root.status !== 'active') return restCursor(c);
    const sent = await send(c, s, true);
    delivered += sent.delivered;
    failingSince = Math.min(failingSince, sent.failingSince ?? now);
  });
  // The longest a receiver it sent has been failing: the alarm's (WebhookFailingHours), before the 5-day disable.
  if (failingSince < now)
    publishMetrics(
      { bot: 'webhooks' },
      { [TELEMETRY.webhookFailingHours]: [(now - failingSince) / 3_600_000_000, MetricUnit.Count] },
    );
  return { due: due.length, delivered };
}

/**
 * One sender of one cursor (domain/webhooks/cursor.ts `sendCursor`), over the store, the lane and the receiver; one
 * per cursor in this process at a time. Returns the deliveries made, and since when it fails if it still does.
 */
async function send(
  which: Pick<Cursor, 'subscriptionId' | 'lane'>,
  s: SubscriptionRecord,
  retries: boolean,
): Promise<{ delivered: number; failingSince?: Micros }> {
  const key = `${which.subscriptionId}|${which.lane}`;
  if (sending.has(key)) return { delivered: 0 };
  let failingSince: Micros | undefined;
  sending.add(key);
  // A lease is on the wall clock (a sender's life, whatever the service clock says); retries are on the service clock.
  const budget = retries ? SEND_BUDGET_MS.sweep : SEND_BUDGET_MS.fanOut;
  const lease = () => Date.now() * 1000 + (budget + 2 * config().webhookTimeoutMs) * 1000 + LEASE_MARGIN;
  const port: CursorPort = {
    take: async (token) => {
      const times = { now: requestNow(), wallNow: Date.now() * 1000, until: lease() };
      const took = await takeCursor(which, token, times, retries);
      if ('taken' in took) return took.taken;
      if (took.failing) markFailing(key);
      return undefined;
    },
    read: async (after, limit, fresh) =>
      (await laneEntries(which.lane, { from: after, descending: false, limit, fresh })).map((entry) => ({
        entry,
        // An object's history taken over from its log was sent when it happened, before the journal: no news.
        heard: !entry.takenOver && heardByRecord(s, entry.change),
      })),
    // A first attempt waits 2 s at most (`webhookFirstAttemptMs`), a retry the full 15 s: one slow receiver holds
    // its own cursor only, and one that does not answer in time is tried again on the schedule.
    attempt: (e, c) =>
      attempt(
        s,
        webhookIdOf(s.root.id, e.change),
        messageOf(e),
        c.failures > 0 ? config().webhookTimeoutMs : config().webhookFirstAttemptMs,
        c,
      ),
    move: (next, read, token, then) => {
      failingSince = next.failingSince;
      if (then !== 'keep' && next.failures > 0) markFailing(key);
      return moveCursor(next, read, token, then === 'keep' ? { until: lease() } : then);
    },
    release: releaseCursor,
    disable: async (reason) => {
      log().warn('webhook subscription disabled', { subscription: s.root.id, reason });
      await disableSubscription(s.root.id, reason, formatKyiv(requestNow()));
    },
    abandon: (token) => abandonCursor(which, token, requestNow()),
    more: (at) => toldMore(key, () => appendedPast(which.lane, at)),
    now: requestNow,
  };
  told.delete(key);
  try {
    // The budget on the wall clock: the service clock may be moved (locally) while a sender waits.
    const started = performance.now();
    const delivered = await sendCursor(port, randomUUID(), () => performance.now() - started > budget);
    return { delivered, ...(failingSince !== undefined && { failingSince }) };
  } finally {
    sending.delete(key);
  }
}

/** A ping: a `webhook.ping` sent at once, beside whatever waits (it is no change: nothing waits behind it). */
export async function ping(subscription: StoredSubscription): Promise<JsonRecord> {
  const now = requestNow();
  const timestamp = new Date(now / 1000).toISOString();
  const id = `msg_${createHash('sha256').update(`${subscription.root.id}|ping|${timestamp}`).digest('base64url').slice(0, 27)}`;
  const body = JSON.stringify({ type: PING, timestamp, data: { id: subscription.root.id } });
  const { attempt: made, verdict: v } = await attempt(subscription, id, body, config().webhookTimeoutMs, {
    failures: 0,
  });
  return {
    id,
    type: PING,
    state: v.state === 'delivered' ? 'delivered' : 'failed',
    attempts: [made],
    body: JSON.parse(body),
  };
}

/**
 * One attempt of a message: signed with every live secret, sent, judged (schedule.ts) on the service clock by the
 * cursor's failures in a row. Its `webhook-timestamp` is the wall clock of sending, whatever the service clock says
 * (a local clock moved days ahead would have every receiver refuse the message as "too new").
 */
async function attempt(
  s: StoredSubscription,
  webhookId: string,
  body: string,
  timeoutMs: number,
  cursor: Pick<Cursor, 'failures' | 'failingSince'>,
): Promise<Answered> {
  const now = requestNow();
  const post = () => {
    const timestamp = Math.floor(Date.now() / 1000);
    return postWebhook(
      s.root.url,
      {
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(liveSecrets(s, now), webhookId, timestamp, body),
      },
      body,
      targetPolicy(),
      Math.min(timeoutMs, config().webhookTimeoutMs),
    );
  };
  const first = await post();
  // Waiting is not failing: a receiver that answered an error at once (not 410, not a Retry-After: it said when) is
  // tried again at once, once; one that did not answer in time is not (it would hold its cursor twice as long).
  const again = quickRetry(first) ? await post() : undefined;
  const sent = again ?? first;
  const made: Attempt = {
    at: formatKyiv(now),
    ms: again ? first.ms + sent.ms : sent.ms,
    ...(sent.status !== undefined && { status: sent.status }),
    ...(sent.error && { error: sent.error }),
    ...(sent.answer && { answer: sent.answer }),
    ...(again && { quickRetryOf: first.status ?? first.error }),
  };
  return { attempt: made, verdict: verdict(sent, cursor.failures + 1, cursor.failingSince, now, Math.random()) };
}

/** Whether an attempt's outcome is worth one more try at once: an error answered quickly, no word on when to return. */
const quickRetry = (r: { status?: number; retryAfter?: string; error?: string }) =>
  r.status !== undefined
    ? (r.status < 200 || r.status >= 300) &&
      r.status !== 410 &&
      !((r.status === 429 || r.status === 503) && r.retryAfter)
    : r.error !== undefined && !/^no answer in|refused|cannot resolve|no address/.test(r.error);

/**
 * A subscription's deliveries as its owner sees them: per lane, the newest entries it heard up to its cursor
 * (delivered) and those after (pending; the one it waits on with its attempts and next retry), newest first.
 */
export async function deliveries(s: StoredSubscription, limit: number): Promise<JsonRecord[]> {
  const cursors = await subscriptionCursors(s.root.id);
  const listed = await Promise.all(
    cursors.map(async (c) => {
      const [before, after] = await Promise.all([
        c.at > (c.from ?? 0) ? laneEntries(c.lane, { from: c.at, descending: true, limit }) : [],
        laneEntries(c.lane, { from: c.at, descending: false, limit, fresh: true }),
      ]);
      const done = new Set(c.done);
      return [...before.filter((e) => e.pos > (c.from ?? 0)), ...after]
        .filter((e) => !e.takenOver && heardByRecord(s, e.change))
        .map((e) => ({ stamp: e.stamp, view: deliveryView(s, c, e, e.pos <= c.at || done.has(e.pos)) }));
    }),
  );
  return listed
    .flat()
    .sort((a, b) => b.stamp - a.stamp)
    .slice(0, limit)
    .map((d) => d.view);
}

function deliveryView(s: StoredSubscription, c: Cursor, e: JournalEntry, delivered: boolean): JsonRecord {
  const waiting = c.waitingOn?.pos === e.pos ? c.waitingOn : undefined;
  const attempts = waiting?.attempts ?? c.recent?.filter((r) => r.pos === e.pos).map((r) => r.attempt) ?? [];
  return {
    id: webhookIdOf(s.root.id, e.change),
    type: eventType(e.change),
    cursor: entryCursor(e),
    state: delivered ? 'delivered' : 'pending',
    // In the zone of every other date the API answers (the attempts' `at` too): Kyiv's offset.
    ...(!delivered && c.due !== undefined && waiting && { nextAttempt: formatKyiv(c.due) }),
    // The attempts it keeps: all of the one it waits on (the newest 20), the last of those it sent lately.
    attemptCount: attempts.length,
    attempts,
    body: JSON.parse(messageOf(e)),
  };
}
