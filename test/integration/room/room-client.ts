import WebSocket from 'ws';

/**
 * A test's WebSocket client of the auction room: connects with an auction id (an observer) or a bidder's
 * participation link (its query parameters, as the link carries them), keeps every message, and waits for the ones
 * a step needs. A refused handshake rejects with the HTTP status and body the room answered.
 */
export interface Refused {
  status: number;
  body: any;
}

export class RoomClient {
  readonly messages: any[] = [];
  private waiters: (() => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString('utf8')));
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** `ws://<service>/room?auction_id=<id>` plus the link's parameters (bidder_id, signature or hash). */
  static url(serviceUrl: string, auctionId: string, participationUrl?: string): string {
    const query = new URLSearchParams({ auction_id: auctionId });
    if (participationUrl) for (const [k, v] of new URL(participationUrl).searchParams) query.set(k, v);
    return `${serviceUrl.replace(/^http/, 'ws')}/room?${query}`;
  }

  static open(url: string): Promise<RoomClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new RoomClient(ws)));
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        res.on('end', () => reject({ status: res.statusCode, body: text ? JSON.parse(text) : undefined } as Refused));
      });
      ws.once('error', (error) => reject(error));
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message from `from` on that `match`es, waiting up to `ms`. */
  async next(match: (m: any) => boolean, from = 0, ms = 30_000): Promise<any> {
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

  /** Sends `message` and waits for the answer of type `type` that follows. */
  async ask(message: unknown, type: string): Promise<any> {
    const from = this.messages.length;
    this.send(message);
    return this.next((m) => m.type === type, from);
  }

  /** The latest room document received. */
  get room(): any {
    return this.messages.filter((m) => m.type === 'room').at(-1);
  }

  /** Waits for a room document that satisfies `match` (the latest one first). */
  async roomWhere(match: (room: any) => boolean, ms = 60_000): Promise<any> {
    const rooms = this.messages.map((m, i) => (m.type === 'room' ? i : -1)).filter((i) => i >= 0);
    const from = rooms.length ? rooms[rooms.length - 1] : 0;
    return this.next((m) => m.type === 'room' && match(m), from, ms);
  }

  close(): void {
    this.ws.close();
  }
}
