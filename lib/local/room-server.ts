import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { roomLambdas } from '../../functions/room/lambdas.ts';
import { EVENTS_PATH, type EventApiStandIn, eventApiStandIn } from './event-api.ts';

/**
 * The local stand-in for the room's WebSocket API (API Gateway WebSocket, one Lambda per route) and its timers (Step
 * Functions): the `ws` package on the local gateway's own HTTP server, at `/room`. Each connection gets an id, the
 * handshake runs the `$connect` handler (a refusal is the HTTP answer, as API Gateway gives it), each message the
 * handler of its `action` (else `$default`), a close `$disconnect`; PostToConnection is a send on the socket, and a
 * timer is a setTimeout that runs the same transition handler and arms the next. The observers' broadcast (AppSync
 * Events) is its stand-in (event-api.ts) at `/event/realtime` on the same server; the room's publish goes to it.
 * Never in AWS.
 */
const FUNCTIONS = join(dirname(fileURLToPath(import.meta.url)), '../../functions');
const load = (module: string) => import(pathToFileURL(join(FUNCTIONS, `${module}.ts`)).href);
const ROUTES = new Set<string>(roomLambdas.flatMap((l) => (l.route && !l.route.startsWith('$') ? [l.route] : [])));

export const ROOM_PATH = '/room';

/**
 * API Gateway's WebSocket limits (its quotas page): a frame over 32 KB or a message over 128 KB closes the connection
 * with 1009, a binary frame with 1003; an invalid UTF-8 text is closed by `ws` with 1007. None of them stops the server.
 */
export const ROOM_FRAME_BYTES = 32 * 1024;
export const ROOM_MESSAGE_BYTES = 128 * 1024;
/** A connection's messages run at most this many at a time; its socket is paused (TCP back-pressure) while more wait. */
const IN_FLIGHT = 8;
/** Messages read ahead of those running (one TCP read may hold many); beyond, the socket stays paused. */
const QUEUED = 64;

interface Socket {
  ws?: WebSocket;
  /** Messages sent before the handshake finished (a broadcast racing a new connection). */
  queue: Uint8Array[];
  /** Closes the connection from the server's side: what it sent and is not yet taken is dropped. */
  end?(code: number, reason: string): void;
}

/**
 * Watches the frames a client sends (their headers only: `ws` bounds messages, not frames) and calls `tooLarge` once
 * when one announces a payload over `maxBytes`.
 */
export function frameWatcher(maxBytes: number, tooLarge: () => void): (chunk: Buffer) => void {
  let header = Buffer.alloc(0);
  let skip = 0; // payload bytes of the current frame still to come
  let done = false;
  return (chunk) => {
    let at = 0;
    while (!done && at < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - at);
        skip -= n;
        at += n;
        continue;
      }
      const had = header.length;
      header = Buffer.concat([header, chunk.subarray(at, at + 14 - had)]);
      const need = header.length < 2 ? 14 : headerLength(header);
      if (header.length < need) {
        at = chunk.length;
        continue;
      }
      at += need - had;
      const size = payloadLength(header);
      header = Buffer.alloc(0);
      if (size > maxBytes) {
        done = true;
        tooLarge();
      }
      skip = size;
    }
  };
}

const headerLength = (h: Buffer) => {
  const length7 = h[1] & 0x7f;
  return 2 + (length7 === 126 ? 2 : length7 === 127 ? 8 : 0) + (h[1] & 0x80 ? 4 : 0);
};
const payloadLength = (h: Buffer) => {
  const length7 = h[1] & 0x7f;
  if (length7 === 126) return h.readUInt16BE(2);
  if (length7 === 127) return h.readUInt32BE(2) * 2 ** 32 + h.readUInt32BE(6);
  return length7;
};

interface TimerOrder {
  auctionId: string;
  version: number;
  nextAt: string;
}

const EVENT_TYPES: Record<string, 'CONNECT' | 'DISCONNECT' | 'MESSAGE'> = {
  $connect: 'CONNECT',
  $disconnect: 'DISCONNECT',
};
/** `28/Nov/2026:08:50:04 +0000`, the access-log time API Gateway gives `requestTime`. */
const requestTime = (at: Date) => {
  const [, day, month, year, time] = /^\w+, (\d+) (\w+) (\d+) ([\d:]+)/.exec(at.toUTCString())!;
  return `${day}/${month}/${year}:${time} +0000`;
};

/**
 * The event of a WebSocket route as API Gateway hands it to the route's Lambda (test/support/aws/events.ts checks
 * it against AWS's shape): the request context, and what the route adds (`extra`: $connect's headers and query, a
 * message's body).
 */
export function socketEvent(
  routeKey: string,
  connection: { connectionId: string; connectedAt: number; domainName: string },
  extra: Record<string, unknown> = {},
) {
  const now = new Date();
  const eventType = EVENT_TYPES[routeKey] ?? 'MESSAGE';
  const requestId = randomBytes(8).toString('base64');
  return {
    requestContext: {
      routeKey,
      ...(eventType === 'MESSAGE' && { messageId: randomBytes(8).toString('base64') }),
      eventType,
      extendedRequestId: requestId,
      requestTime: requestTime(now),
      messageDirection: 'IN' as const,
      stage: 'local',
      connectedAt: connection.connectedAt,
      requestTimeEpoch: now.getTime(),
      requestId,
      domainName: connection.domainName,
      connectionId: connection.connectionId,
      apiId: 'local',
    },
    isBase64Encoded: false,
    ...extra,
  };
}

/** What `$connect` adds to its event: the handshake's headers (one and many values) and its query, as API Gateway. */
export function connectExtras(req: Pick<IncomingMessage, 'headers'>, url: URL) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    headers[name] = values.join(',');
    multiValueHeaders[name] = values;
  }
  const query: Record<string, string> = {};
  const multiValueQuery: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) {
    query[k] = v; // API Gateway's WebSocket API keeps the last value here, all of them in the multi-value map
    multiValueQuery[k] = [...(multiValueQuery[k] ?? []), v];
  }
  const some = Object.keys(query).length > 0;
  return {
    headers,
    multiValueHeaders,
    ...(some && { queryStringParameters: query, multiValueQueryStringParameters: multiValueQuery }),
    isBase64Encoded: false,
  };
}

export interface RoomServer {
  /** Open connections (for tests and logs). */
  connections(): number;
  /** `$disconnect`s under way and waiting, and the most ever under way at once (`GET /_local/room`). */
  disconnects(): { running: number; waiting: number; most: number };
  /** The rooms' pending timers, each the order it runs (`GET /_local/room`). */
  timers(): TimerOrder[];
  /**
   * The local clock moved (`PUT /_local/clock`): each pending timer waits again for its instant by the moved clock
   * (left as armed, it fired when the old clock reached it: a room planned minutes ahead, then moved to its start,
   * opened minutes late, its pages showing no stage change meanwhile).
   */
  clockMoved(): void;
  /** Drops the pending timer of an auction's room, as a failed execution stops it: the room runs no stage on its own. */
  stopTimer(auctionId: string): boolean;
  /** The observers' broadcast stand-in. */
  events: EventApiStandIn;
  close(): void;
}

/** How many `$disconnect`s run at once locally (see `pumpDisconnects`). */
const DISCONNECTS_IN_FLIGHT = 4;

export async function attachRoomServer(server: Server, host: () => string): Promise<RoomServer> {
  const sockets = new Map<string, Socket>();
  // Each room's pending timer and the order it runs (re-armed when the local clock moves: `clockMoved`).
  const timers = new Map<string, { timer: NodeJS.Timeout; order: TimerOrder }>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: ROOM_MESSAGE_BYTES });
  const { localRuntime } = await load('platform/config');
  const events = eventApiStandIn({ initTimeoutMs: () => localRuntime()?.eventsInitTimeoutMs });
  setLocalEventApi(events);
  const transition = await load('room/transition');
  const { timerInput } = await load('room/ports');

  const connectedAt = new Map<string, number>();
  // As Lambda invokes it: the event, and a context naming the function and this invocation (its request line's id).
  // Each call to AWS is made as that route's Lambda (store/aws-calls.ts).
  const { asCaller } = await load('store/aws-calls');
  const invoke = async (routeKey: string, connectionId: string, extra?: Record<string, unknown>) => {
    const lambda = roomLambdas.find((l) => l.route === routeKey)!;
    const module = await load(lambda.handler);
    return asCaller(`room:${lambda.name}`, () =>
      module.handler(
        socketEvent(routeKey, { connectionId, connectedAt: connectedAt.get(connectionId)!, domainName: host() }, extra),
        { functionName: lambda.handler, awsRequestId: randomUUID() },
      ),
    );
  };

  const arm = async (order: TimerOrder) => {
    clearTimeout(timers.get(order.auctionId)?.timer);
    const offsetMs = localRuntime()?.clockOffsetMs ?? 0;
    const delay = Math.max(0, Date.parse(order.nextAt) - (Date.now() + offsetMs));
    const timer = setTimeout(async () => {
      if (timers.get(order.auctionId)?.timer === timer) timers.delete(order.auctionId);
      try {
        // The timer's task is the transition Lambda, whoever armed it; as Step Functions hands it on: the execution's
        // input in JSON, the task's answer the next state's input.
        const next = JSON.parse(
          JSON.stringify(
            await asCaller('room:Transition', async () =>
              transition.handler(JSON.parse(JSON.stringify(timerInput(order)))),
            ),
          ),
        );
        if (!('done' in next)) await arm(next);
      } catch (error) {
        // Left to the room bot's backstop, as a failed Step Functions task would be.
        console.error(`room timer ${order.auctionId}: ${(error as Error).message}`);
      }
    }, delay);
    timer.unref();
    timers.set(order.auctionId, { timer, order });
  };

  // `$disconnect`s run a few at a time. In AWS each is its own Lambda with its own connections; here they share the
  // process's DynamoDB connection pool (50 sockets), so 2,000 closes at once queued every HTTP request's reads behind
  // their 4,000 requests (seconds of stall). A close needs no haste: the room forgets a gone connection on its send.
  const disconnects: string[] = [];
  let disconnecting = 0;
  let mostDisconnecting = 0;
  let closed = false;
  const pumpDisconnects = () => {
    while (!closed && disconnecting < DISCONNECTS_IN_FLIGHT && disconnects.length) {
      mostDisconnecting = Math.max(mostDisconnecting, ++disconnecting);
      const connectionId = disconnects.shift()!;
      invoke('$disconnect', connectionId, { headers: {}, multiValueHeaders: {}, isBase64Encoded: false })
        .catch(() => {})
        .finally(() => {
          connectedAt.delete(connectionId);
          disconnecting--;
          pumpDisconnects();
        });
    }
  };

  const { installLocalRoomPorts } = await load('room/ports');
  // What the AWS ports (room/ports.ts) send for each, told to the tests' call observer (store/aws-calls.ts).
  const { observeCall } = await load('store/aws-calls');
  const asAws = (service: string, command: string, input: Record<string, unknown>) =>
    observeCall({ service, command, input });
  installLocalRoomPorts({
    async send(connectionId: string, message: Uint8Array) {
      asAws('ApiGatewayManagementApi', 'PostToConnectionCommand', { ConnectionId: connectionId });
      const socket = sockets.get(connectionId);
      if (!socket) return 'gone';
      if (!socket.ws) socket.queue.push(message);
      else if (socket.ws.readyState === WebSocket.OPEN) socket.ws.send(message, { binary: false });
      else return 'gone';
      return 'sent';
    },
    async close(connectionId: string, reason: string) {
      asAws('ApiGatewayManagementApi', 'DeleteConnectionCommand', { ConnectionId: connectionId });
      // 1008 (policy violation); a close reason is at most 123 bytes.
      sockets.get(connectionId)?.end?.(1008, Buffer.from(reason).subarray(0, 123).toString());
    },
    async arm(order: TimerOrder) {
      asAws('SFN', 'StartExecutionCommand', { name: `${order.auctionId}-${order.version}` });
      return arm(order);
    },
    // AppSync Events' publish, as the room's IAM role makes it: refused events are a failed publish.
    async publish(channel: string, event: string) {
      asAws('AppSyncEvents', 'EventPublish', { channel });
      const { failed } = events.publish(channel, [event]);
      if (failed.length) throw new Error(`AppSync Events publish: ${JSON.stringify(failed)}`);
    },
  });

  const onUpgrade = async (req: IncomingMessage, stream: Duplex, head: Buffer) => {
    // Until `ws` takes the socket (after $connect answers), a reset connection must not throw.
    stream.on('error', () => stream.destroy());
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname === EVENTS_PATH) return events.handleUpgrade(req, stream, head);
    if (url.pathname !== ROOM_PATH) {
      stream.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
      return;
    }
    const connectionId = randomBytes(12).toString('base64url');
    const socket: Socket = { queue: [] };
    sockets.set(connectionId, socket);
    connectedAt.set(connectionId, Date.now());
    const answer = await invoke('$connect', connectionId, connectExtras(req, url)).catch(() => ({
      statusCode: 500,
    }));
    if (answer.statusCode !== 200) {
      sockets.delete(connectionId);
      connectedAt.delete(connectionId);
      const body = answer.body ?? '';
      stream.end(
        `HTTP/1.1 ${answer.statusCode} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const forget = () => {
      if (!sockets.delete(connectionId)) return;
      disconnects.push(connectionId);
      pumpDisconnects();
    };
    // However the socket ends (a close, a reset, a handshake `ws` refuses), the room forgets the connection.
    if (stream.destroyed) return forget();
    stream.once('close', forget);
    wss.handleUpgrade(req, stream, head, (ws) => {
      socket.ws = ws;
      for (const message of socket.queue.splice(0)) ws.send(message, { binary: false });
      // ws closes the connection itself on a protocol error (1002), an invalid UTF-8 text (1007), a message over
      // 128 KB (1009) and then reports it here: without a listener the report would throw and stop the server.
      ws.on('error', () => {});
      // A connection's messages, dispatched as API Gateway does (concurrently), at most IN_FLIGHT at a time.
      const waiting: string[] = [];
      socket.end = (code, reason) => {
        waiting.length = 0;
        ws.close(code, reason);
        ws.resume(); // the client's closing frame must be read, even behind a flood
      };
      stream.prependListener(
        'data',
        frameWatcher(ROOM_FRAME_BYTES, () => socket.end!(1009, 'Frame too large')),
      );
      let running = 0;
      const pump = () => {
        while (running < IN_FLIGHT && waiting.length) {
          const body = waiting.shift()!;
          running++;
          dispatch(connectionId, body).finally(() => {
            running--;
            pump();
          });
        }
        if (waiting.length >= QUEUED) ws.pause();
        else if (ws.isPaused && ws.readyState === WebSocket.OPEN) ws.resume();
      };
      ws.on('message', (data, isBinary) => {
        if (ws.readyState !== WebSocket.OPEN) return; // closing: what follows is not taken
        if (isBinary) return socket.end!(1003, 'Binary frames are not supported');
        waiting.push((data as Buffer).toString('utf8'));
        pump();
      });
      ws.on('close', () => {
        waiting.length = 0;
      });
    });
  };
  const dispatch = async (connectionId: string, body: string) => {
    let action: unknown;
    try {
      action = (JSON.parse(body) as { action?: unknown } | null)?.action;
    } catch {
      /* $default answers it */
    }
    const route = typeof action === 'string' && ROUTES.has(action) ? action : '$default';
    await invoke(route, connectionId, { body, isBase64Encoded: false }).catch((error: Error) =>
      console.error(`room ${route}: ${error.message}`),
    );
  };
  server.on('upgrade', (req, stream, head) => {
    onUpgrade(req, stream, head).catch(() => stream.destroy());
  });

  return {
    connections: () => sockets.size,
    disconnects: () => ({ running: disconnecting, waiting: disconnects.length, most: mostDisconnecting }),
    timers: () => [...timers.values()].map(({ order }) => order),
    clockMoved() {
      for (const { order } of [...timers.values()]) void arm(order);
    },
    stopTimer(auctionId) {
      const pending = timers.get(auctionId);
      if (!pending) return false;
      clearTimeout(pending.timer);
      timers.delete(auctionId);
      return true;
    },
    events,
    close() {
      closed = true;
      disconnects.length = 0;
      events.close();
      setLocalEventApi(undefined);
      for (const { timer } of timers.values()) clearTimeout(timer);
      timers.clear();
      for (const { ws } of sockets.values()) ws?.terminate();
      wss.close();
      installLocalRoomPorts(undefined);
    },
  };
}

// On globalThis, like the local room ports: the tests reach the running stand-in (to see everything published).
const LOCAL_EVENTS = Symbol.for('agora.localEventApi');
const shared = globalThis as unknown as Record<symbol, EventApiStandIn | undefined>;
const setLocalEventApi = (events: EventApiStandIn | undefined) => {
  shared[LOCAL_EVENTS] = events;
};
/** The observers' broadcast stand-in of the local room server running in this process, if any. */
export const localEventApi = (): EventApiStandIn | undefined => shared[LOCAL_EVENTS];

/** `npm start`'s stand-in for the room bot's schedule: every `intervalMs`, never overlapping itself. */
export function startRoomBot(intervalMs: number, log: (line: string) => void = console.log): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const { asCaller } = await load('store/aws-calls');
      const bot = await load('room/bot');
      const report = await asCaller('room:Bot', () => bot.run());
      if (report.changed > 0) log(`[bot room] ${JSON.stringify(report)}`);
    } catch (error) {
      log(`[bot room] failed: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  }, intervalMs);
  return () => clearInterval(timer);
}
