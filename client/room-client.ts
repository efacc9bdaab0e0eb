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

const isRoom = (m: Received): m is RoomUpdate => m.type === 'room';

const parseBody = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text || undefined;
  }
};

export class RoomClient {
  /** What the room sent (but what `take` took), in order. */
  readonly messages: Received[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly ws: WebSocket,
    take: RoomClientOptions['take'],
  ) {
    ws.on('message', (data) => {
      const text = data.toString('utf8');
      if (take?.(text)) return;
      this.messages.push(JSON.parse(text) as Received);
      for (const wake of this.waiters.splice(0)) wake();
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
