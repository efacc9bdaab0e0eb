import type { Request } from '@middy/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DomainError, UnprocessableError } from '../../../functions/domain/kernel/errors.ts';
import { wsHandler } from '../../../functions/room/kit.ts';
import { ClosingRefusal, errors } from '../../../functions/room/middlewares/errors.ts';
import { message } from '../../../functions/room/middlewares/message.ts';
import { observability } from '../../../functions/room/middlewares/observability.ts';
import type {
  SocketContext,
  SocketMiddleware,
  WebSocketEvent,
  WebSocketResult,
} from '../../../functions/room/middlewares/types.ts';
import { installLocalRoomPorts } from '../../../functions/room/ports.ts';
import { correlationId, rootLogger } from '../../../functions/runtime/observability.ts';

type SocketRequest = Request<WebSocketEvent, WebSocketResult, Error, SocketContext>;

const event = (routeKey: string, body?: string): WebSocketEvent => ({
  requestContext: { routeKey, connectionId: 'conn-1', requestId: 'api-gateway-request-id' },
  ...(body !== undefined && { body }),
});
const request = (e: WebSocketEvent, error?: Error): SocketRequest => ({
  event: e,
  context: {} as SocketContext,
  response: undefined as never,
  error: (error ?? null) as never,
  internal: {},
});
/** Runs one hook of one middleware alone; what it threw, if anything. */
const run = async (m: SocketMiddleware, hook: 'before' | 'onError', req: SocketRequest) => {
  try {
    await (m[hook] as (r: SocketRequest) => unknown)(req);
  } catch (error) {
    return error as Error;
  }
};

/** What the kit sent and closed, through the room's ports (the local runtime's, as lib/local/room-server.ts has). */
let sent: { connectionId: string; message: any }[];
let closed: { connectionId: string; reason: string }[];
let sendFails = false;
let lines: Record<string, any>[];
beforeEach(() => {
  sent = [];
  closed = [];
  sendFails = false;
  installLocalRoomPorts({
    async send(connectionId, bytes) {
      if (sendFails) throw new Error('PostToConnection failed');
      sent.push({ connectionId, message: JSON.parse(Buffer.from(bytes).toString('utf8')) });
      return 'sent';
    },
    async close(connectionId, reason) {
      closed.push({ connectionId, reason });
    },
    async arm() {},
    async publish() {},
  });
  lines = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
    lines.push(
      ...String(chunk)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
    return true;
  });
});
afterEach(() => {
  rootLogger.setLogLevel('WARN');
  installLocalRoomPorts(undefined);
  vi.restoreAllMocks();
});

describe('message', () => {
  it("takes a message of the route's action, checked against the protocol", async () => {
    const req = request(event('bid', '{"action":"bid","amount":100}'));
    expect(await run(message('bid'), 'before', req)).toBeUndefined();
    expect(req.context.message).toEqual({ action: 'bid', amount: 100 });
  });

  it('refuses what is not JSON or has a rogue field (422), and an action that is not the route’s (404)', async () => {
    const refusal = (action: 'bid' | undefined, body: string) =>
      run(message(action), 'before', request(event(action ?? '$default', body))) as Promise<DomainError>;
    expect((await refusal('bid', '{nope')).status).toBe(422);
    const rogue = await refusal('bid', '{"action":"bid","amount":1,"x":1}');
    expect(rogue.entries).toEqual([{ location: 'body', name: 'x', description: 'Rogue field' }]);
    expect((await refusal(undefined, '{"action":"shout"}')).status).toBe(422);
    const known = await refusal(undefined, '{"action":"ping"}');
    expect([known.status, known.entries[0].name]).toEqual([404, 'action']);
  });
});

describe('errors', () => {
  it('answers a refusal as an `error` message to the connection, and a closing one closes it after the answer', async () => {
    const req = request(event('bid'), UnprocessableError.data('Expecting a JSON object'));
    await errors().onError!(req);
    // Answered: API Gateway sees a success (no IntegrationError), the request line the refusal's status.
    expect(req.response).toEqual({ statusCode: 200 });
    expect(req.context.refused).toBe(422);
    expect(sent).toEqual([
      {
        connectionId: 'conn-1',
        message: {
          type: 'error',
          errors: [{ location: 'body', name: 'data', description: 'Expecting a JSON object' }],
        },
      },
    ]);
    const flood = request(event('ping'), new ClosingRefusal(429, 'rate', 'Too many messages'));
    await errors().onError!(flood);
    expect([flood.response, flood.context.refused]).toEqual([{ statusCode: 200 }, 429]);
    expect(sent.at(-1)?.message.errors).toEqual([{ location: 'body', name: 'rate', description: 'Too many messages' }]);
    expect(closed).toEqual([{ connectionId: 'conn-1', reason: 'Too many messages' }]);
  });

  it("answers a refusal of $connect as the handshake's status and error envelope", async () => {
    const req = request(event('$connect'), new DomainError(403, { location: 'url', name: 'token', description: 'x' }));
    await errors().onError!(req);
    expect(req.response).toEqual({
      statusCode: 403,
      body: JSON.stringify({ status: 'error', errors: [{ location: 'url', name: 'token', description: 'x' }] }),
    });
    expect(sent).toEqual([]);
  });

  it('never throws: anything else, or a refusal it cannot send, is a logged 500 that tells the client nothing', async () => {
    const crash = request(event('bid'), new TypeError('secret internals'));
    await errors().onError!(crash);
    expect(crash.response).toEqual({ statusCode: 500 });
    expect(sent).toEqual([]);
    sendFails = true;
    const unsent = request(event('bid'), UnprocessableError.data('x'));
    await errors().onError!(unsent);
    expect(unsent.response).toEqual({ statusCode: 500 });
    expect(lines.filter((l) => l.level === 'ERROR')).toHaveLength(2);
  });
});

describe('observability', () => {
  it('closes each message with one request line under its correlation id, as an HTTP request', async () => {
    rootLogger.setLogLevel('INFO');
    const req = request(event('ping'));
    req.context.awsRequestId = 'lambda-request-id';
    observability().before!(req);
    expect(correlationId()).toBe('api-gateway-request-id');
    req.context.connection = { connectionId: 'conn-1', auctionId: 'a'.repeat(32), bidderId: 'b'.repeat(32) };
    req.response = { statusCode: 200 };
    await observability().after!(req);
    expect(lines.filter((l) => l.message === 'request')).toEqual([
      expect.objectContaining({
        correlation_id: 'api-gateway-request-id',
        route: 'ws ping',
        connection: 'conn-1',
        requestId: 'lambda-request-id',
        auctionId: 'a'.repeat(32),
        status: 200,
        latencyMs: expect.any(Number),
        caller: 'b'.repeat(32),
        role: 'bidder',
      }),
    ]);
  });

  it("counts a refused message at the refusal's status, though API Gateway was answered 200", async () => {
    rootLogger.setLogLevel('INFO');
    const req = request(event('$default'));
    observability().before!(req);
    req.context.refused = 422;
    req.response = { statusCode: 200 };
    await observability().after!(req);
    expect(lines.find((l) => l.message === 'request')).toMatchObject({ route: 'ws $default', status: 422 });
  });

  it('keeps a route that failed a logged 500 with its request line, never a thrown error (wsHandler)', async () => {
    const handler = wsHandler(async () => {
      throw new Error('boom');
    });
    expect(await handler(event('$disconnect'))).toEqual({ statusCode: 500 });
    expect(lines.find((l) => l.message === 'request')).toMatchObject({
      level: 'ERROR',
      route: 'ws $disconnect',
      status: 500,
      caller: 'anonymous',
      role: 'anonymous',
    });
  });
});
