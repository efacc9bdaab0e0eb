/**
 * `npm run bench -- --webhooks`: change committed -> webhook received, on `npm start`'s stack (bin/serve.ts as a
 * child over its own in-memory DynamoDB Local: the change stream read every 200 ms, the delivery handler, the retry
 * sweep every second). WEBHOOK_SUBSCRIPTIONS subscriptions (default 1,000, 100 per key over 10 bench keys), of which
 * WEBHOOK_MATCHING (default 10) ask for `lot.*` and the others for asset and auction events only; lots are created at
 * WEBHOOK_RATE a second (default 100) for WEBHOOK_SECONDS (default 10). A receiver in this process (one HTTP server,
 * a path per subscription) records when each webhook came; the latency is from the change's `dateModified` (the
 * time the service gave the change, same clock) to its arrival. Lost: expected (change, subscription) pairs not
 * received once nothing more came for a minute.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseInstant } from '../functions/domain/kernel/time.ts';
import { putApiKey } from '../functions/store/api-keys.ts';
import { freePort, startDynamoDbLocal } from '../lib/local/dynamodb-local.ts';
import { aLot } from '../test/support/builders.ts';
import { startServer } from './local-server.ts';

export interface WebhookFigures {
  subscriptions: number;
  matching: number;
  rate: number;
  seconds: number;
  changes: number;
  expected: number;
  received: number;
  duplicates: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
  achievedRate: number;
  /** Seconds from the first change to the last delivery. */
  drainedIn: number;
  /** Deliveries a second, from the first change to the last delivery. */
  deliveryRate: number;
  /** DynamoDB requests of the delivery handler per delivery (the retry sweep's, which had nothing due, apart). */
  requestsPerDelivery: number;
  /** CPU of the server process (API, stream, deliveries) and of DynamoDB Local, per delivery. */
  serverCpuMs: number;
  dynamoCpuMs: number;
  /** The machine's 1-minute load average at the start and end. */
  load: [number, number];
  /** Creates answered 503 (not stored, sent again). */
  unavailable: number;
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
/** CPU milliseconds a process has used (user + system), from /proc (Linux). */
function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks (100 Hz)
  } catch {
    return NaN;
  }
}
/** A process and its children's ids (DynamoDB Local's JVM runs under a launcher). */
function withChildren(pid: number | undefined): number[] {
  if (!pid) return [];
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return [pid, ...children.flatMap((c) => withChildren(Number(c)))];
  } catch {
    return [pid];
  }
}

/**
 * The default size first; then, unless WEBHOOK_FIND_LIMIT=0, the rate doubled until change -> delivered p99 passes
 * 2 s (at most WEBHOOK_MAX_STEPS more runs, default 3), on the same server and subscriptions.
 */
export async function runWebhookBench(): Promise<WebhookFigures[]> {
  const subscriptions = Number(process.env.WEBHOOK_SUBSCRIPTIONS ?? 1000);
  const matching = Number(process.env.WEBHOOK_MATCHING ?? 10);
  const rate = Number(process.env.WEBHOOK_RATE ?? 100);
  const seconds = Number(process.env.WEBHOOK_SECONDS ?? 10);
  const findLimit = process.env.WEBHOOK_FIND_LIMIT !== '0';
  const maxSteps = Number(process.env.WEBHOOK_MAX_STEPS ?? 3);
  const dynamo = await startDynamoDbLocal();
  const port = await freePort();
  const table = 'bench-webhooks';
  const statsFile = join(mkdtempSync(join(tmpdir(), 'agora-webhooks-')), 'stats.json');
  const server = await startServer({
    port,
    dynamoEndpoint: dynamo.endpoint,
    table,
    env: { AGORA_WEBHOOK_STATS_FILE: statsFile },
  });
  const stop = () => {
    server.kill('SIGTERM');
    dynamo.stop();
    rmSync(dirname(statsFile), { recursive: true, force: true });
  };
  process.once('exit', stop);
  const base = `http://127.0.0.1:${port}`;
  process.env.TABLE_NAME = table;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  const keys = Array.from({ length: Math.ceil(subscriptions / 100) }, (_, i) => `bench-hooks-${i}`);
  for (const name of keys) await putApiKey(name, { name, role: 'broker', levels: '1234' });

  // The receiver: arrival time of each (subscription, webhook-id).
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  let latencies: number[] = [];
  let lastArrival = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const key = `${req.url}|${req.headers['webhook-id']}`;
      if (arrivals.has(key)) duplicates++;
      else {
        arrivals.set(key, at);
        const body = JSON.parse(Buffer.concat(chunks).toString());
        if (body.type?.startsWith('lot.')) {
          latencies.push(at - (parseInstant(body.data.dateModified) ?? 0) / 1000);
          lastArrival = at;
        }
      }
      res.writeHead(204).end();
    });
  });
  // Receivers keep connections alive, as the sender does.
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  let unavailable = 0;
  const post = async (path: string, data: unknown, key = 'broker', tries = 1): Promise<void> => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: basic(key), 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    // A 503 says nothing was stored and to send again (a write that went out late: docs/DESIGN.md §4): counted, sent again.
    if (res.status === 503 && tries < 50) {
      unavailable++;
      await new Promise((r) => setTimeout(r, 100 * tries));
      return post(path, data, key, tries + 1);
    }
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
  for (let i = 0; i < subscriptions; i++) {
    const events = i < matching ? ['lot.*'] : [i % 2 ? 'asset.*' : 'auction.updated'];
    await post('/api/0.1/subscriptions', { url: `${hook}/s${i}`, events }, keys[Math.floor(i / 100)]);
  }
  const stats = () => {
    try {
      return JSON.parse(readFileSync(statsFile, 'utf8')) as { deliveries: number; requests: number };
    } catch {
      return { deliveries: 0, requests: 0 };
    }
  };
  const dynamoPids = withChildren(dynamo.pid);
  const dynamoCpu = () => dynamoPids.reduce((sum, pid) => sum + (cpuMs(pid) || 0), 0);

  /** One run at `rate` changes a second: one lot created each (its create is the change). */
  const run = async (rate: number): Promise<WebhookFigures> => {
    latencies = [];
    duplicates = 0;
    unavailable = 0;
    const load0 = loadavg()[0]!;
    const total = rate * seconds;
    await new Promise((r) => setTimeout(r, 1500)); // the stats file of the run before is written
    const [stats0, server0, dynamo0] = [stats(), cpuMs(server.pid), dynamoCpu()];
    const started = Date.now();
    // At most 32 creates in flight: a server that cannot keep up lowers the rate done (reported), never refuses.
    const inFlight = new Set<Promise<void>>();
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      while (inFlight.size >= 32) await Promise.race(inFlight);
      const created = post('/api/0.1/lots', aLot()).finally(() => inFlight.delete(created));
      inFlight.add(created);
    }
    await Promise.all(inFlight);
    const achievedRate = total / ((Date.now() - started) / 1000);
    const expected = total * matching;
    // Lost: what has not come once nothing more came for a minute (late is not lost: the latencies say how late).
    let last = { count: -1, at: Date.now() };
    while (latencies.length < expected && Date.now() - last.at < 60_000) {
      if (latencies.length !== last.count) last = { count: latencies.length, at: Date.now() };
      await new Promise((r) => setTimeout(r, 200));
    }
    const [server1, dynamo1] = [cpuMs(server.pid), dynamoCpu()];
    await new Promise((r) => setTimeout(r, 1500)); // the stats file is written every second
    const stats1 = stats();
    const drainedIn = (lastArrival - started) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    const delivered = stats1.deliveries - stats0.deliveries;
    return {
      subscriptions,
      matching,
      rate,
      seconds,
      changes: total,
      expected,
      received: latencies.length,
      duplicates,
      lost: expected - latencies.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
      achievedRate: Math.round(achievedRate * 10) / 10,
      drainedIn: Math.round(drainedIn * 10) / 10,
      deliveryRate: Math.round(latencies.length / drainedIn),
      requestsPerDelivery: Math.round(((stats1.requests - stats0.requests) / Math.max(1, delivered)) * 1000) / 1000,
      serverCpuMs: Math.round(((server1 - server0) / Math.max(1, latencies.length)) * 100) / 100,
      dynamoCpuMs: Math.round(((dynamo1 - dynamo0) / Math.max(1, latencies.length)) * 100) / 100,
      load: [Math.round(load0 * 10) / 10, Math.round(loadavg()[0]! * 10) / 10],
      unavailable,
    };
  };

  const figures = [await run(rate)];
  console.log(webhookLines(figures).join('\n'));
  for (let step = 1; findLimit && step <= maxSteps && figures.at(-1)!.p99 <= 2000; step++) {
    figures.push(await run(rate * 2 ** step));
    console.log(webhookLines(figures.slice(-1)).slice(2).join('\n'));
  }
  receiver.close();
  stop();
  process.removeListener('exit', stop);
  return figures;
}

export const webhookLines = (all: WebhookFigures[]): string[] => [
  `| subscriptions (matching each change) | changes a second (asked, done; 503s sent again) | deliveries expected | received | duplicates | lost | deliveries a second | p50 | p99 | max | DynamoDB requests a delivery | CPU ms a delivery (server, DynamoDB Local) | load (start, end) |`,
  `|---|---|---|---|---|---|---|---|---|---|---|---|---|`,
  ...all.map(
    (f) =>
      `| ${f.subscriptions} (${f.matching}) | ${f.rate}, ${f.achievedRate}; ${f.unavailable} | ${f.expected} | ${f.received} | ${f.duplicates} | ${f.lost} | ${f.deliveryRate} | ${Math.round(f.p50)} ms | ${Math.round(f.p99)} ms | ${Math.round(f.max)} ms | ${f.requestsPerDelivery} | ${f.serverCpuMs}, ${f.dynamoCpuMs} | ${f.load[0]}, ${f.load[1]} |`,
  ),
];
