/**
 * One client process of the room load (bench/room/room-load.ts forks several): it holds its share of the WebSocket
 * connections of every auction and answers the driver's commands over IPC. Times are `performance.timeOrigin +
 * performance.now()` (milliseconds since the epoch, sub-millisecond), the same clock in every process.
 *
 * A connection is "told" version v when a room message of version v or newer arrives on it. Observers read the version
 * from the message text (the first `"version":N`, the document's own: an escaped quote in a display text never matches)
 * and keep the text; a real observer's JSON.parse runs on its own machine, not on the 2 CPUs the server uses here
 * (ROOM_CLIENT_PARSE=1 parses every message anyway). Bidder connections parse every message: they bid from it.
 * Each connection is the room client the CLI and the tests use (client/room-client.ts), which leaves the room
 * documents to this file (`take`) and keeps the answers.
 */
import { type Broadcast, RoomClient, type RoomDocument } from '../../client/room-client.ts';
import type { Stage } from '../../functions/domain/room/model.ts';

export type Command =
  | { op: 'open'; conns: Spec[] }
  | { op: 'resume' }
  | { op: 'bid'; key: string; id: number; above: number; timeoutMs: number }
  | { op: 'seen'; key: string; auction: number; version: number; timeoutMs: number }
  | { op: 'final'; key: string; auction: number; timeoutMs: number }
  | { op: 'close' };

/**
 * A connection to open: a bidder's (or, with ROOM_OBSERVE=socket, an observer's) on the room's socket at `url`; an
 * observer's on the broadcast (AppSync Events' protocol, the local stand-in) when `broadcast` names it.
 */
export interface Spec {
  id: number;
  auction: number;
  url: string;
  bidder: boolean;
  broadcast?: Broadcast & { auctionId: string };
}

export type Reply =
  | { op: 'opened'; failed: string[] }
  | { op: 'resumed' }
  | { op: 'bid'; key: string; sent: number; answered: number; outcome: string; amount: number; version: number }
  | { op: 'seen'; key: string; times: number[]; missing: number }
  | {
      op: 'final';
      key: string;
      ended: number;
      results: Record<string, number>;
      total: number;
      /** The largest final room message of an observer and of a bidder (bytes). */
      bytes: { observer: number; bidder: number };
    };

const now = () => performance.timeOrigin + performance.now();
const PARSE_ALL = process.env.ROOM_CLIENT_PARSE === '1';
const VERSION = /"version":(\d+)/;

interface Conn {
  id: number;
  /** On the room's socket (resumes for the current document); else on the broadcast (told changes only). */
  socket: boolean;
  auction: number;
  bidder: boolean;
  client: RoomClient;
  /** The newest version seen, and when each version was first covered (told it or a newer one). */
  max: number;
  told: Map<number, number>;
  /** The last room message (text), and parsed for bidders. */
  last?: string;
  doc?: RoomDocument;
  /** The last message is the final document (ended, names revealed); looked at once the driver waits for the end. */
  over?: boolean;
}

const conns = new Map<number, Conn>();
let watchEnd = false;
const byAuction = new Map<number, Conn[]>();
const send = (reply: Reply): void => void process.send!(reply);

/** A room document on `c`: taken here (true), every other message left to the client. */
function onMessage(c: Conn, text: string): boolean {
  if (!text.startsWith('{"type":"room"')) return false;
  const at = now();
  const version = Number(VERSION.exec(text)?.[1] ?? 0);
  c.last = text;
  if (watchEnd) c.over = text.includes('"namesRevealed":true') && text.includes('"ended":{');
  if (c.bidder || PARSE_ALL) c.doc = JSON.parse(text).document;
  if (version > c.max) {
    for (let v = c.max + 1; v <= version; v++) c.told.set(v, at);
    c.max = version;
  }
  for (const scope of ['all', `auction ${c.auction}`, `conn ${c.id}`]) for (const w of waiters.get(scope) ?? []) w();
  return true;
}

/** Waiters by what they watch: every connection, one auction's, one connection. */
const waiters = new Map<string, Set<() => void>>();
/** Resolves when `done()` holds (checked on each room message within `scope`) or after `timeoutMs`. */
function until(scope: string, done: () => boolean, timeoutMs: number): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const mine = waiters.get(scope) ?? new Set();
    waiters.set(scope, mine);
    const finish = () => {
      mine.delete(check);
      clearTimeout(timer);
      resolve();
    };
    const check = () => done() && finish();
    const timer = setTimeout(finish, timeoutMs);
    mine.add(check);
  });
}

async function open(spec: Spec): Promise<void> {
  // The room sends nothing before the connection's first message (nor the broadcast before a change), so no document
  // comes before `c` is set.
  let c: Conn | undefined;
  const take = (text: string) => onMessage(c!, text);
  const client = spec.broadcast
    ? await RoomClient.observe(spec.broadcast, spec.broadcast.auctionId, { take })
    : await RoomClient.open(spec.url, { perMessageDeflate: false, take });
  c = { ...spec, socket: !spec.broadcast, client, max: 0, told: new Map() };
  conns.set(c.id, c);
  byAuction.set(c.auction, [...(byAuction.get(c.auction) ?? []), c]);
}

const stage = (doc: RoomDocument | undefined): Stage | undefined => doc?.stages[doc.currentStage - doc.stagesFrom];

async function handle(command: Command): Promise<void> {
  switch (command.op) {
    case 'open': {
      const failed: string[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < command.conns.length) {
            const spec = command.conns[next++];
            await open(spec).catch((error: Error) => failed.push(error.message));
          }
        }),
      );
      return send({ op: 'opened', failed: failed.slice(0, 5) });
    }
    case 'resume': {
      const onSocket = [...conns.values()].filter((c) => c.socket);
      for (const c of onSocket) c.client.send({ action: 'resume' });
      await until('all', () => onSocket.every((c) => c.last !== undefined), 600_000);
      return send({ op: 'resumed' });
    }
    case 'bid': {
      // The open round's amount, sent as soon as a round above the last accepted bid shows on this connection.
      const c = conns.get(command.id)!;
      const ready = () => stage(c.doc)?.type === 'english' && (stage(c.doc)?.amount ?? 0) > command.above;
      await until(`conn ${c.id}`, ready, command.timeoutMs);
      if (!ready())
        return send({ ...command, op: 'bid', sent: 0, answered: 0, outcome: 'no round', amount: 0, version: 0 });
      const amount = stage(c.doc)!.amount!;
      const version = c.doc!.version;
      const sent = now();
      const answer = await c.client.ask({ action: 'bid', amount }, 'bid', command.timeoutMs);
      return send({ op: 'bid', key: command.key, sent, answered: now(), outcome: answer.outcome, amount, version });
    }
    case 'seen': {
      const mine = byAuction.get(command.auction) ?? [];
      await until(`auction ${command.auction}`, () => mine.every((c) => c.max >= command.version), command.timeoutMs);
      const times = mine.flatMap((c) => (c.told.has(command.version) ? [c.told.get(command.version)!] : []));
      return send({ op: 'seen', key: command.key, times, missing: mine.length - times.length });
    }
    case 'final': {
      const mine = byAuction.get(command.auction) ?? [];
      const docOf = (c: Conn): RoomDocument | undefined => (c.last ? JSON.parse(c.last).document : undefined);
      watchEnd = true;
      for (const c of mine) c.over = !!c.last?.includes('"namesRevealed":true') && c.last.includes('"ended":{');
      const over = (c: Conn) => !!c.over;
      await until(`auction ${command.auction}`, () => mine.every(over), command.timeoutMs);
      const results: Record<string, number> = {};
      for (const c of mine) {
        const key = JSON.stringify(docOf(c)?.results ?? null);
        results[key] = (results[key] ?? 0) + 1;
      }
      const bytes = (bidder: boolean) =>
        Math.max(0, ...mine.filter((c) => c.bidder === bidder).map((c) => Buffer.byteLength(c.last ?? '')));
      return send({
        op: 'final',
        key: command.key,
        ended: mine.filter(over).length,
        results,
        total: mine.length,
        bytes: { observer: bytes(false), bidder: bytes(true) },
      });
    }
    case 'close': {
      for (const c of conns.values()) c.client.close();
      setTimeout(() => process.exit(0), 500);
    }
  }
}

process.on('message', (command: Command) => {
  handle(command).catch((error: Error) => {
    console.error(`room client ${process.pid}: ${error.stack}`);
    process.exit(1);
  });
});
