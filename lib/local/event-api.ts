import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { LOCAL_OBSERVERS_KEY } from '../../functions/room-page/local-observers-key.ts';
import { ROOM_NAMESPACE } from '../../functions/room/lambdas.ts';

/**
 * The local stand-in for the observers' broadcast, an AWS AppSync Events API (lib/room-stack.ts `RoomEvents`), with
 * its protocol as AWS documents it ("Understanding the Event API WebSocket protocol", "Publish events via HTTP",
 * the service quotas): a WebSocket at `/event/realtime` with the subprotocols `aws-appsync-event-ws` and
 * `header-<base64url JSON of the authorization headers>` (plain on the gateway's port, TLS on its TLS port:
 * `wss://`, as AWS serves it); `connection_init` → `connection_ack` (`connectionTimeoutMs`) and a `ka` at once, then
 * a `ka` every minute; `subscribe` (an id, a channel, its authorization) →
 * `subscribe_success` or `subscribe_error`; each published event a `data` message (the subscription's id, the event
 * as a JSON text); `unsubscribe` → `unsubscribe_success`. Authorization as the room's namespace has it: anyone with the
 * API key connects and subscribes, nobody publishes with it (publish is IAM: the room's own port, in process).
 * Limits: 5 events a publish, 240 KB an event, a channel of at most 5 segments of 1–50 letters, digits or dashes;
 * per connection, those below (`SUBSCRIPTIONS_PER_CONNECTION`, `MESSAGE_BYTES`, `INIT_TIMEOUT_MS`, `BUFFERED_BYTES`),
 * so that one page cannot stall `npm start`. Never in AWS.
 */
export const EVENTS_PATH = '/event/realtime';
export const EVENTS_SUBPROTOCOL = 'aws-appsync-event-ws';
/** The local API key (an AppSync key's shape): the room page names it (room-page/http.ts), the clients read it there. */
export const LOCAL_EVENTS_API_KEY = LOCAL_OBSERVERS_KEY;
/** AppSync Events' quotas. */
export const EVENTS_PER_PUBLISH = 5;
export const EVENT_BYTES = 240 * 1024;
const SEGMENTS = 5;
const SEGMENT = /^[A-Za-z0-9-]{1,50}$/;
/** What connection_ack says: the client closes a connection that sent no `ka` for this long. */
export const CONNECTION_TIMEOUT_MS = 300_000;
const KA_MS = 60_000;
/**
 * Subscriptions one connection may hold: AppSync's quota "Subscriptions per connection", 100 by default (AWS General
 * Reference, "AWS AppSync endpoints and quotas"; Amplify's docs quote it: "an adjustable limit of 100 subscriptions
 * per connection"; adjustable in AWS, fixed here). One more is refused with a `subscribe_error` of
 * `MaxSubscriptionsReachedError`, the name AppSync's GraphQL real-time endpoint gives this refusal; the Event API's
 * pages name no type for it, so the name is a pick. The connection stays open.
 */
export const SUBSCRIPTIONS_PER_CONNECTION = 100;
/**
 * The largest message a client may send. AWS documents no size for a message sent on the Event API's WebSocket; the
 * largest the protocol defines is a publish of 5 events of 240 KB (1,200 KB), so the pick is 1.5 MB: those events and
 * room for their escaping and the envelope. A larger frame or message is closed with 1009 (RFC 6455 "message too
 * big", as API Gateway's WebSocket closes one past its quota); `ws` refuses it from the frame's header, unread.
 */
export const MESSAGE_BYTES = 1536 * 1024;
/**
 * How long a connection may stay open without `connection_init`. AWS documents no figure (AppSync's real-time guide
 * has the client send it at once; Amplify's client gives up after 15 s without `connection_ack`): the pick is 30 s,
 * twice that. Then a `connection_error` (`BadRequestException`) and a close with 1008, as a refused
 * `connection_init` is closed here. The local runtime's `eventsInitTimeoutMs` changes it (the tests').
 */
export const INIT_TIMEOUT_MS = 30_000;
/**
 * What a connection may have waiting to be sent (`ws` `bufferedAmount`: what the client has not taken yet, beyond
 * the kernel's buffers): 16 of the largest events. Past it the connection is closed (terminated: what waits is
 * freed at once; a close frame would wait behind it), not its messages dropped: a dropped message is a gap the
 * observer would learn of only from a later message, which a stalled one never reads, while a closed connection is
 * what the observer's steps already recover from (subscribe again, read the room again: docs/DESIGN.md). AWS
 * documents no figure for a slow subscriber; the pick bounds the server's memory per connection.
 */
export const BUFFERED_BYTES = 16 * EVENT_BYTES;

type AppSyncError = { errorType: string; message: string };
const UNAUTHORIZED: AppSyncError = {
  errorType: 'UnauthorizedException',
  message: 'You are not authorized to make this call.',
};
const badRequest = (message: string): AppSyncError => ({ errorType: 'BadRequestException', message });

/**
 * A channel path as AppSync names it, `/namespace/segment...` with the leading `/` or without: AWS's own examples
 * subscribe and publish `default/channel` (Amplify's `events.connect('default/channel')`, the HTTP publish example of
 * "Publish events via HTTP"), and Amplify's client sends the path as given. One form is kept, the `/` one, so that
 * either reaches the same subscribers.
 */
export const channelPath = (channel: string) => (channel.startsWith('/') ? channel : `/${channel}`);

/** A channel path (`channelPath`), each segment as AppSync takes it; `*` last when subscribing. */
export function channelError(channel: unknown, subscribing: boolean): string | undefined {
  if (typeof channel !== 'string' || !channel) return 'Invalid channel: a channel path is required';
  const segments = channelPath(channel).slice(1).split('/');
  if (segments.length < 1 || segments.length > SEGMENTS) return `Invalid channel: 1 to ${SEGMENTS} segments`;
  const ok = segments.every(
    (s, i) => SEGMENT.test(s) || (subscribing && s === '*' && i === segments.length - 1 && i > 0),
  );
  if (!ok) return 'Invalid channel: a segment is 1 to 50 letters, digits or dashes';
  if (segments[0] !== ROOM_NAMESPACE) return `Channel namespace not found: ${segments[0]}`;
  return undefined;
}

const matches = (pattern: string, channel: string) =>
  pattern === channel || (pattern.endsWith('/*') && channel.startsWith(pattern.slice(0, -1)));

/** The authorization headers a client sends (in the `header-` subprotocol or a message's `authorization`). */
const authorized = (headers: unknown) =>
  typeof headers === 'object' &&
  headers !== null &&
  (headers as Record<string, unknown>)['x-api-key'] === LOCAL_EVENTS_API_KEY;

const headerProtocol = (protocols: Set<string>) => {
  for (const p of protocols)
    if (p.startsWith('header-'))
      try {
        return JSON.parse(Buffer.from(p.slice('header-'.length), 'base64url').toString('utf8')) as unknown;
      } catch {
        return undefined;
      }
  return undefined;
};

export interface PublishResult {
  successful: { identifier: string; index: number }[];
  failed: { identifier: string; index: number; code: string; message: string }[];
}

export interface EventApiStandIn {
  handleUpgrade(req: IncomingMessage, stream: Duplex, head: Buffer): void;
  /** The room's publish (IAM, in process): what the HTTP endpoint answers, the same limits. */
  publish(channel: string, events: string[]): PublishResult;
  /** Sees every event published, on any channel (the tests' view of everything public). */
  onPublish(listener: (channel: string, event: string) => void): () => void;
  /** Subscriptions open (on every connection). */
  subscriptions(): number;
  close(): void;
}

interface Subscription {
  id: string;
  channel: string;
  ws: WebSocket;
}

export interface EventApiOptions {
  /** How long a connection may stay without `connection_init`, read at each connection (default `INIT_TIMEOUT_MS`). */
  initTimeoutMs?: () => number | undefined;
}

export function eventApiStandIn(options: EventApiOptions = {}): EventApiStandIn {
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MESSAGE_BYTES,
    handleProtocols: (protocols) => (protocols.has(EVENTS_SUBPROTOCOL) ? EVENTS_SUBPROTOCOL : false),
  });
  const subscriptions = new Set<Subscription>();
  const listeners = new Set<(channel: string, event: string) => void>();
  const send = (ws: WebSocket, message: unknown) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    // A slow observer: what it has not taken is bounded; past the bound it is let go (BUFFERED_BYTES says why).
    if (ws.bufferedAmount > BUFFERED_BYTES) return ws.terminate();
    ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  };

  const connection = (ws: WebSocket, connectAuthorized: boolean) => {
    const own = new Map<string, Subscription>();
    let acked = false;
    const ka = setInterval(() => send(ws, { type: 'ka' }), KA_MS);
    ka.unref();
    const init = setTimeout(() => {
      send(ws, { type: 'connection_error', errors: [badRequest('No connection_init in time')] });
      ws.close(1008, 'No connection_init');
    }, options.initTimeoutMs?.() ?? INIT_TIMEOUT_MS);
    init.unref();
    ws.on('error', () => {});
    ws.on('close', () => {
      clearInterval(ka);
      clearTimeout(init);
      for (const s of own.values()) subscriptions.delete(s);
    });
    ws.on('message', (data, isBinary) => {
      let message: Record<string, unknown>;
      try {
        const parsed: unknown = isBinary ? {} : JSON.parse(data.toString('utf8'));
        // Any JSON value parses; one that is no object (`null`, a number) is a message of no known type.
        message = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
      } catch {
        return send(ws, { type: 'error', errors: [badRequest('Invalid JSON')] });
      }
      const id = typeof message.id === 'string' ? message.id : undefined;
      switch (message?.type) {
        case 'connection_init':
          clearTimeout(init);
          if (!connectAuthorized) {
            send(ws, { type: 'connection_error', errors: [UNAUTHORIZED] });
            return ws.close(1008, 'Unauthorized');
          }
          acked = true;
          send(ws, { type: 'connection_ack', connectionTimeoutMs: CONNECTION_TIMEOUT_MS });
          // A `ka` at once, not only a minute later: a client's watch on the connection (Amplify's, the page's) starts
          // at the ack, and a keep-alive is what tells it the connection is alive.
          return send(ws, { type: 'ka' });
        case 'subscribe': {
          const refuse = (error: AppSyncError) => send(ws, { type: 'subscribe_error', id, errors: [error] });
          if (!acked || !id) return refuse(badRequest('Send connection_init first, and an id with each subscribe'));
          if (own.has(id)) return refuse(badRequest('A subscription with this id exists'));
          const invalid = channelError(message.channel, true);
          if (invalid) return refuse(badRequest(invalid));
          if (!authorized(message.authorization)) return refuse(UNAUTHORIZED);
          if (own.size >= SUBSCRIPTIONS_PER_CONNECTION)
            return refuse({
              errorType: 'MaxSubscriptionsReachedError',
              message: `At most ${SUBSCRIPTIONS_PER_CONNECTION} subscriptions a connection`,
            });
          const subscription = { id, channel: channelPath(message.channel as string), ws };
          own.set(id, subscription);
          subscriptions.add(subscription);
          return send(ws, { type: 'subscribe_success', id });
        }
        case 'unsubscribe': {
          const subscription = id ? own.get(id) : undefined;
          if (!subscription)
            return send(ws, { type: 'unsubscribe_error', id, errors: [badRequest('No such subscription')] });
          own.delete(subscription.id);
          subscriptions.delete(subscription);
          return send(ws, { type: 'unsubscribe_success', id });
        }
        case 'publish':
          // The rooms' namespace takes publishes by IAM only: an API key (anyone's) never publishes.
          return send(ws, { type: 'publish_error', id, errors: [UNAUTHORIZED] });
        default:
          return send(ws, { type: 'error', id, errors: [badRequest('Unknown message type')] });
      }
    });
  };

  return {
    handleUpgrade(req, stream, head) {
      stream.on('error', () => stream.destroy());
      const protocols = new Set(
        String(req.headers['sec-websocket-protocol'] ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      );
      if (!protocols.has(EVENTS_SUBPROTOCOL)) {
        stream.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
        return;
      }
      const connectAuthorized = authorized(headerProtocol(protocols));
      wss.handleUpgrade(req, stream, head, (ws) => connection(ws, connectAuthorized));
    },
    publish(given, events) {
      const result: PublishResult = { successful: [], failed: [] };
      const invalid = channelError(given, false);
      const channel = channelPath(given);
      if (invalid || events.length < 1 || events.length > EVENTS_PER_PUBLISH)
        throw new Error(`BadRequestException: ${invalid ?? `1 to ${EVENTS_PER_PUBLISH} events a publish`}`);
      const receivers = [...subscriptions].filter((s) => matches(s.channel, channel));
      events.forEach((event, index) => {
        const identifier = randomUUID();
        let valid = Buffer.byteLength(event) <= EVENT_BYTES;
        try {
          JSON.parse(event);
        } catch {
          valid = false;
        }
        if (!valid) {
          result.failed.push({ identifier, index, code: 'BadRequestException', message: 'Invalid or too large event' });
          return;
        }
        result.successful.push({ identifier, index });
        for (const listener of listeners) listener(channel, event);
        // The event as a JSON text, escaped once; each subscriber's message differs only by its subscription id.
        const tail = `,"event":${JSON.stringify(event)}}`;
        for (const s of receivers) send(s.ws, `{"type":"data","id":${JSON.stringify(s.id)}${tail}`);
      });
      return result;
    },
    onPublish(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscriptions: () => subscriptions.size,
    close() {
      for (const ws of wss.clients) ws.terminate();
      subscriptions.clear();
      wss.close();
    },
  };
}
