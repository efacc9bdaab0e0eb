import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeStream, startChangeStream } from '../../../lib/local/change-stream.ts';
import { resetConfig } from '../../../functions/platform/config.ts';
import { documentClient, tableName } from '../../../functions/store/client.ts';
import { keys } from '../../../functions/store/table-design.ts';
import { clockOf, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { createLot, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { arrivalOrder, type Received, type Reply, startReceiver, verifies } from '../../support/webhooks.ts';

// A receiver that hangs is given up on after 1 s here (15 s in the service).
process.env.AGORA_WEBHOOK_TIMEOUT_MS = '1000';
resetConfig();
const service = useService({ changeStream: true });
const api = client(() => service.url);
const BASE = '/api/0.1/subscriptions';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let stream: ChangeStream;
beforeAll(async () => {
  stream = await startChangeStream({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    table: process.env.TABLE_NAME!,
    intervalMs: 50,
  });
});
afterAll(async () => {
  await stream?.stop();
  delete process.env.AGORA_WEBHOOK_TIMEOUT_MS;
});

/** The service clock moved to `ms` past real time, then the retry sweep run once. */
let offset = 0;
async function at(ms: number) {
  offset = ms;
  await service.setClockOffset(ms);
  return service.bot('webhooks');
}

/** This test's subscriptions, deleted after it (each test's receiver hears only its own changes). */
const subscribed: { id: string; token: string }[] = [];
afterEach(async () => {
  for (const s of subscribed.splice(0)) await api.del(`${BASE}/${s.id}`, { token: s.token });
});

async function subscribe(url: string, events = ['lot.*']) {
  const res = await api.post(BASE, { url, events });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const s = { id: res.body.data.id as string, token: res.body.access.token as string, secret: res.body.access.secret };
  subscribed.push(s);
  return s;
}

const deliveries = async (s: { id: string; token: string }) =>
  (await api.get(`${BASE}/${s.id}/deliveries`, { token: s.token })).body.data as any[];

/** Waits (real time, the change stream's pace) until `done` holds. */
async function until(done: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Each lot created (seq 1) and sent for verification... made pending (seq 2): the changes a `lot.*` subscriber gets. */
async function changeLots(n: number) {
  const changes: string[] = [];
  for (let i = 0; i < n; i++) {
    const lot = await createLot(api);
    expect((await patchAs(api, lot, 'owner', { status: 'pending' })).status).toBe(200);
    changes.push(`${lot.id}#1`, `${lot.id}#2`);
  }
  return changes;
}
/** Waits until `n` of the subscription's deliveries were attempted once at least (their first attempt recorded). */
const firstAttempts = (s: { id: string; token: string }, n: number) =>
  until(async () => (await deliveries(s)).filter((d) => d.attemptCount >= 1).length >= n, `${n} first attempts`);
const changeOf = (w: Received) => `${w.body.data.id}#${w.body.data.seq}`;
/** A stable 30 % of the messages, by their id. */
const unlucky = (id: string) => createHash('sha256').update(id).digest()[0]! % 10 < 3;

describe('webhook deliveries', () => {
  it('delivers every change, signed and in order per object, through a receiver that fails 30 % of first attempts and hangs on some', async () => {
    // Webhook ids are random: the 500s fall on a stable 30 % of them, the hangs on every third lot's second change
    // (never by chance, so some always hang).
    let seconds = 0;
    const reply = (w: Received, seen: number): Reply =>
      seen > 1
        ? { status: 200 }
        : w.body.data.seq === 2 && seconds++ % 3 === 0
          ? 'hang'
          : unlucky(w.id)
            ? { status: 500, body: 'x'.repeat(5000) }
            : { status: 204 };
    const receiver = await startReceiver(reply);
    try {
      const sub = await subscribe(receiver.url);
      const changes = await changeLots(10);
      await until(async () => (await deliveries(sub)).length >= changes.length, `${changes.length} deliveries`);
      await stream.drained();
      // The first failure stopped the subscription's cursor: what came after waits behind it in the journal, unsent.
      const waiting = (await deliveries(sub)).filter((d) => d.state === 'pending');
      expect(waiting.length).toBeGreaterThan(0);
      // The sweep sends from the cursor as the clock moves: a failure waits for the schedule's next try (1 s ±20 %).
      for (let round = 1; round <= 40; round++) {
        if ((await deliveries(sub)).every((d) => d.state === 'delivered')) break;
        await at(round * 7_000);
      }
      const all = await deliveries(sub);
      expect(all.filter((d) => d.state !== 'delivered')).toEqual([]);
      const attempts = all.flatMap((d) => d.attempts);
      // The last attempts are listed (answers read up to 1 KB); an error answered at once was tried again at once
      // (waiting is not failing): the receiver got those twice.
      expect(attempts.length).toBeGreaterThan(0);
      expect(attempts.every((a) => (a.answer ?? '').length <= 1024)).toBe(true);
      const came = receiver.received.reduce((m, w) => m.set(w.id, (m.get(w.id) ?? 0) + 1), new Map<string, number>());
      expect([...came.values()].some((n) => n >= 2)).toBe(true);
      const got = new Set(receiver.received.map(changeOf));
      expect([...got].sort()).toEqual([...changes].sort());
      // Retries included, each object's changes came in seq order (an attempt again repeats its seq).
      for (const id of new Set(receiver.received.map((w) => w.body.data.id))) {
        const seqs = receiver.received.filter((w) => w.body.data.id === id).map((w) => w.body.data.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      }
      // Every message is signed with the subscription's secret, the same id and body on each attempt.
      for (const w of receiver.received) {
        expect(verifies(w, sub.secret)).toBe(true);
        expect(verifies(w, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toBe(false);
        expect(w.body.type).toBe(w.body.data.seq === 1 ? 'lot.created' : 'lot.updated');
        expect(Object.keys(w.body).sort()).toEqual(['data', 'timestamp', 'type']);
        expect(Object.keys(w.body.data).sort()).toEqual(['cursor', 'dateModified', 'hash', 'id', 'seq', 'status']);
      }
      for (const id of new Set(receiver.received.map((w) => w.id)))
        expect(new Set(receiver.received.filter((w) => w.id === id).map((w) => w.text)).size).toBe(1);
    } finally {
      await at(0);
      await receiver.close();
    }
  }, 120_000);

  it('sends one event per revision of the change log, with its seq, and none for a write that changes nothing public', async () => {
    const receiver = await startReceiver();
    try {
      await subscribe(receiver.url, ['auction.*']);
      const a = await tenderingInsider(api);
      // Sealed bids: the auction's public view does not change, so no revision and no event.
      await insiderBid(api, a.id, 'broker2');
      await insiderBid(api, a.id, 'broker');
      const clock = clockOf(service);
      await clock.passTo(a.auction.enquiryPeriod.endDate);
      await service.bot('chronograph');
      const { auctionPeriod } = (await api.get(`${INSIDER}/${a.id}`)).body.data;
      await clock.passTo(new Date(Date.parse(auctionPeriod.startDate) - 60_000).toISOString());
      // The room bot plans the room and marks it on the auction: a root write, nothing public.
      await service.bot('room');
      const { Item: root } = await documentClient().send(
        new GetCommand({ TableName: tableName(), Key: keys.root('AUCTION', a.id), ConsistentRead: true }),
      );
      expect(root!.internal.room).toBe('planned');
      const revisions = (await api.get(`${INSIDER}/${a.id}/revisions?limit=100`)).body.data as any[];
      expect(revisions.length).toBeGreaterThanOrEqual(2);
      expect(root!.rev).toBeGreaterThan(revisions.length);
      await stream.drained();
      const ofAuction = () => receiver.received.filter((w) => w.body.data.id === a.id);
      await until(() => ofAuction().length >= revisions.length, `${revisions.length} events`);
      await stream.drained();
      // Exactly the revisions: each with its seq (created: 1) and date, as GET …/revisions serves them.
      // Each with its revision's hash: the head of the log after it, an anchor the platform may keep.
      expect(
        ofAuction().map((w) => [w.body.type, w.body.data.seq, w.body.data.dateModified, w.body.data.hash]),
      ).toEqual(revisions.map((r, i) => [i === 0 ? 'auction.created' : 'auction.updated', i + 1, r.date, r.hash]));
    } finally {
      await at(0);
      await receiver.close();
    }
  });

  it('follows the schedule as the clock moves, honours Retry-After, and a 410 disables the subscription', async () => {
    let mode: 'fail' | 'busy' | 'gone' = 'fail';
    const receiver = await startReceiver(() =>
      mode === 'fail'
        ? { status: 500 }
        : mode === 'busy'
          ? { status: 429, headers: { 'retry-after': '600' } }
          : { status: 410 },
    );
    try {
      const sub = await subscribe(receiver.url);
      // One change (a lot's create): no later change's fan-out comes to try the cursor meanwhile.
      await createLot(api);
      await firstAttempts(sub, 1);
      await stream.drained();
      const sent = () => receiver.received.length;
      // The create failed (500, and its quick retry: 500 again): the cursor waits before it.
      expect(sent()).toBe(2);
      expect((await deliveries(sub)).map((d) => d.attemptCount)).toEqual([1]);
      // The cursor is tried again 1 s (±20 %) after the failure, then 5 s (±20 %) after that: one probe each time.
      const waitOf = async (n: number) => {
        const [d] = (await deliveries(sub)).filter((x) => x.attemptCount === n);
        return Date.parse(d.nextAttempt) - Date.parse(d.attempts.at(-1).at);
      };
      expect(await waitOf(1)).toBeGreaterThanOrEqual(800);
      expect(await waitOf(1)).toBeLessThanOrEqual(1_200);
      expect((await at(3_500)).due).toBe(1);
      expect(sent()).toBe(4);
      expect(await waitOf(2)).toBeGreaterThanOrEqual(4_000);
      expect(await waitOf(2)).toBeLessThanOrEqual(6_000);
      mode = 'busy';
      expect((await at(3_500 + 6_500)).due).toBe(1);
      expect(sent()).toBe(5); // a 429 that says when to return is not tried again at once
      // 429 with Retry-After: 600 s, not the schedule's 15 s.
      const next = (await deliveries(sub)).find((d) => d.attemptCount === 3)!;
      expect(Date.parse(next.nextAttempt) - Date.now() - offset).toBeGreaterThan(590_000);
      expect(Date.parse(next.nextAttempt) - Date.now() - offset).toBeLessThan(610_000);
      // One zone in a delivery's record: its attempts' times and its next attempt both in Kyiv's offset.
      const zone = (t: string) => t.slice(-6);
      expect(new Set([zone(next.nextAttempt), ...next.attempts.map((x: { at: string }) => zone(x.at))]).size).toBe(1);

      mode = 'gone';
      expect((await at(10_000 + 11 * MINUTE)).due).toBe(1);
      // Signed with the wall clock of sending, though the service clock runs 11 minutes ahead: receivers check it
      // against their own clock (Standard Webhooks refuses one more than 5 minutes off).
      expect(offset).toBeGreaterThan(5 * MINUTE);
      expect(receiver.received.length).toBe(6);
      for (const w of receiver.received) expect(Math.abs(w.timestamp * 1000 - w.arrivedAt)).toBeLessThan(60_000);
      const read = await api.get(`${BASE}/${sub.id}`, { token: sub.token });
      expect(read.body.data).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
      // Disabled: its cursor stays where it stopped (enabled again, it would resume there), off the sweep's index;
      // later changes are not sent.
      expect((await at(10_000 + 11 * MINUTE + 1_000)).due).toBe(1);
      expect((await deliveries(sub)).map((d) => [d.state, d.attempts.at(-1)?.status])).toEqual([['pending', 410]]);
      expect((await at(10_000 + 12 * MINUTE)).due).toBe(0);
      await changeLots(1);
      await stream.drained();
      expect(sent()).toBe(6);
    } finally {
      await at(0);
      await receiver.close();
    }
  });

  it('keeps what waits when its owner disables it, and sends it all, in order, once enabled again', async () => {
    let failing = true;
    const receiver = await startReceiver(() => ({ status: failing ? 500 : 204 }));
    try {
      const sub = await subscribe(receiver.url);
      const changes = await changeLots(3);
      await firstAttempts(sub, 1);
      await until(async () => (await deliveries(sub)).length >= changes.length, `${changes.length} deliveries`);
      await stream.drained();
      // Disabled for maintenance while its events wait: the sweep, however late, sends none of them.
      const disabled = await api.patch(`${BASE}/${sub.id}`, { status: 'disabled' }, { token: sub.token });
      expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
      const sent = receiver.received.length;
      for (const minutes of [1, 10, 60]) await at(minutes * MINUTE);
      expect(receiver.received.length).toBe(sent);
      expect((await deliveries(sub)).every((d) => d.state === 'pending')).toBe(true);
      // Enabled again, its receiver back: everything made before the disable goes out at once, in order.
      failing = false;
      expect((await api.patch(`${BASE}/${sub.id}`, { status: 'active' }, { token: sub.token })).status).toBe(200);
      await at(61 * MINUTE);
      expect((await deliveries(sub)).map((d) => d.state)).toEqual(changes.map(() => 'delivered'));
      const accepted = receiver.received.slice(sent).map(changeOf);
      expect(accepted.sort()).toEqual([...changes].sort());
      for (const [, seqs] of arrivalOrder(receiver.received)) expect(seqs).toEqual([1, 2]);
    } finally {
      await at(0);
      await receiver.close();
    }
  });

  it('disables a subscription failing for 5 days; enabled again it misses nothing, and a replay resends exactly what followed a cursor', async () => {
    let failing = true;
    const receiver = await startReceiver(() => ({ status: failing ? 503 : 200 }));
    try {
      const sub = await subscribe(receiver.url);
      const changes = await changeLots(3);
      await firstAttempts(sub, 1);
      await until(async () => (await deliveries(sub)).length >= 6, '6 deliveries');
      for (let h = 1; h <= 6 * 24; h += 6) await at(h * HOUR);
      const read = await api.get(`${BASE}/${sub.id}`, { token: sub.token });
      expect(read.body.data).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
      // Its cursor stopped at the oldest, the circuit's probe, tried on the schedule for 5 days; the rest wait behind.
      const listed = await deliveries(sub);
      expect(listed).toHaveLength(6);
      expect(listed.map((d) => [d.state, d.attempts.length > 5])).toEqual([
        ...Array.from({ length: 5 }, () => ['pending', false]),
        ['pending', true],
      ]);
      // The receiver is back and the subscription enabled: everything it missed goes out, in order.
      failing = false;
      await api.patch(`${BASE}/${sub.id}`, { status: 'active' }, { token: sub.token });
      await at(6 * 24 * HOUR + MINUTE);
      expect((await deliveries(sub)).map((d) => d.state)).toEqual(changes.map(() => 'delivered'));
      for (const [, seqs] of arrivalOrder(receiver.received)) expect(seqs.at(-1)).toBe(2);
      // A replay after the second change moves the cursor back: the 4 that followed go out again, same ids and bytes.
      const inOrder = [...(await deliveries(sub))].reverse();
      const before = receiver.received.length;
      const replay = await api.post(`${BASE}/${sub.id}/replay`, { after: inOrder[1].cursor }, { token: sub.token });
      expect(replay.status, JSON.stringify(replay.body)).toBe(200);
      expect(replay.body.data).toEqual({ after: inOrder[1].cursor, rewound: 4 });
      await at(6 * 24 * HOUR + 2 * MINUTE);
      // Different objects' events have no order between them: the same ids and bytes, one object's in seq order.
      const resent = receiver.received.slice(before);
      expect(resent.map((w) => w.text).sort()).toEqual(
        inOrder
          .slice(2)
          .map((d) => JSON.stringify(d.body))
          .sort(),
      );
      expect(resent.map((w) => w.id).sort()).toEqual(
        inOrder
          .slice(2)
          .map((d) => d.id)
          .sort(),
      );
      for (const [, seqs] of arrivalOrder(resent)) expect(seqs).toEqual([...seqs].sort());
      expect(resent.every((w) => verifies(w, sub.secret))).toBe(true);
      // A cursor the service did not give, or one ahead of what was sent, is refused.
      const bad = await api.post(`${BASE}/${sub.id}/replay`, { after: 'bm90IGEgY3Vyc29y' }, { token: sub.token });
      expect(bad.status).toBe(422);
      const ahead = await api.post(`${BASE}/${sub.id}/replay`, { after: 'lots:999999' }, { token: sub.token });
      expect(ahead.status).toBe(422);
    } finally {
      await at(0);
      await receiver.close();
    }
  });

  it('signs with both the old and the new secret for a day after a rotation; pings on demand', async () => {
    const receiver = await startReceiver();
    try {
      const sub = await subscribe(receiver.url);
      const rotated = await api.post(`${BASE}/${sub.id}/secret`, {}, { token: sub.token });
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.data.secret as string;
      expect(fresh).not.toBe(sub.secret);
      const pinged = await api.post(`${BASE}/${sub.id}/ping`, {}, { token: sub.token });
      expect(pinged.body.data).toMatchObject({ type: 'webhook.ping', state: 'delivered' });
      const [ping] = receiver.received;
      expect(ping.signature.split(' ')).toHaveLength(2);
      expect(verifies(ping, fresh) && verifies(ping, sub.secret)).toBe(true);
      await service.setClockOffset(25 * HOUR);
      await api.post(`${BASE}/${sub.id}/ping`, {}, { token: sub.token });
      const later = receiver.received[1]!;
      expect(later.signature.split(' ')).toHaveLength(1);
      expect(verifies(later, fresh)).toBe(true);
      expect(verifies(later, sub.secret)).toBe(false);
    } finally {
      await at(0);
      await receiver.close();
    }
  });
});
