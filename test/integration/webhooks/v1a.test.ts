import { createPublicKey, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { createLot, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { type Received, startReceiver, useChangeStream } from '../../support/webhooks.ts';

const service = useService({ changeStream: true });
const api = client(() => service.url);
const BASE = '/api/0.1/subscriptions';
const HOUR = 3_600_000;

useChangeStream();
const subscribed: { id: string; token: string }[] = [];
afterEach(async () => {
  await service.setClockOffset(0);
  for (const s of subscribed.splice(0)) await api.del(`${BASE}/${s.id}`, { token: s.token });
});

/** The receiver's check in plain Node, as docs/api.md shows it: no project code, only the `whpk_` key the API showed. */
function v1aVerifies(w: Received, whpk: string): boolean {
  const raw = Buffer.from(whpk.slice('whpk_'.length), 'base64');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  const message = Buffer.from(`${w.id}.${w.timestamp}.${w.text}`);
  return w.signature
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => verify(null, message, key, Buffer.from(s.slice(4), 'base64')));
}

async function until(done: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function subscribeV1a(url: string) {
  const res = await api.post(BASE, { url, events: ['lot.*'], signature: 'v1a' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const s = { id: res.body.data.id as string, token: res.body.access.token as string, res };
  subscribed.push(s);
  return s;
}

describe('v1a (Ed25519) webhook signatures', () => {
  it('shows a whpk_ public key, never the private key; a receiver verifies a delivered change and a replay with it', async () => {
    const receiver = await startReceiver();
    try {
      const sub = await subscribeV1a(receiver.url);
      const publicKey = sub.res.body.data.publicKey as string;
      expect(sub.res.body.data.signature).toBe('v1a');
      expect(Buffer.from(publicKey.slice('whpk_'.length), 'base64')).toHaveLength(32);
      expect(sub.res.body.access.secret).toBeUndefined();
      expect(JSON.stringify(sub.res.body)).not.toContain('whsk_');
      const read = await api.get(`${BASE}/${sub.id}`, { token: sub.token });
      expect(read.body.data).toEqual(sub.res.body.data);
      expect(JSON.stringify(read.body)).not.toContain('whsk_');

      const lot = await createLot(api);
      expect((await patchAs(api, lot, 'owner', { status: 'pending' })).status).toBe(200);
      await until(() => receiver.received.length >= 2, 'two deliveries');
      const [first, second] = receiver.received;
      for (const w of [first!, second!]) {
        expect(w.signature).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
        expect(v1aVerifies(w, publicKey)).toBe(true);
      }
      // A tampered body or another key does not verify.
      expect(v1aVerifies({ ...first!, text: `${first!.text} ` }, publicKey)).toBe(false);
      const other = await subscribeV1a(receiver.url);
      expect(v1aVerifies(first!, other.res.body.data.publicKey)).toBe(false);

      // A replay is signed again, at the wall clock of its sending (the service clock an hour ahead), with the same key.
      await service.setClockOffset(HOUR);
      const replay = await api.post(
        `${BASE}/${sub.id}/replay`,
        { after: first!.body.data.cursor },
        { token: sub.token },
      );
      expect(replay.status, JSON.stringify(replay.body)).toBe(200);
      await service.setClockOffset(HOUR + 60_000);
      // The retry sweep sends what a replay made due, run as the service runs it (again and again, not once): a
      // sender of that cursor still under way leaves it to the next run.
      await until(async () => {
        await service.bot('webhooks');
        return receiver.received.some((w, i) => i >= 2 && w.id === second!.id);
      }, 'the replay');
      const again = receiver.received.slice(2).find((w) => w.id === second!.id)!;
      expect(again.timestamp).toBeGreaterThanOrEqual(second!.timestamp);
      expect(Math.abs(again.timestamp * 1000 - again.arrivedAt)).toBeLessThan(60_000);
      if (again.timestamp !== second!.timestamp) expect(again.signature).not.toBe(second!.signature);
      expect(v1aVerifies(again, publicKey)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('rotates to a new key pair: both keys sign for a day, then only the new one', async () => {
    const receiver = await startReceiver();
    try {
      const sub = await subscribeV1a(receiver.url);
      const old = sub.res.body.data.publicKey as string;
      const rotated = await api.post(`${BASE}/${sub.id}/secret`, {}, { token: sub.token });
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
      const fresh = rotated.body.data.publicKey as string;
      expect(fresh).toMatch(/^whpk_/);
      expect(fresh).not.toBe(old);
      expect(JSON.stringify(rotated.body)).not.toContain('whsk_');
      expect((await api.get(`${BASE}/${sub.id}`, { token: sub.token })).body.data.publicKey).toBe(fresh);

      await api.post(`${BASE}/${sub.id}/ping`, {}, { token: sub.token });
      const [ping] = receiver.received;
      expect(ping!.signature.split(' ')).toHaveLength(2);
      expect(v1aVerifies(ping!, fresh) && v1aVerifies(ping!, old)).toBe(true);
      await service.setClockOffset(25 * HOUR);
      await api.post(`${BASE}/${sub.id}/ping`, {}, { token: sub.token });
      const later = receiver.received[1]!;
      expect(later.signature.split(' ')).toHaveLength(1);
      expect(v1aVerifies(later, fresh)).toBe(true);
      expect(v1aVerifies(later, old)).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('keeps v1 the default and refuses an unknown scheme', async () => {
    const v1 = await api.post(BASE, { url: 'http://127.0.0.1:9/hook', events: ['lot.*'] });
    expect(v1.status).toBe(201);
    subscribed.push({ id: v1.body.data.id, token: v1.body.access.token });
    expect(v1.body.access.secret).toMatch(/^whsec_/);
    expect(v1.body.data.publicKey).toBeUndefined();
    const bad = await api.post(BASE, { url: 'http://127.0.0.1:9/hook', events: ['lot.*'], signature: 'v2' });
    expect(bad.status).toBe(422);
    // The scheme is chosen at creation; a PATCH cannot switch it.
    const patched = await api.patch(
      `${BASE}/${v1.body.data.id}`,
      { signature: 'v1a' },
      { token: v1.body.access.token },
    );
    expect(patched.status).toBe(422);
  });
});
