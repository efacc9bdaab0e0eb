import { spawn } from 'node:child_process';
import { type AddressInfo, createServer, type Socket } from 'node:net';
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
  it('sends again on a new connection a request written into a kept-alive socket its receiver had closed', async () => {
    // A receiver that answers the first request on a connection (keep-alive) and closes the connection unanswered at
    // the next one, as a server does when its idle timeout and the client's reuse cross.
    const requests: { connection: number; id: string }[] = [];
    let connections = 0;
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      const connection = ++connections;
      let served = 0;
      socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        if (!text.startsWith('POST')) return;
        requests.push({ connection, id: /webhook-id: (\S+)/i.exec(text)?.[1] ?? '' });
        if (served++ === 0) socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
        else socket.destroy();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const first = await postWebhook(url, { 'webhook-id': 'msg_1' }, '{}', LOCAL_TARGETS, 2000);
      expect(first.status).toBe(204);
      const second = await postWebhook(url, { 'webhook-id': 'msg_2' }, '{}', LOCAL_TARGETS, 2000);
      // Sent once into the closed socket, then once more on a new connection: answered, one attempt.
      expect(second).toMatchObject({ status: 204 });
      expect(second.error).toBeUndefined();
      expect(requests).toEqual([
        { connection: 1, id: 'msg_1' },
        { connection: 1, id: 'msg_2' },
        { connection: 2, id: 'msg_2' },
      ]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    }
  });

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
