import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { BidderView, PublicRoomDocument } from '../functions/domain/room/model.ts';
import type {
  ErrorMessage,
  IncomingMessage,
  OutgoingMessage,
  RoomMessage,
} from '../functions/room/generated/protocol-types.ts';

/**
 * The one client of the auction room's WebSocket protocol (functions/room/protocol.schema.json) for code that talks
 * to the room from outside: the CLI (bin/room.ts), the load bench (bench/room/clients.ts) and the tests. It opens a
 * connection (an observer's, or a bidder's with the participation link's parameters), sends the protocol's messages,
 * keeps what the room sends, and waits for the answers and room documents a step needs, typed by the types generated
 * from the schema. No Lambda imports it (test/unit/architecture.test.ts).
 */

/** The room document as a connection gets it: the public one, with `me` on a bidder's connections. */
export type RoomDocument = PublicRoomDocument & { me?: BidderView };
/** A `room` message, its document typed. */
export type RoomUpdate = Omit<RoomMessage, 'document'> & { document: RoomDocument };
/** Any message the room sends. */
export type Received = Exclude<OutgoingMessage, RoomMessage> | RoomUpdate;
export type ReceivedOf<T extends Received['type']> = Extract<Received, { type: T }>;

/** A handshake the room refused: the HTTP status and the body (the error envelope, parsed when it is JSON). */
export interface Refused {
  status: number;
  body: any;
}

/** The room answered `error` where another answer was awaited. */
export class RoomError extends Error {
  constructor(readonly errors: ErrorMessage['errors']) {
    super(`the room answered: ${JSON.stringify(errors)}`);
  }
}

export interface RoomClientOptions {
  /**
   * Sees each message's text first; one it returns true for is taken care of, and neither parsed nor kept (the load
   * bench reads a room document's version from its text, as a real observer's parse runs on its own machine).
   */
  take?: (text: string) => boolean;
  /** Whether to offer permessage-deflate (`ws`'s default: yes). */
  perMessageDeflate?: boolean;
}

/**
 * The observers' broadcast (AppSync Events in AWS, its stand-in locally: lib/local/event-api.ts): its real-time
 * endpoint (`wss://<realtime domain>/event/realtime`), the API key anyone may subscribe with, and the host the key
 * belongs to (the API's HTTP domain in AWS; the endpoint's host by default).
 */
export interface Broadcast {
  url: string;
  apiKey: string;
  host?: string;
}

/** AppSync Events' subprotocol, and its authorization in a `header-` subprotocol (base64url JSON of the headers). */
export const EVENTS_SUBPROTOCOL = 'aws-appsync-event-ws';
const authorization = (b: Broadcast) => ({ host: b.host ?? new URL(b.url).host, 'x-api-key': b.apiKey });

const isRoom = (m: Received): m is RoomUpdate => m.type === 'room';

const parseBody = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text || undefined;
  }
};

/**
 * Which of two room messages is further (negative, 0, positive): the document's version, then what changes without a
 * version (the auction cancelled, the results posted).
 */
export const compareRooms = (a: RoomUpdate, b: RoomUpdate): number => {
  const rank = (m: RoomUpdate) => [
    m.document.version,
    m.closed ? 1 : 0,
    m.results === 'posted' ? 2 : m.results ? 1 : 0,
  ];
  const [x, y] = [rank(a), rank(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The room's document now, by `resume` on a connection of its own (closed after); none before it is planned. */
async function readRoom(roomUrl: string, ms = 15_000): Promise<RoomUpdate | undefined> {
  const socket = await RoomClient.open(roomUrl);
  try {
    return await socket.ask({ action: 'resume' }, 'room', ms);
  } catch {
    return undefined;
  } finally {
    socket.close();
  }
}

export class RoomClient {
  /** What the room sent (but what `take` took), in order. */
  readonly messages: Received[] = [];
  private waiters: (() => void)[] = [];
  /** Settles when the connection closes (whoever closed it). */
  readonly closed: Promise<void>;

  private constructor(
    private readonly ws: WebSocket,
    take: RoomClientOptions['take'],
    /** A broadcast subscription's id: its `data` messages carry the room's messages (each event a JSON text). */
    subscription?: string,
  ) {
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data) => {
      let text = data.toString('utf8');
      if (subscription !== undefined) {
        const message = JSON.parse(text) as { type: string; id?: string; event?: string };
        if (message.type !== 'data' || message.id !== subscription || typeof message.event !== 'string') return;
        text = message.event;
      }
      if (take?.(text)) return;
      this.keep(JSON.parse(text) as Received);
    });
  }

  /**
   * The URL a connection opens: the room's endpoint (a `ws(s)` URL as it is; a service's `http(s)` URL: its `/room`,
   * where the local gateway serves it), the auction, and a bidder's link parameters (bidder_id and signature, or
   * hash), as the participation link carries them.
   */
  static url(endpoint: string, auctionId: string, participationUrl?: string): string {
    const url = new URL(/^wss?:/.test(endpoint) ? endpoint : `${endpoint.replace(/^http/, 'ws')}/room`);
    url.searchParams.set('auction_id', auctionId);
    if (participationUrl) for (const [k, v] of new URL(participationUrl).searchParams) url.searchParams.set(k, v);
    return url.href;
  }

  /** A connection to the room; a refused handshake rejects with `Refused`, an unreachable room with its error. */
  static open(url: string, { take, perMessageDeflate }: RoomClientOptions = {}): Promise<RoomClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, perMessageDeflate === undefined ? {} : { perMessageDeflate });
      ws.once('open', () => resolve(new RoomClient(ws, take)));
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        res.on('end', () => reject({ status: res.statusCode ?? 0, body: parseBody(text) } satisfies Refused));
      });
      ws.once('error', (error) => reject(error));
    });
  }

  /**
   * An observer on the broadcast: connects (the API key in the `header-` subprotocol), `connection_init`, then
   * subscribes to the auction's channel (`/rooms/<auction id>`). From then on every change of the room arrives as a
   * `room` message, as on the room's socket; nothing is sent to the room (an observer has nothing to say). The room
   * publishes changes only: the current document is the next change's (or the room socket's `resume`).
   */
  static observe(broadcast: Broadcast, auctionId: string, { take }: Pick<RoomClientOptions, 'take'> = {}) {
    const header = Buffer.from(JSON.stringify(authorization(broadcast))).toString('base64url');
    return new Promise<RoomClient>((resolve, reject) => {
      const ws = new WebSocket(broadcast.url, [EVENTS_SUBPROTOCOL, `header-${header}`], { perMessageDeflate: false });
      const id = randomUUID();
      const fail = (why: unknown) => {
        ws.terminate();
        reject(why instanceof Error ? why : new Error(`the broadcast refused: ${JSON.stringify(why)}`));
      };
      const setup = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString('utf8')) as { type: string; id?: string; errors?: unknown };
        if (message.type === 'connection_ack')
          ws.send(
            JSON.stringify({
              type: 'subscribe',
              id,
              channel: `/rooms/${auctionId}`,
              authorization: authorization(broadcast),
            }),
          );
        else if (message.type === 'subscribe_success' && message.id === id) {
          ws.off('message', setup);
          resolve(new RoomClient(ws, take, id));
        } else if (message.type.endsWith('_error') || message.type === 'error') fail(message);
      };
      ws.on('message', setup);
      ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
      ws.once('unexpected-response', (_req, res) => fail(new Error(`the broadcast refused: HTTP ${res.statusCode}`)));
      ws.once('error', fail);
    });
  }

  /**
   * An observer that follows the room from its current document on, as the room page's observers do: subscribed to the
   * broadcast first (no change is missed), then the room read once over its socket (`roomUrl`: an observer's; the
   * service keeps no last event), then each change applied in order: an older one (publishes of concurrent changes
   * may cross) is dropped, one past a gap (a publish lost) has the room read again. Its `messages` are the room
   * documents it showed, in order; `reads` how many times it read the room.
   */
  static async follow(broadcast: Broadcast, roomUrl: string): Promise<RoomClient> {
    const auctionId = new URL(roomUrl).searchParams.get('auction_id') ?? '';
    let follower: RoomClient | undefined;
    let shown: RoomUpdate | undefined;
    let reading = false;
    const early: RoomUpdate[] = [];
    const show = (room: RoomUpdate) => {
      shown = room;
      follower!.keep(room);
    };
    const take = (room: RoomUpdate) => {
      if (reading || !shown || !follower) {
        early.push(room);
        return void reread();
      }
      if (compareRooms(room, shown) <= 0) return;
      if (room.document.version > shown.document.version + 1) {
        early.push(room);
        return void reread();
      }
      show(room);
    };
    // As the page does (room-page/assets/broadcast.js `reread`): a change that came before the read began and is still
    // past a gap after it is no change of this room; a failed read is tried again after a second.
    const reread = async () => {
      if (reading || !follower) return;
      reading = true;
      follower.reads += 1;
      const before = new Set(early);
      const read = await readRoom(roomUrl).catch(() => undefined);
      if (!read) await new Promise((resolve) => setTimeout(resolve, 1000));
      reading = false;
      if (read && (!shown || compareRooms(read, shown) > 0)) show(read);
      const bogus = (m: RoomUpdate) => read && before.has(m) && m.document.version > read.document.version + 1;
      const waiting = early
        .splice(0)
        .filter((m) => !bogus(m))
        .sort(compareRooms);
      if (!shown && waiting.length) show(waiting.shift()!);
      if (shown) for (const room of waiting) take(room);
    };
    follower = await RoomClient.observe(broadcast, auctionId, {
      take: (text) => {
        const message = JSON.parse(text) as Received;
        if (message.type === 'room') take(message as RoomUpdate);
        return true;
      },
    });
    await reread();
    return follower;
  }

  /** How many times a follower read the room (RoomClient.follow). */
  reads = 0;

  private keep(message: Received): void {
    this.messages.push(message);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Sends a message of the protocol (or, to test the room, any text). */
  send(message: IncomingMessage | string): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message from index `from` on that `match`es, waiting up to `ms`. */
  async next<M extends Received>(match: (m: Received) => m is M, from?: number, ms?: number): Promise<M>;
  async next(match: (m: Received) => boolean, from?: number, ms?: number): Promise<Received>;
  async next(match: (m: Received) => boolean, from = 0, ms = 30_000): Promise<Received> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such message in ${ms} ms; last: ${JSON.stringify(this.messages.at(-1))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * Sends `message` and waits for the answer of type `type` that follows; an `error` answer instead rejects with a
   * `RoomError` (unless `error` is what is awaited).
   */
  async ask<T extends Received['type']>(
    message: IncomingMessage | string,
    type: T,
    ms = 30_000,
  ): Promise<ReceivedOf<T>> {
    const from = this.messages.length;
    this.send(message);
    const answer: Received = await this.next((m) => m.type === type || m.type === 'error', from, ms);
    if (answer.type === 'error' && type !== 'error') throw new RoomError(answer.errors);
    return answer as ReceivedOf<T>;
  }

  /** The latest room document received. */
  get room(): RoomUpdate | undefined {
    return this.messages.filter(isRoom).at(-1);
  }

  /** Waits for a room document that satisfies `match` (the latest one first). */
  async roomWhere(match: (room: RoomUpdate) => boolean, ms = 60_000): Promise<RoomUpdate> {
    const from = this.messages.map((m, i) => (isRoom(m) ? i : 0)).reduce((a, b) => Math.max(a, b), 0);
    return this.next((m): m is RoomUpdate => isRoom(m) && match(m), from, ms);
  }

  close(): void {
    this.ws.close();
  }
}
