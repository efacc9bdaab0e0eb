import { connect as tcp } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ROOM_MESSAGES } from '../../../functions/room/kit.ts';
import { ROOM_FRAME_BYTES, ROOM_MESSAGE_BYTES } from '../../../lib/local/room-server.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { insiderInRoom, useRoom } from './room-helpers.ts';

/**
 * The room's socket as an attacker meets it, without credentials: oversized frames and messages, invalid UTF-8,
 * binary frames, protocol garbage, resets mid-handshake, malformed JSON. Each closes (or answers) that one connection
 * as API Gateway's WebSocket API does, and the service goes on serving the HTTP API and the other connections.
 */
const { service, api, clock } = useRoom();

let room = '';
const observerUrl = () => RoomClient.url(service.url, room);

/** A raw client: what it was sent, and how its connection closed. */
function rawClient(url = observerUrl()) {
  const ws = new WebSocket(url);
  const messages: any[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString('utf8'))));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('error', () => {}); // the server may cut a connection mid-send
  return { ws, messages, opened, closed };
}

/** The service still answers: health, a listing, and a new connection's ping. */
async function stillServing() {
  expect((await api.call('GET', '/api/health')).status).toBe(200);
  expect((await api.get('/api/0.1/lots?limit=1')).status).toBe(200);
  const c = await RoomClient.open(observerUrl());
  try {
    expect(await c.ask({ action: 'ping' }, 'pong')).toMatchObject({ type: 'pong' });
  } finally {
    c.close();
  }
}

describe('the room socket under hostile input', { timeout: 120_000 }, () => {
  it('opens a room to fuzz', async () => {
    room = (await insiderInRoom(api, clock, service)).id;
    await stillServing();
  });

  it('closes a connection that sends a frame over 32 KB with 1009', async () => {
    const c = rawClient();
    await c.opened;
    c.ws.send('x'.repeat(100 * 1024));
    expect((await c.closed).code).toBe(1009);
    await stillServing();
  });

  it('takes a message of frames up to 32 KB each up to 128 KB in all, and closes one over 128 KB with 1009', async () => {
    const frame = (n: number) => 'x'.repeat(n);
    const fragmented = (ws: WebSocket, frames: string[]) => {
      for (const [i, f] of frames.entries()) ws.send(f, { fin: i === frames.length - 1 });
    };
    const within = rawClient();
    await within.opened;
    const padding = ROOM_MESSAGE_BYTES - 100;
    const text = `{"action":"ping","pad":"${frame(padding)}"}`;
    const frames = Array.from({ length: Math.ceil(text.length / ROOM_FRAME_BYTES) }, (_, i) =>
      text.slice(i * ROOM_FRAME_BYTES, (i + 1) * ROOM_FRAME_BYTES),
    );
    fragmented(within.ws, frames);
    await expect
      .poll(() => within.messages.at(-1), { timeout: 15_000 })
      .toMatchObject({
        type: 'error',
        errors: [{ name: 'pad', description: 'Rogue field' }],
      });
    expect(within.ws.readyState).toBe(WebSocket.OPEN);
    within.ws.close();

    const beyond = rawClient();
    await beyond.opened;
    fragmented(
      beyond.ws,
      Array.from({ length: 5 }, () => frame(ROOM_FRAME_BYTES)),
    );
    expect((await beyond.closed).code).toBe(1009);
    await stillServing();
  });

  it('closes a text frame of invalid UTF-8 with 1007 and a binary frame with 1003', async () => {
    const invalid = rawClient();
    await invalid.opened;
    invalid.ws.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false });
    expect((await invalid.closed).code).toBe(1007);
    const binary = rawClient();
    await binary.opened;
    binary.ws.send(Buffer.from('{"action":"ping"}'), { binary: true });
    expect((await binary.closed).code).toBe(1003);
    await stillServing();
  });

  it('answers malformed JSON and unknown actions with errors and keeps the connection', async () => {
    const c = await RoomClient.open(observerUrl());
    try {
      for (const junk of ['{', 'null', '[]', '"bid"', '{"action":"bid","amount":"1e999"}', '{"action":"nope"}'])
        expect(await c.ask(junk, 'error'), junk).toMatchObject({ type: 'error', errors: [expect.any(Object)] });
      expect(await c.ask({ action: 'ping' }, 'pong')).toMatchObject({ type: 'pong' });
    } finally {
      c.close();
    }
    await stillServing();
  });

  it('survives protocol garbage after the handshake and resets before and during it', async () => {
    const { host, port } = new URL(service.url);
    const key = Buffer.from('0123456789abcdef').toString('base64');
    const handshake = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    const path = new URL(observerUrl()).pathname + new URL(observerUrl()).search;
    const raw = (then: (socket: ReturnType<typeof tcp>, answer: string) => void) =>
      new Promise<void>((resolve) => {
        const socket = tcp(Number(port), host === 'localhost' ? '127.0.0.1' : host.replace(/[[\]]/g, ''));
        let answer = '';
        socket.on('data', (d) => {
          answer += d.toString('latin1');
          if (answer.includes('\r\n\r\n')) then(socket, answer);
        });
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        socket.on('connect', () => socket.write(handshake(path)));
      });
    // Garbage frames (reserved opcode, unmasked) once upgraded.
    await raw((socket, answer) => {
      if (answer.startsWith('HTTP/1.1 101')) socket.write(Buffer.from([0x83, 0x05, 1, 2, 3, 4, 5]));
      else socket.destroy();
    });
    // Resets: during $connect (the handshake sent, the answer not awaited) and right after the upgrade.
    await new Promise<void>((resolve) => {
      const socket = tcp(Number(port), '127.0.0.1');
      socket.on('connect', () => {
        socket.write(handshake(path));
        socket.resetAndDestroy();
        resolve();
      });
      socket.on('error', () => resolve());
    });
    await raw((socket) => socket.resetAndDestroy());
    // A handshake `ws` refuses (no key) after $connect accepted it.
    await new Promise<void>((resolve) => {
      const socket = tcp(Number(port), '127.0.0.1');
      socket.on('connect', () =>
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`),
      );
      socket.on('data', () => socket.destroy());
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    await stillServing();
  });

  it('closes a connection that floods the room past its limit, and serves the API and the others meanwhile', async () => {
    const other = await RoomClient.open(observerUrl());
    const flood = rawClient();
    await flood.opened;
    const started = Date.now();
    const sending = (async () => {
      for (let i = 0; i < 2000 && flood.ws.readyState === WebSocket.OPEN; i++) {
        flood.ws.send(i % 2 ? '{"action":"ping"}' : '{junk');
        if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await stillServing(); // during the flood
    const { code } = await flood.closed;
    const seconds = (Date.now() - started) / 1000;
    await sending;
    expect(code).toBe(1008);
    const refusal = flood.messages.find((m) => m.errors?.[0]?.name === 'rate');
    expect(refusal).toMatchObject({ type: 'error', errors: [{ location: 'body', name: 'rate' }] });
    const answered = flood.messages.filter((m) => m !== refusal).length;
    expect(answered).toBeLessThanOrEqual(ROOM_MESSAGES.burst + Math.ceil(ROOM_MESSAGES.rate * seconds));
    try {
      expect(await other.ask({ action: 'ping' }, 'pong')).toMatchObject({ type: 'pong' });
    } finally {
      other.close();
    }
    await stillServing();
  });

  it('closes hundreds of connections at once a few at a time, and serves the API meanwhile', async () => {
    // Each close is a `$disconnect` with its DynamoDB requests; all at once they queued every HTTP read behind them.
    const clients = Array.from({ length: 300 }, () => rawClient());
    await Promise.all(clients.map((c) => c.opened));
    const roomState = async () => (await (await fetch(`${service.url}/_local/room`)).json()).data;
    const before = await roomState();
    for (const c of clients) c.ws.terminate();
    await stillServing();
    let state = await roomState();
    while (
      state.connections > before.connections - clients.length ||
      state.disconnects.waiting ||
      state.disconnects.running
    ) {
      await new Promise((r) => setTimeout(r, 50));
      state = await roomState();
    }
    expect(state.disconnects.most).toBeLessThanOrEqual(4);
    await stillServing();
  });
});
