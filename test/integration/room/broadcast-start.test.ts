import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENTS_SUBPROTOCOL } from '../../../client/room-client.ts';
import { freePort } from '../../../lib/local/dynamodb-local.ts';
import { LOCAL_EVENTS_API_KEY } from '../../../lib/local/event-api.ts';

/**
 * `npm start` names the observers' broadcast as AWS serves it (TLS, `wss://…/event/realtime`) in its banner and on the
 * room page, and a client that trusts the certificate the banner names reaches it with AppSync Events' documented
 * handshake. The real `npm start`, in a folder of its own (its .agora is where the certificate is kept).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'agora-broadcast-'));
let npm: ChildProcess | undefined;

afterAll(async () => {
  if (npm?.pid && npm.exitCode === null) {
    const exited = new Promise((r) => npm!.once('exit', r));
    process.kill(-npm.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start: the broadcast over TLS', { timeout: 120_000 }, () => {
  it('names wss://…/event/realtime and its certificate in the banner and on the page; the documented handshake reaches it', async () => {
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'bin'), join(dir, 'bin'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      AGORA_IN_MEMORY: '1',
      BOTS_INTERVAL_MS: '60000',
    };
    delete env.DYNAMODB_ENDPOINT;
    delete env.TABLE_NAME;
    delete env.TLS_PORT;
    npm = spawn('npm', ['start'], { cwd: dir, detached: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const line = await new Promise<RegExpExecArray>((ready, failed) => {
      const timer = setTimeout(() => failed(new Error(`no banner within 90 s:\n${output}`)), 90_000);
      const watch = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /^Observers' broadcast .*$/m.exec(output);
        if (found && output.includes('Agora is serving on')) {
          clearTimeout(timer);
          ready(found);
        }
      };
      npm!.stdout?.on('data', watch);
      npm!.stderr?.on('data', watch);
      npm!.once('exit', (code) => failed(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    const [, url, certificate] = /: (wss:\/\/\S+) \(TLS, certificate (\S+);/.exec(line[0]) ?? [];
    // The port after PORT (free here, or the banner names another), the certificate kept under .agora.
    expect(url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/event\/realtime$/);
    expect(certificate).toBe('.agora/tls/cert.pem');
    expect(line[0]).toContain(`API key ${LOCAL_EVENTS_API_KEY}`);
    expect(line[0]).toContain(`without TLS ws://127.0.0.1:${port}/event/realtime`);

    // The room page names it too.
    const page = await (await fetch(`http://127.0.0.1:${port}/texas-auctions/${'0'.repeat(32)}`)).text();
    expect(page).toContain(` data-events-tls="${url}"`);

    // The documented handshake, trusting the certificate the banner names (as NODE_EXTRA_CA_CERTS would).
    const ca = readFileSync(join(dir, certificate), 'utf8');
    const auth = { host: new URL(url).host, 'x-api-key': LOCAL_EVENTS_API_KEY };
    const header = Buffer.from(JSON.stringify(auth)).toString('base64url');
    const ws = new WebSocket(url, [EVENTS_SUBPROTOCOL, `header-${header}`], { ca });
    const got: { type: string; id?: string }[] = [];
    ws.on('message', (data) => got.push(JSON.parse(data.toString())));
    await new Promise((open, failed) => ws.once('open', open).once('error', failed));
    ws.send(JSON.stringify({ type: 'connection_init' }));
    ws.send(
      JSON.stringify({ type: 'subscribe', id: 'watch', channel: `/rooms/${'0'.repeat(32)}`, authorization: auth }),
    );
    for (let i = 0; i < 100 && got.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(got.map((m) => m.type)).toEqual(['connection_ack', 'ka', 'subscribe_success']);
    ws.close();
  });
});
