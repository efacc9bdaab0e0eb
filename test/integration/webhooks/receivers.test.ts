import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../lib/local/dynamodb-local.ts';
import { client } from '../../support/http.ts';
import { createLot } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { useChangeStream } from '../../support/webhooks.ts';

const service = useService({ changeStream: true });
useChangeStream();
const api = client(() => service.url);
const BASE = '/api/0.1/subscriptions';
const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) p.kill('SIGTERM');
});

async function until(done: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A process of this test, its output kept. */
function run(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  return { child, output: () => output };
}

/** The receiver docs/api.md shows for a scheme: its one `js` block that reads the scheme's key. */
function docsReceiver(keyPrefix: 'whsec_' | 'whpk_'): string {
  const blocks = [...readFileSync('docs/api.md', 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const [block, ...more] = blocks.filter((b) => b.includes(`slice('${keyPrefix}'.length)`));
  expect(block && more.length === 0, `one receiver reading a ${keyPrefix} key in docs/api.md`).toBe(true);
  return block!;
}

const stateOf = async (s: { id: string; token: string }) =>
  ((await api.get(`${BASE}/${s.id}/deliveries`, { token: s.token })).body.data as any[]).map(
    (d) => `${d.state} ${d.attempts.at(-1)?.status}`,
  );

describe('webhook receivers as the docs show them', () => {
  it("docs/api.md's plain-Node receivers verify the service's v1 and v1a deliveries and refuse a forged one", async () => {
    const subscriptions = [];
    for (const scheme of ['v1', 'v1a'] as const) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/hook`;
      const res = await api.post(BASE, { url, events: ['lot.*'], ...(scheme === 'v1a' && { signature: scheme }) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const env: Record<string, string> =
        scheme === 'v1'
          ? { AGORA_WEBHOOK_SECRET: res.body.access.secret }
          : { AGORA_WEBHOOK_PUBLIC_KEY: res.body.data.publicKey };
      const code = docsReceiver(scheme === 'v1' ? 'whsec_' : 'whpk_');
      run(['--input-type=module', '-e', code], { ...env, PORT: String(port) });
      const forged = async () =>
        fetch(url, {
          method: 'POST',
          headers: {
            'webhook-id': 'msg_forged',
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
            'webhook-signature': `${scheme},${Buffer.alloc(64).toString('base64')}`,
          },
          body: '{}',
        }).then(
          (r) => r.status,
          () => 0,
        );
      await until(async () => (await forged()) !== 0, `the ${scheme} receiver listening`);
      expect(await forged()).toBe(400);
      subscriptions.push({ id: res.body.data.id as string, token: res.body.access.token as string });
    }
    await createLot(api);
    for (const s of subscriptions)
      await until(async () => (await stateOf(s)).join() === 'delivered 204', 'the change delivered, answered 204');
    for (const s of subscriptions) await api.del(`${BASE}/${s.id}`, { token: s.token });
  }, 120_000);

  it('`npm run webhooks -- listen --signature v1a` subscribes with Ed25519 and verifies each delivery by its public key', async () => {
    const listen = run(['--import', 'tsx', 'bin/webhooks.ts', 'listen', '--signature', 'v1a', '--events', 'lot.*'], {
      AGORA_URL: service.url,
    });
    await until(() => listen.output().includes('Listening on'), 'the listener subscribed', 90_000);
    expect(listen.output()).toMatch(/v1a, public key whpk_/);
    const lot = await createLot(api);
    await until(() => listen.output().includes(lot.id), 'the change printed');
    expect(listen.output()).toContain('signature ok');
    expect(listen.output()).not.toContain('SIGNATURE DOES NOT VERIFY');
    listen.child.kill('SIGTERM');
    await new Promise((r) => listen.child.once('exit', r));
  }, 180_000);
});
