/**
 * The auction room under load, on this machine (`npm run bench -- --room`, or `npx tsx bench/room/room-load.ts` to
 * print only). Three kinds of process, as in use: `npm start`'s server (bin/serve.ts: the local gateway, the room's
 * WebSocket server and its handlers, its own DynamoDB Local), ROOM_CLIENTS client processes (bench/room/clients.ts)
 * holding the connections, and this driver, which sets the auctions up through the API and tells the clients when to
 * bid. ROOM_AUCTIONS landlease auctions, each with ROOM_BIDDERS real bids (the bidders' participation links) and as
 * many bidder connections, and ROOM_OBSERVERS observer connections; in each auction the bidders take turns bidding
 * each new round's amount as soon as it opens, ROOM_BIDS accepted bids per auction, the auctions at once.
 *
 * For each accepted bid: when each connection of its auction was told (a room message of the new version or newer
 * arrived), from the bid sent and from its acceptance arriving at the bidder. Then the end: every connection holds the
 * final document (ended, names revealed), the same results everywhere, one winner, no acknowledged bid missing. Beside
 * it, in the same run: a raw conditional write to the same DynamoDB Local, and a raw WebSocket send on loopback.
 * ROOM_PROFILE=1 runs the server under --cpu-prof and summarizes where its CPU went (.build/room-profile/).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import WebSocket, { WebSocketServer } from 'ws';
import { RoomClient } from '../../client/room-client.ts';
import { LOCAL_EVENTS_API_KEY } from '../../lib/local/event-api.ts';
import { startLocalRuntime } from '../../functions/platform/config.ts';
import { freePort, startDynamoDbLocal } from '../../lib/local/dynamodb-local.ts';
import { activeBid, AUCTIONS, rectifyingAuction } from '../../test/support/auctions.ts';
import { client } from '../../test/support/http.ts';
import { linkOf } from '../../test/integration/room/room-helpers.ts';
import type { Command, Reply, Spec } from './clients.ts';
import { placeOf, type ProfileNode, startServer } from '../local-server.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PROFILE_DIR = join(ROOT, '.build', 'room-profile');
const TABLE = 'room-bench';

export interface RoomLoadSettings {
  auctions: number;
  bidders: number;
  observers: number;
  bids: number;
  clients: number;
  /** The sandbox accelerator: a landlease round lasts 180 s / it, a pause 10 s / it, the whole auction 30 min / it. */
  accelerator: number;
  profile: boolean;
  /** Where observers watch: the broadcast (AppSync Events' stand-in, the default) or the room's socket (as before). */
  observe: 'broadcast' | 'socket';
}

export const roomLoadSettings = (env = process.env): RoomLoadSettings => ({
  auctions: Number(env.ROOM_AUCTIONS ?? 1),
  bidders: Number(env.ROOM_BIDDERS ?? 100),
  observers: Number(env.ROOM_OBSERVERS ?? 1000),
  bids: Number(env.ROOM_BIDS ?? 20),
  clients: Number(env.ROOM_CLIENTS ?? 3),
  accelerator: Number(env.ROOM_ACCELERATOR ?? 20),
  profile: env.ROOM_PROFILE === '1',
  observe: env.ROOM_OBSERVE === 'socket' ? 'socket' : 'broadcast',
});

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

export interface RoomLoadFigures {
  settings: RoomLoadSettings;
  at: string;
  connections: number;
  setupS: number;
  connectS: number;
  accepted: number;
  refused: number;
  fromSent: Percentiles;
  fromAccepted: Percentiles;
  /** Per auction: the slowest auction's p99 from acceptance. */
  worstAuctionP99: number;
  delivered: number;
  expected: number;
  lost: number;
  /** Publishes to the observers' channel per accepted bid (each counted by a subscriber of every room channel). */
  publishesPerBid: number;
  winners: number[];
  finalEqual: boolean;
  finalEnded: number;
  /** The largest final room message of an observer and of a bidder (bytes). */
  messageBytes: number[];
  rawWrite: Percentiles;
  rawSend: Percentiles;
  loadBefore: number[];
  loadAfter: number[];
  cpus: number;
  node: string;
  profile?: string[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;
export function percentiles(xs: number[]): Percentiles {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? round2(s[Math.min(s.length - 1, Math.floor(p * s.length))]) : Number.NaN);
  return { p50: at(0.5), p99: at(0.99), max: s.length ? round2(s[s.length - 1]) : Number.NaN, n: s.length };
}

/** A client process and its commands: each answered once, in order for the keyless ones. */
class Clients {
  private pending = new Map<string, (reply: any) => void>();
  private next: ((reply: any) => void)[] = [];
  constructor(readonly child: ChildProcess) {
    child.on('message', (reply: Reply) => {
      const key = 'key' in reply ? reply.key : undefined;
      const resolve = key ? this.pending.get(key) : this.next.shift();
      if (key) this.pending.delete(key);
      resolve?.(reply);
    });
  }
  ask<R extends Reply>(command: Command): Promise<R> {
    return new Promise((resolve) => {
      if ('key' in command) this.pending.set(command.key, resolve as (r: any) => void);
      else this.next.push(resolve as (r: any) => void);
      this.child.send(command);
    });
  }
}

export async function runRoomLoad(settings = roomLoadSettings()): Promise<RoomLoadFigures> {
  const started = performance.now();
  const loadBefore = loadavg();
  const dynamo = await startDynamoDbLocal();
  const port = await freePort();
  if (settings.profile) {
    rmSync(PROFILE_DIR, { recursive: true, force: true });
    mkdirSync(PROFILE_DIR, { recursive: true });
  }
  const server = await startServer({
    port,
    dynamoEndpoint: dynamo.endpoint,
    table: TABLE,
    profileDir: settings.profile ? PROFILE_DIR : undefined,
    env: { ROOM_BOT_INTERVAL_MS: '500', AGORA_LOG_LEVEL: 'WARN' },
  });
  const clients = Array.from(
    { length: settings.clients },
    () =>
      new Clients(
        fork(join(ROOT, 'bench/room/clients.ts'), [], {
          cwd: ROOT,
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        }),
      ),
  );
  const stopAll = () => {
    server.kill('SIGTERM');
    for (const c of clients) c.child.kill('SIGTERM');
    dynamo.stop();
  };
  process.once('exit', stopAll);
  const url = `http://127.0.0.1:${port}`;
  // The bids' eligibility documents are signed URLs of the server's document service (test/support/builders.ts).
  startLocalRuntime({ docserviceUrl: `${url}/api/docservice` });
  const api = client(() => url);
  let offset = 0;
  const passTo = async (instant: string) => {
    offset = Math.max(offset, Date.parse(instant) - Date.now() + 1_000);
    await fetch(`${url}/_local/clock`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offsetMs: offset }),
    });
  };
  const bot = async (name: string) => {
    const res = await fetch(`${url}/_local/bots/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    if (res.status !== 200) throw new Error(`bot ${name}: ${res.status} ${await res.text()}`);
  };

  // Raw costs first, alone: a conditional write to this DynamoDB Local, a WebSocket send on loopback.
  const rawWrite = percentiles(await rawWrites(dynamo.endpoint, 200));
  const rawSend = percentiles(await rawSends(200));

  // The auctions, created at once (their rooms start within a second of each other), each with its bids.
  const A = settings.auctions;
  const auctions = await Promise.all(
    Array.from({ length: A }, () =>
      rectifyingAuction(api, { procurementMethodDetails: `quick, accelerator=${settings.accelerator}` }),
    ),
  );
  const latest = (pick: (a: any) => string) =>
    new Date(Math.max(...auctions.map((a) => Date.parse(pick(a))))).toISOString();
  await passTo(latest((a) => a.auction.rectificationPeriod.endDate));
  await bot('chronograph');
  const bids: { id: string; token: string; as: string }[][] = await Promise.all(
    auctions.map(async (a) => {
      const mine = [];
      for (let i = 0; i < settings.bidders; i++)
        mine.push({ ...(await activeBid(api, a.id, i + 1, 'broker2')), as: 'broker2' });
      return mine;
    }),
  );
  await passTo(latest((a) => a.auction.tenderPeriod.endDate));
  await bot('chronograph');
  await passTo(latest((a) => a.auction.enquiryPeriod.endDate));
  await bot('chronograph');
  const starts = await Promise.all(
    auctions.map(async (a) => Date.parse((await api.get(`${AUCTIONS}/${a.id}`)).body.data.auctionPeriod.startDate)),
  );
  // Connecting takes real time (about 10 ms a connection here), which the service clock passes too: the rooms are
  // planned that long before their start, or the first rounds would end unbid while the audience still connects.
  const margin = Math.max(60_000, 20 * settings.auctions * (settings.bidders + settings.observers));
  const serviceNow = Date.now() + offset;
  if (Math.min(...starts) - margin < serviceNow)
    console.error(
      `room load: the rooms start ${Math.round((Math.min(...starts) - serviceNow) / 1000)} s after their planning, less than the ${margin / 1000} s the connections may take`,
    );
  await passTo(new Date(Math.min(...starts) - margin).toISOString());
  await bot('room');

  // The connections, spread over the client processes: bidders by their participation links, then observers.
  const wsBase = `${url.replace(/^http/, 'ws')}/room`;
  const specs: Spec[] = [];
  const broadcast = { url: `${url.replace(/^http/, 'ws')}/event/realtime`, apiKey: LOCAL_EVENTS_API_KEY };
  const bidderConns: number[][] = auctions.map(() => []);
  for (const [k, a] of auctions.entries()) {
    for (const bid of bids[k]) {
      const q = new URL(await linkOf(api, AUCTIONS, a.id, bid)).searchParams;
      bidderConns[k].push(specs.length);
      specs.push({
        id: specs.length,
        auction: k,
        url: `${wsBase}?auction_id=${a.id}&bidder_id=${q.get('bidder_id')}&hash=${q.get('hash')}`,
        bidder: true,
      });
    }
    for (let i = 0; i < settings.observers; i++)
      specs.push({
        id: specs.length,
        auction: k,
        url: `${wsBase}?auction_id=${a.id}`,
        bidder: false,
        ...(settings.observe === 'broadcast' && { broadcast: { ...broadcast, auctionId: a.id } }),
      });
  }
  // Every publish, on every room channel (a wildcard subscription): how many a bid costs.
  const publishes = new Map<string, number>();
  const counter = await RoomClient.observe(broadcast, '*', {
    take: (text) => {
      const version = /"version":(\d+)/.exec(text)?.[1];
      const auction = /"auctionId":"(\w+)"/.exec(text)?.[1];
      publishes.set(`${auction} ${version}`, (publishes.get(`${auction} ${version}`) ?? 0) + 1);
      return true;
    },
  });
  const holder = (id: number) => clients[id % clients.length];
  const setupS = (performance.now() - started) / 1000;
  const connecting = performance.now();
  const opened = await Promise.all(
    clients.map((c, i) =>
      c.ask<Extract<Reply, { op: 'opened' }>>({ op: 'open', conns: specs.filter((s) => s.id % clients.length === i) }),
    ),
  );
  const failed = opened.flatMap((o) => o.failed);
  if (failed.length) throw new Error(`connections refused: ${failed.join('; ')}`);
  await Promise.all(clients.map((c) => c.ask({ op: 'resume' })));
  const connectS = (performance.now() - connecting) / 1000;
  await passTo(new Date(Math.max(...starts) - 500).toISOString());

  // Each auction: bidders take turns; after each accepted bid, wait until every connection was told.
  const fromSent: number[] = [];
  const fromAccepted: number[] = [];
  const perAuctionP99: number[] = [];
  const window = { from: process.hrtime.bigint() / 1000n, to: 0n };
  const acknowledged: number[][] = auctions.map(() => []);
  const bidVersions: string[] = [];
  let refused = 0;
  let delivered = 0;
  let key = 0;
  await Promise.all(
    auctions.map(async (_a, k) => {
      const mine: number[] = [];
      let above = 0;
      for (let n = 0; n < settings.bids * 2 && acknowledged[k].length < settings.bids; n++) {
        const id = bidderConns[k][n % bidderConns[k].length];
        const bid = await holder(id).ask<Extract<Reply, { op: 'bid' }>>({
          op: 'bid',
          key: String(key++),
          id,
          above,
          timeoutMs: 30_000,
        });
        if (bid.outcome === 'no round') break;
        if (bid.outcome !== 'accepted') {
          refused++;
          continue;
        }
        above = bid.amount;
        acknowledged[k].push(bid.amount);
        bidVersions.push(`${auctions[k].id} ${bid.version + 1}`);
        const seen = await Promise.all(
          clients.map((c) =>
            c.ask<Extract<Reply, { op: 'seen' }>>({
              op: 'seen',
              key: String(key++),
              auction: k,
              version: bid.version + 1,
              timeoutMs: 60_000,
            }),
          ),
        );
        for (const t of seen.flatMap((s) => s.times)) {
          fromSent.push(t - bid.sent);
          fromAccepted.push(t - bid.answered);
          mine.push(t - bid.answered);
          delivered++;
        }
      }
      perAuctionP99.push(percentiles(mine).p99);
    }),
  );

  window.to = process.hrtime.bigint() / 1000n;

  // The end: no bid in the next round; every connection holds the final document.
  await passTo(new Date(Date.now() + offset + 600_000).toISOString());
  const finals = await Promise.all(
    auctions.map(async (_a, k) => {
      const replies = await Promise.all(
        clients.map((c) =>
          c.ask<Extract<Reply, { op: 'final' }>>({ op: 'final', key: String(key++), auction: k, timeoutMs: 180_000 }),
        ),
      );
      const results: Record<string, number> = {};
      for (const r of replies)
        for (const [text, count] of Object.entries(r.results)) results[text] = (results[text] ?? 0) + count;
      const bytes = (k: 'observer' | 'bidder') => Math.max(...replies.map((r) => r.bytes[k]));
      return { ended: replies.reduce((s, r) => s + r.ended, 0), results, bytes: [bytes('observer'), bytes('bidder')] };
    }),
  );
  const final = await Promise.all(auctions.map(async (a) => (await api.get(`${AUCTIONS}/${a.id}`)).body.data));
  let lost = 0;
  const winners: number[] = [];
  for (const [k, f] of finals.entries()) {
    const texts = Object.keys(f.results);
    const results: any[] = JSON.parse(texts[0] ?? 'null') ?? [];
    const amounts = new Set(results.map((r) => r.amount));
    lost += acknowledged[k].filter((x) => !amounts.has(x)).length;
    const top = Math.max(...results.map((r) => r.amount));
    winners.push(results.filter((r) => r.amount === top).length);
    // The auction itself: the results the room posted, its highest bid the room's highest.
    const posted = Math.max(...(final[k].bids ?? []).map((b: any) => b.value?.amount ?? 0));
    if (acknowledged[k].length && posted !== top) lost++;
  }
  const finalEqual = finals.every((f) => Object.keys(f.results).length === 1);
  counter.close();
  await Promise.all(clients.map((c) => c.child.send({ op: 'close' })));
  const loadAfter = loadavg();
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  for (const c of clients) c.child.kill('SIGTERM');
  dynamo.stop();
  process.removeListener('exit', stopAll);
  const accepted = acknowledged.reduce((s, a) => s + a.length, 0);
  return {
    settings,
    at: new Date().toISOString(),
    connections: specs.length,
    setupS: round2(setupS),
    connectS: round2(connectS),
    accepted,
    refused,
    fromSent: percentiles(fromSent),
    fromAccepted: percentiles(fromAccepted),
    worstAuctionP99: Math.max(...perAuctionP99),
    delivered,
    expected: acknowledged.reduce((s, a) => s + a.length * (settings.bidders + settings.observers), 0),
    lost,
    publishesPerBid: round2(
      bidVersions.reduce((sum, v) => sum + (publishes.get(v) ?? 0), 0) / (bidVersions.length || 1),
    ),
    winners,
    finalEqual,
    finalEnded: finals.reduce((s, f) => s + f.ended, 0),
    messageBytes: [0, 1].map((i) => Math.max(...finals.map((f) => f.bytes[i]))),
    rawWrite,
    rawSend,
    loadBefore,
    loadAfter,
    cpus: cpus().length,
    node: process.version,
    ...(settings.profile && { profile: summarizeProfile(window) }),
  };
}

async function rawWrites(endpoint: string, n: number): Promise<number[]> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const key = { PK: `BENCH#${randomBytes(4).toString('hex')}`, SK: '#STATE' };
  const out: number[] = [];
  for (let v = 0; v < n; v++) {
    const t = performance.now();
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET version = :next',
        ConditionExpression: 'attribute_not_exists(version) OR version = :v',
        ExpressionAttributeValues: { ':v': v - 1, ':next': v },
      }),
    );
    out.push(performance.now() - t);
  }
  db.destroy();
  return out;
}

async function rawSends(n: number): Promise<number[]> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  const { port } = wss.address() as { port: number };
  const server = new Promise<WebSocket>((r) => wss.once('connection', r));
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  await new Promise((r) => ws.once('open', r));
  const peer = await server;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await new Promise<void>((resolve) => {
      ws.once('message', () => resolve());
      peer.send(JSON.stringify({ type: 'room', i }));
    });
    out.push(performance.now() - t);
  }
  ws.close();
  wss.close();
  return out;
}

/** The functions whose time (with what they call) says what a delivery costs. */
const INCLUSIVE = [
  'sendTo',
  'tell',
  'roomMessages',
  'documentTexts',
  'broadcast',
  'roomMessage',
  'publicDocument',
  'bidderDocument',
  'connections',
  'sealedBids',
  'fanOut',
  'send',
  'judge',
  'transition',
  'documentFor',
];

/**
 * The server main thread's CPU during the bids (`window`: CLOCK_MONOTONIC microseconds, the profile's own time base):
 * self time by place, and the time inside the functions above (their synchronous part: what runs after an await is
 * counted where the promise resumes).
 */
function summarizeProfile(window: { from: bigint; to: bigint }): string[] {
  const file = readdirSync(PROFILE_DIR).find((f) => f.endsWith('.0.001.cpuprofile')) ?? readdirSync(PROFILE_DIR)[0];
  const profile = JSON.parse(readFileSync(join(PROFILE_DIR, file), 'utf8')) as {
    nodes: ProfileNode[];
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  let at = profile.startTime;
  const inWindow = profile.timeDeltas.map((dt) => {
    at += dt;
    return at >= Number(window.from) && at <= Number(window.to);
  });
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let wall = 0;
  profile.samples.forEach((id, i) => {
    if (!inWindow[i]) return;
    const dt = profile.timeDeltas[i] ?? 0;
    wall += dt;
    const frame = nodes.get(id)!.callFrame;
    const place = placeOf(frame, 2);
    self.set(place, (self.get(place) ?? 0) + dt);
    if (place === 'native (idle)' || place === 'native (program)') return;
    const names = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = nodes.get(at)!.callFrame;
      if (INCLUSIVE.includes(f.functionName) && (f.url.includes('/functions/') || f.url.includes('/lib/local/')))
        names.add(`${f.functionName} (${placeOf(f, 2)})`);
    }
    for (const name of names) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
  });
  for (const idle of ['native (idle)', 'native (program)']) self.delete(idle);
  const busy = [...self.values()].reduce((a, b) => a + b, 0);
  const share = (us: number) => `${((100 * us) / busy).toFixed(1)} %`;
  return [
    `server main thread during the bids: ${(wall / 1e6).toFixed(2)} s, busy ${(busy / 1e6).toFixed(2)} s (profile ${relative(ROOT, join(PROFILE_DIR, file))})`,
    'self time by place:',
    ...[...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 18)
      .map(([p, us]) => `  ${share(us).padStart(7)}  ${(us / 1e6).toFixed(2)} s  ${p}`),
    'inclusive time of the room functions:',
    ...[...inclusive]
      .sort((a, b) => b[1] - a[1])
      .map(([p, us]) => `  ${share(us).padStart(7)}  ${(us / 1e6).toFixed(2)} s  ${p}`),
  ];
}

const fmt = (p: Percentiles) => `p50 ${p.p50} ms, p99 ${p.p99} ms, max ${p.max} ms`;

/** The figures as printed lines (the console) and as the Room section of bench/RESULTS.md. */
export function roomLines(f: RoomLoadFigures): string[] {
  const s = f.settings;
  return [
    `ROOM LOAD ${f.at}: ${s.auctions} auction(s) × (${s.bidders} bidders + ${s.observers} observers) = ${f.connections} connections, ${s.clients} client processes`,
    `  set-up ${f.setupS} s; connect + resume of all ${f.connectS} s`,
    `  accepted bids ${f.accepted} (${s.bids} per auction asked; ${f.refused} refused)`,
    `  bid accepted -> every connection told: ${fmt(f.fromAccepted)} (worst auction's p99 ${round2(f.worstAuctionP99)} ms)`,
    `  bid sent -> every connection told:     ${fmt(f.fromSent)}`,
    `  observers on the ${s.observe}; publishes to the observers' channel per accepted bid ${f.publishesPerBid}`,
    `  deliveries ${f.delivered} of ${f.expected}; bids lost ${f.lost}; winners per auction ${[...new Set(f.winners)].join(', ')}; final documents equal ${f.finalEqual} (${f.finalEnded} of ${f.connections} ended, names revealed)`,
    `  final room message: ${f.messageBytes[0]} bytes to an observer, ${f.messageBytes[1]} to a bidder`,
    `  raw conditional write (DynamoDB Local UpdateItem): ${fmt(f.rawWrite)}`,
    `  raw WebSocket send on loopback (send -> received): ${fmt(f.rawSend)}`,
    `  load average ${f.loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${f.loadAfter.map((l) => l.toFixed(2)).join(' ')} after; ${f.cpus} CPUs; Node ${f.node}`,
    ...(f.profile ?? []),
  ];
}

const n = (x: number) => x.toLocaleString('en-US');
/** The heading of a run's section in bench/RESULTS.md: one section per size, so runs of different sizes sit side by side. */
export const roomHeading = (s: RoomLoadSettings) =>
  `## Room: ${s.auctions} auction${s.auctions === 1 ? '' : 's'} × (${s.bidders} bidders + ${n(s.observers)} observers)`;

/** The Room section of bench/RESULTS.md for one run. */
export function roomSection(f: RoomLoadFigures): string {
  const s = f.settings;
  const ms = (p: Percentiles) => `p50 **${p.p50}** ms, p99 **${p.p99}** ms, max ${p.max} ms`;
  return [
    roomHeading(s),
    '',
    `\`npm run bench -- --room\` (bench/room/room-load.ts) on ${f.at}: \`npm start\`'s server (bin/serve.ts, its own DynamoDB Local in ` +
      `memory) in one process, the ${n(f.connections)} WebSocket connections in ${s.clients} client processes (bench/room/clients.ts), the driver in another; ` +
      `all on this machine's ${f.cpus} CPUs. ROOM_AUCTIONS=${s.auctions} ROOM_BIDDERS=${s.bidders} ROOM_OBSERVERS=${s.observers} ROOM_BIDS=${s.bids} ROOM_OBSERVE=${s.observe} ` +
      `ROOM_CLIENTS=${s.clients} ROOM_ACCELERATOR=${s.accelerator}. Each landlease auction has ${s.bidders} real bids (one bidder connection each, ` +
      "by its participation link); its bidders take turns bidding each new round's amount as soon as it opens; the auctions run at once. " +
      '"Told": a room message of the new version (or newer) arrived on the connection; times on one clock across the processes.',
    '',
    '| measure | figure |',
    '|---|---|',
    `| connections | ${n(f.connections)} (${s.auctions} × (${s.bidders} bidders + ${n(s.observers)} observers)) |`,
    `| accepted bids | ${f.accepted} (${s.bids} per auction asked; ${f.refused} refused) |`,
    `| bid accepted (its answer at the bidder) → every connection told | ${ms(f.fromAccepted)}${s.auctions > 1 ? `; slowest auction's p99 ${round2(f.worstAuctionP99)} ms` : ''} |`,
    `| bid sent → every connection told | ${ms(f.fromSent)} |`,
    `| observers watch | ${s.observe === 'broadcast' ? "the broadcast (AppSync Events' protocol: the local stand-in, lib/local/event-api.ts)" : "the room's socket (one PostToConnection each)"} |`,
    `| publishes to the observers' channel per accepted bid | ${f.publishesPerBid} |`,
    `| deliveries received / expected | ${n(f.delivered)} / ${n(f.expected)} |`,
    `| bids lost | ${f.lost} |`,
    `| winners per auction | ${[...new Set(f.winners)].join(', ')} |`,
    `| final documents equal | ${f.finalEqual ? 'yes' : 'NO'} (${n(f.finalEnded)} of ${n(f.connections)} hold the ended document with names revealed) |`,
    `| room message | ${n(f.messageBytes[0])} bytes to an observer, ${n(f.messageBytes[1])} to a bidder (the final document) |`,
    `| raw conditional write (DynamoDB Local UpdateItem, same run) | p50 ${f.rawWrite.p50} ms, p99 ${f.rawWrite.p99} ms |`,
    `| raw WebSocket send on loopback (send → received, same run) | p50 ${f.rawSend.p50} ms, p99 ${f.rawSend.p99} ms |`,
    `| set-up (API) / connect + resume of all | ${f.setupS} s / ${f.connectS} s |`,
    `| load average (1/5/15 min) before / after | ${f.loadBefore.map((l) => l.toFixed(2)).join(' ')} / ${f.loadAfter.map((l) => l.toFixed(2)).join(' ')} |`,
    `| CPUs, Node | ${f.cpus}, ${f.node} |`,
    '',
    ...(f.profile ? ['```', ...f.profile, '```', ''] : []),
  ].join('\n');
}

/** `text` with the section under `heading` replaced by `section` (appended when absent). */
export function replaceSection(text: string, heading: string, section: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return `${text.trimEnd()}\n\n${section}`;
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(0, start) + section + (end < 0 ? '' : text.slice(end + 1));
}

/** Every Room section of `text` (a full bench run keeps them). */
export function roomSections(text: string): string[] {
  return text
    .split(/\n(?=## )/)
    .filter((part) => part.startsWith('## Room'))
    .map((part) => `${part.trimEnd()}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const figures = await runRoomLoad();
  console.log(roomLines(figures).join('\n'));
  process.exit(0);
}
