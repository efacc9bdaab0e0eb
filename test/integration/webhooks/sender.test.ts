import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_TARGETS, type TargetPolicy } from '../../../functions/domain/webhooks/address.ts';
import { postWebhook } from '../../../functions/runtime/webhook-sender.ts';
import { type Reply, startReceiver } from '../../support/webhooks.ts';

// AWS's rule (public addresses only), over http so that a local receiver could answer if it were reached.
const PUBLIC_ONLY: TargetPolicy = { schemes: ['http:'], allow: [] };
let reply: Reply = { status: 204 };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver(() => reply);
});
afterAll(() => receiver.close());
const port = () => new URL(receiver.url).port;

describe('the webhook sender', () => {
  it('resolves the host at the attempt and refuses it when any address is not allowed (a name is no way around)', async () => {
    const before = receiver.received.length;
    const refused = await postWebhook(`http://localhost:${port()}/hook`, {}, '{}', PUBLIC_ONLY, 1000);
    expect(refused.error).toMatch(/loopback address (127\.0\.0\.1|::1) refused/);
    expect(refused.status).toBeUndefined();
    expect(receiver.received.length).toBe(before);
    const sent = await postWebhook(
      `http://localhost:${port()}/hook`,
      { 'webhook-id': 'msg_x' },
      '{}',
      LOCAL_TARGETS,
      1000,
    );
    expect(sent.status).toBe(204);
    expect(receiver.received.length).toBe(before + 1);
  });

  it('follows no redirect and reads at most 1 KB of an answer', async () => {
    reply = { status: 302, headers: { location: `http://127.0.0.1:${port()}/elsewhere` } };
    const before = receiver.received.length;
    const redirected = await postWebhook(receiver.url, {}, '{}', LOCAL_TARGETS, 1000);
    expect(redirected.status).toBe(302);
    expect(receiver.received.length).toBe(before + 1);
    reply = { status: 500, body: 'y'.repeat(100_000) };
    const big = await postWebhook(receiver.url, {}, '{}', LOCAL_TARGETS, 1000);
    expect(big.status).toBe(500);
    expect(big.answer!.length).toBeLessThanOrEqual(1024);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    reply = 'hang';
    const hung = await postWebhook(receiver.url, {}, '{}', LOCAL_TARGETS, 300);
    expect(hung.error).toMatch(/no answer in 0.3 s/);
    expect(hung.ms).toBeGreaterThanOrEqual(290);
  });

  it('reads an answer that came in time when its own process was too busy to see it before the deadline', async () => {
    // A receiver in another process answers in 150 ms; this process is blocked past the 300 ms deadline meanwhile.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "require('node:http').createServer((q, s) => q.resume().on('end', () => setTimeout(() => s.writeHead(204).end(), 150))).listen(0, '127.0.0.1', function () { console.log(this.address().port) })",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const childPort = await new Promise<string>((ok) =>
        child.stdout!.once('data', (c: Buffer) => ok(String(c).trim())),
      );
      const sent = postWebhook(`http://127.0.0.1:${childPort}/hook`, {}, '{}', LOCAL_TARGETS, 300);
      await new Promise((r) => setTimeout(r, 50)); // the request is on its way
      // Busy (in the loop's check phase, so its timers run first when it comes back): the answer waits on the socket
      // while the deadline passes.
      await new Promise<void>((done) =>
        setImmediate(() => {
          const until = performance.now() + 1000;
          while (performance.now() < until);
          done();
        }),
      );
      expect((await sent).status).toBe(204);
    } finally {
      child.kill();
    }
  });

  it('refuses a scheme the policy does not allow without a request', async () => {
    expect(
      (await postWebhook(receiver.url, {}, '{}', { schemes: ['https:'], allow: ['loopback'] }, 1000)).error,
    ).toMatch(/scheme/);
  });
});
