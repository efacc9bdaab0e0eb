import { describe, expect, it, onTestFinished } from 'vitest';
import { activeSubscriptions } from '../../../functions/store/subscription-repository.ts';
import { setFaults } from '../../support/faults.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);
const BASE = '/api/0.1/subscriptions';
const aSubscription = (overrides: Record<string, unknown> = {}) => ({
  url: 'http://127.0.0.1:9/hook',
  events: ['lot.*', 'auction.updated'],
  description: 'my platform',
  ...overrides,
});

async function subscribe(overrides: Record<string, unknown> = {}, as = 'broker') {
  const res = await api.post(BASE, aSubscription(overrides), { as });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id as string, token: res.body.access.token as string, res };
}

describe('webhook subscriptions', () => {
  it('creates a subscription: its token and a whsec_ secret answered once, never shown again', async () => {
    const { id, token, res } = await subscribe();
    expect(res.headers.get('location')).toMatch(new RegExp(`${BASE}/${id}$`));
    expect(res.body.data).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['lot.*', 'auction.updated'],
      status: 'active',
    });
    expect(Buffer.from(res.body.access.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const read = await api.get(`${BASE}/${id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(res.body.data);
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
  });

  it('lets its owner change url, events, description and status; an admin may too', async () => {
    const { id, token } = await subscribe();
    const res = await api.patch(`${BASE}/${id}`, { events: ['asset.created'], status: 'disabled' }, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ events: ['asset.created'], status: 'disabled' });
    const admin = await api.patch(`${BASE}/${id}`, { status: 'active' }, { as: 'admin' });
    expect(admin.body.data.status).toBe('active');
  });

  it('refuses bad bodies with a 422 and changes nothing', async () => {
    const { id, token } = await subscribe();
    const before = (await api.get(`${BASE}/${id}`, { token })).body.data;
    const bad: [string, Record<string, unknown>, string][] = [
      ['an unknown event', { events: ['lot.deleted'] }, 'events'],
      ['a URL that is not http(s)', { url: 'ftp://example.com/hook' }, 'url'],
      ['a URL that is no URL', { url: 'not a url' }, 'url'],
      ['a rogue field', { secret: 'mine' }, 'secret'],
      ['a nested rogue field', { events: [{ name: 'lot.*' }] }, 'events'],
      ['a private address', { url: 'http://10.1.2.3/hook' }, 'url'],
      ['the metadata service', { url: 'http://169.254.169.254/latest/meta-data' }, 'url'],
      ["AWS's IPv6 metadata service (unique-local)", { url: 'http://[fd00:ec2::254]/' }, 'url'],
      ['an IPv4-mapped private address', { url: 'http://[::ffff:192.168.1.1]/' }, 'url'],
      ['credentials in the URL', { url: 'http://user:pw@127.0.0.1/' }, 'url'],
    ];
    for (const [what, data, field] of bad) {
      const created = await api.post(BASE, aSubscription(data));
      expect(created.status, `create with ${what}`).toBe(422);
      expect(
        created.body.errors.map((e: { name: string }) => e.name),
        what,
      ).toContain(field);
      const patched = await api.patch(`${BASE}/${id}`, data, { token });
      expect(patched.status, `patch with ${what}`).toBe(422);
    }
    expect((await api.get(`${BASE}/${id}`, { token })).body.data).toEqual(before);
  });

  it("keeps a key's subscriptions to itself: another key, a missing token or another role get 403", async () => {
    const { id, token } = await subscribe();
    expect((await api.get(`${BASE}/${id}`, { as: 'broker2', token })).status).toBe(403);
    expect((await api.get(`${BASE}/${id}`)).status).toBe(403);
    expect((await api.patch(`${BASE}/${id}`, { status: 'disabled' }, { as: 'broker2', token })).status).toBe(403);
    expect((await api.del(`${BASE}/${id}`, { as: 'broker2', token })).status).toBe(403);
    expect((await api.post(`${BASE}/${id}/secret`, {}, { as: 'broker2', token })).status).toBe(403);
    expect((await api.get(`${BASE}/${id}/deliveries`, { as: 'broker2', token })).status).toBe(403);
    expect((await api.post(BASE, aSubscription(), { as: 'concierge' })).status).toBe(403);
    expect((await api.get(`${BASE}/${id}`, { token })).body.data.status).toBe('active');
  });

  it('rotates the secret and pings with no body, an empty one or {"data": {}}; a body that is not JSON is still 415/422', async () => {
    const { id, token } = await subscribe({ url: 'http://127.0.0.1:9/hook' });
    const secrets = new Set<string>();
    for (const path of ['secret', 'ping'])
      for (const [what, options] of [
        ['no body', {}],
        ['an empty JSON body', { raw: '' }],
        ['an empty body without Content-Type', { raw: '', headers: { 'content-type': '' } }],
        ['{"data": {}}', { raw: '{"data":{}}' }],
      ] as const) {
        const res = await api.call('POST', `${BASE}/${id}/${path}`, undefined, { as: 'broker', token, ...options });
        expect(res.status, `${path} with ${what}: ${JSON.stringify(res.body)}`).toBe(200);
        if (path === 'secret') secrets.add(res.body.data.secret);
        else expect(res.body.data.type).toBe('webhook.ping');
      }
    expect(secrets.size).toBe(4);
    const form = await api.call('POST', `${BASE}/${id}/secret`, undefined, {
      as: 'broker',
      token,
      raw: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect((await api.call('POST', `${BASE}/${id}/ping`, undefined, { as: 'broker', token, raw: 'nope' })).status).toBe(
      422,
    );
  });

  it('deletes a subscription (owner): then it is gone', async () => {
    const { id, token } = await subscribe();
    expect((await api.del(`${BASE}/${id}`, { token })).status).toBe(200);
    expect((await api.get(`${BASE}/${id}`, { token })).status).toBe(404);
  });

  it("keeps every write at once in the fan-out's list: 20 creates, then patches and deletes, all at once", async () => {
    // Every subscription write updates the list's version, one item: DynamoDB cancels a transaction that meets another
    // in it (DynamoDB Local never does: injected here, on a third of the transactions), and it is sent again.
    await setFaults(service.url, { share: 0.33, seed: 52, kinds: ['conflict'] });
    onTestFinished(() => setFaults(service.url, {}));
    const made = await Promise.all(Array.from({ length: 20 }, () => subscribe()));
    const listed = async () => new Set((await activeSubscriptions()).list.map((s) => s.id));
    const afterCreates = await listed();
    for (const { id } of made) expect(afterCreates.has(id)).toBe(true);
    const [disabled, deleted, changed] = [made.slice(0, 5), made.slice(5, 10), made.slice(10)];
    const answers = await Promise.all([
      ...disabled.map(({ id, token }) => api.patch(`${BASE}/${id}`, { status: 'disabled' }, { token })),
      ...deleted.map(({ id, token }) => api.del(`${BASE}/${id}`, { token })),
      ...changed.map(({ id, token }) => api.patch(`${BASE}/${id}`, { events: ['asset.*'] }, { token })),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const { list } = await activeSubscriptions();
    const ids = new Set(list.map((s) => s.id));
    for (const { id } of [...disabled, ...deleted]) expect(ids.has(id)).toBe(false);
    for (const { id } of changed) expect(list.find((s) => s.id === id)?.events).toEqual(['asset.*']);
    const { stats } = (await (await fetch(`${service.url}/_local/faults`)).json()).data;
    expect(stats.injected.conflict).toBeGreaterThan(5);
  });

  it('bounds the subscriptions of one key', async () => {
    // broker2's own count: the other tests subscribe as broker.
    let status = 201;
    let made = 0;
    for (; status === 201 && made <= 100; made++)
      status = (await api.post(BASE, aSubscription(), { as: 'broker2' })).status;
    expect(made - 1).toBe(100);
    expect(status).toBe(403);
  });
});
