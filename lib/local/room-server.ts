import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { roomLambdas } from '../../functions/room/lambdas.ts';

/**
 * The local stand-in for the room's WebSocket API (API Gateway WebSocket, one Lambda per route) and its timers (Step
 * Functions): the `ws` package on the local gateway's own HTTP server, at `/room`. Each connection gets an id, the
 * handshake runs the `$connect` handler (a refusal is the HTTP answer, as API Gateway gives it), each message the
 * handler of its `action` (else `$default`), a close `$disconnect`; PostToConnection is a send on the socket, and a
 * timer is a setTimeout that runs the same transition handler and arms the next. Never in AWS.
 */
const FUNCTIONS = join(dirname(fileURLToPath(import.meta.url)), '../../functions');
const load = (module: string) => import(pathToFileURL(join(FUNCTIONS, `${module}.ts`)).href);
const handlerOf = (route: string) => roomLambdas.find((l) => l.route === route)!.handler;
const ROUTES = new Set<string>(roomLambdas.flatMap((l) => (l.route && !l.route.startsWith('$') ? [l.route] : [])));

export const ROOM_PATH = '/room';

interface Socket {
  ws?: WebSocket;
  /** Messages sent before the handshake finished (a broadcast racing a new connection). */
  queue: Uint8Array[];
}

interface TimerOrder {
  auctionId: string;
  version: number;
  nextAt: string;
}

export interface RoomServer {
  /** Open connections (for tests and logs). */
  connections(): number;
  close(): void;
}

export async function attachRoomServer(server: Server, host: () => string): Promise<RoomServer> {
  const sockets = new Map<string, Socket>();
  const timers = new Map<string, NodeJS.Timeout>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 32 * 1024 });
  const { localRuntime } = await load('runtime/config');
  const transition = await load('room/transition');

  const event = (routeKey: string, connectionId: string, extra: Record<string, unknown> = {}) => ({
    requestContext: {
      routeKey,
      connectionId,
      requestId: randomBytes(8).toString('hex'),
      domainName: host(),
      stage: 'local',
    },
    ...extra,
  });
  const invoke = async (routeKey: string, connectionId: string, extra?: Record<string, unknown>) =>
    (await load(handlerOf(routeKey))).handler(event(routeKey, connectionId, extra));

  const arm = async (order: TimerOrder) => {
    clearTimeout(timers.get(order.auctionId));
    const offsetMs = localRuntime()?.clockOffsetMs ?? 0;
    const delay = Math.max(0, Date.parse(order.nextAt) - (Date.now() + offsetMs));
    const timer = setTimeout(async () => {
      if (timers.get(order.auctionId) === timer) timers.delete(order.auctionId);
      try {
        const next = await transition.run(order);
        if (!('done' in next)) await arm(next);
      } catch (error) {
        // Left to the room bot's backstop, as a failed Step Functions task would be.
        console.error(`room timer ${order.auctionId}: ${(error as Error).message}`);
      }
    }, delay);
    timer.unref();
    timers.set(order.auctionId, timer);
  };

  const { installLocalRoomPorts } = await load('room/ports');
  installLocalRoomPorts({
    async send(connectionId: string, message: Uint8Array) {
      const socket = sockets.get(connectionId);
      if (!socket) return 'gone';
      if (!socket.ws) socket.queue.push(message);
      else if (socket.ws.readyState === WebSocket.OPEN) socket.ws.send(message, { binary: false });
      else return 'gone';
      return 'sent';
    },
    arm,
  });

  const onUpgrade = async (req: IncomingMessage, stream: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname !== ROOM_PATH) {
      stream.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
      return;
    }
    const connectionId = randomBytes(12).toString('base64url');
    const socket: Socket = { queue: [] };
    sockets.set(connectionId, socket);
    const query = Object.fromEntries(url.searchParams);
    const answer = await invoke('$connect', connectionId, { queryStringParameters: query }).catch(() => ({
      statusCode: 500,
    }));
    if (answer.statusCode !== 200) {
      sockets.delete(connectionId);
      const body = answer.body ?? '';
      stream.end(
        `HTTP/1.1 ${answer.statusCode} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, stream, head, (ws) => {
      socket.ws = ws;
      for (const message of socket.queue.splice(0)) ws.send(message, { binary: false });
      ws.on('message', async (data) => {
        const body = data.toString('utf8');
        let action: unknown;
        try {
          action = (JSON.parse(body) as { action?: unknown } | null)?.action;
        } catch {
          /* $default answers it */
        }
        const route = typeof action === 'string' && ROUTES.has(action) ? action : '$default';
        await invoke(route, connectionId, { body }).catch((error: Error) =>
          console.error(`room ${route}: ${error.message}`),
        );
      });
      ws.on('close', () => {
        sockets.delete(connectionId);
        invoke('$disconnect', connectionId).catch(() => {});
      });
    });
  };
  server.on('upgrade', (req, stream, head) => {
    onUpgrade(req, stream, head).catch(() => stream.destroy());
  });

  return {
    connections: () => sockets.size,
    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      for (const { ws } of sockets.values()) ws?.terminate();
      wss.close();
      installLocalRoomPorts(undefined);
    },
  };
}

/** `npm start`'s stand-in for the room bot's schedule: every `intervalMs`, never overlapping itself. */
export function startRoomBot(intervalMs: number, log: (line: string) => void = console.log): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const report = await (await load('room/bot')).run();
      if (report.changed > 0) log(`[bot room] ${JSON.stringify(report)}`);
    } catch (error) {
      log(`[bot room] failed: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  }, intervalMs);
  return () => clearInterval(timer);
}
