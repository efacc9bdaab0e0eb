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
import { Worker } from 'node:worker_threads';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseInstant } from '../functions/domain/kernel/time.ts';
import { putApiKey } from '../functions/store/api-keys.ts';
import { documentClient } from '../functions/store/client.ts';
import { freePort, startDynamoDbLocal } from '../lib/local/dynamodb-local.ts';
import { aLot } from '../test/support/builders.ts';
import { startServer } from './local-server.ts';
import type { Arrival } from './webhook-receiver.ts';

export interface WebhookFigures {
  subscriptions: number;
  matching: number;
  rate: number;
  seconds: number;
  changes: number;
  expected: number;
  received: number;
  duplicates: number;
  /** Each duplicate: when its copies came (ms after the first) and its delivery's attempts as recorded. */
  duplicatesTraced: { subscriptionId: string; webhookId: string; arrivals: number[]; attempts: string[] }[];
  lost: number;
  p50: number;
  p99: number;
  max: number;
  achievedRate: number;
  /** Seconds from the first change to the last delivery. */
  drainedIn: number;
  /** Deliveries a second, from the first change to the last delivery. */
  deliveryRate: number;
  /**
   * Deliveries a second while they flowed: the middle 80 % of them (from the 10th to the 90th percentile of their
   * arrivals) over the time they took. `deliveryRate` counts the first change's wait and the last one's tail too, so
   * at the default size it stays below 1,000 however fast each delivery is.
   */
  sustainedRate: number;
  /** DynamoDB requests of the delivery handler per delivery (the retry sweep's, which had nothing due, apart). */
  requestsPerDelivery: number;
  /** CPU of the server process (API, stream, deliveries) and of DynamoDB Local, per delivery. */
  serverCpuMs: number;
  dynamoCpuMs: number;
  /** CPU of the bench's own process (the creates' client and the receivers' thread), per delivery. */
  benchCpuMs: number;
  /** The machine's 1-minute load average at the start and end. */
  load: [number, number];
  /** Creates answered 503 (not stored, sent again). */
  unavailable: number;
  /** The API's answers (creates, and with --hostile the PATCHes), p50 and p99 in ms. */
  api: [number, number];
  /** --hostile: the run with one hanging and the refusing subscriptions beside (else the one without). */
  hostile?: boolean;
  /** --hostile: how many refusing subscriptions were beside (WEBHOOK_REFUSING, default 100: one key's cap). */
  refusing?: number;
  /** --hostile: items on the webhooks' work index once the refusing ones were deleted (the hanging one's cursor: 1). */
  workAfterDelete?: number;
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
/** Deliveries a second over the middle 80 % of the arrivals (`sustainedRate`). */
function sustained(arrivals: readonly number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  const [from, to] = [Math.floor(sorted.length * 0.1), Math.floor(sorted.length * 0.9)];
  const seconds = ((sorted[to] ?? 0) - (sorted[from] ?? 0)) / 1000;
  return seconds > 0 ? Math.round((to - from) / seconds) : NaN;
}
/** CPU milliseconds this process has used, its threads included. */
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
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
export async function runWebhookBench(hostile = false): Promise<WebhookFigures[]> {
  const subscriptions = Number(process.env.WEBHOOK_SUBSCRIPTIONS ?? 1000);
  const matching = Number(process.env.WEBHOOK_MATCHING ?? 10);
  const rate = Number(process.env.WEBHOOK_RATE ?? 100);
  const seconds = Number(process.env.WEBHOOK_SECONDS ?? 10);
  const findLimit = process.env.WEBHOOK_FIND_LIMIT !== '0';
  const maxSteps = Number(process.env.WEBHOOK_MAX_STEPS ?? 3);
  const refusingCount = Number(process.env.WEBHOOK_REFUSING ?? 100);
  const dynamo = await startDynamoDbLocal();
  const port = await freePort();
  const table = 'bench-webhooks';
  const statsFile = join(mkdtempSync(join(tmpdir(), 'agora-webhooks-')), 'stats.json');
  const server = await startServer({
    port,
    dynamoEndpoint: dynamo.endpoint,
    table,
    env: { AGORA_WEBHOOK_STATS_FILE: statsFile },
    // WEBHOOK_PROFILE_DIR: the server under --cpu-prof, its profile written there when the bench ends.
    profileDir: process.env.WEBHOOK_PROFILE_DIR,
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

  // The receivers, on their own thread (bench/webhook-receiver.ts): arrival times of each (subscription, webhook-id).
  const arrivals = new Map<string, number[]>();
  let duplicated: string[] = [];
  let latencies: number[] = [];
  let arrivedAt: number[] = [];
  let lastArrival = 0;
  const receiver = new Worker(new URL('./webhook-receiver.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  const receiverPort = await new Promise<number>((ok) =>
    receiver.on('message', (m: { port?: number; arrivals?: Arrival[] }) => {
      if (m.port) ok(m.port);
      for (const a of m.arrivals ?? []) {
        const key = `${a.path}|${a.id}`;
        const times = arrivals.get(key);
        if (times) {
          times.push(a.at);
          duplicated.push(key);
          continue;
        }
        arrivals.set(key, [a.at]);
        if (a.type.startsWith('lot.')) {
          latencies.push(a.at - (parseInstant(a.dateModified) ?? 0) / 1000);
          arrivedAt.push(a.at);
          lastArrival = Math.max(lastArrival, a.at);
        }
      }
    }),
  );
  const hook = `http://127.0.0.1:${receiverPort}`;

  let unavailable = 0;
  const post = async (path: string, data: unknown, key = 'broker', tries = 1): Promise<any> => {
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
    return res.json();
  };
  /** The subscription of each receiver's path. */
  const subscriptionOf = new Map<string, string>();
  for (let i = 0; i < subscriptions; i++) {
    const events = i < matching ? ['lot.*'] : [i % 2 ? 'asset.*' : 'auction.updated'];
    // The matching ones are the creator's (a lot's create is a draft's, heard by its owner's key alone), the rest the
    // bench keys'.
    const key = i < matching ? 'broker' : keys[Math.floor(i / 100)];
    const made = await post('/api/0.1/subscriptions', { url: `${hook}/s${i}`, events }, key);
    subscriptionOf.set(`/s${i}`, made.data.id);
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

  /**
   * One run at `rate` lots a second: one lot created each (its create is the change; with --hostile the lot is then
   * made pending too, a change every subscription hears).
   */
  const perLot = hostile ? 2 : 1;
  let apiMs: number[] = [];
  const timed = async (work: () => Promise<any>) => {
    const at = performance.now();
    const result = await work();
    apiMs.push(performance.now() - at);
    return result;
  };
  const change = async () => {
    const made = await timed(() => post('/api/0.1/lots', aLot()));
    if (!hostile) return;
    const res = await timed(() =>
      fetch(`${base}/api/0.1/lots/${made.data.id}`, {
        method: 'PATCH',
        headers: {
          authorization: basic('broker'),
          'x-access-token': made.access.token,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ data: { status: 'pending' } }),
      }),
    );
    if (res.status !== 200) throw new Error(`PATCH: ${res.status} ${await res.text()}`);
  };
  const run = async (rate: number, withHostile = false): Promise<WebhookFigures> => {
    latencies = [];
    arrivedAt = [];
    apiMs = [];
    duplicated = [];
    unavailable = 0;
    const load0 = loadavg()[0]!;
    const total = rate * seconds;
    await new Promise((r) => setTimeout(r, 1500)); // the stats file of the run before is written
    const [stats0, server0, dynamo0, bench0] = [stats(), cpuMs(server.pid), dynamoCpu(), ownCpuMs()];
    const started = Date.now();
    // At most 32 creates in flight: a server that cannot keep up lowers the rate done (reported), never refuses.
    const inFlight = new Set<Promise<void>>();
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      while (inFlight.size >= 32) await Promise.race(inFlight);
      const created = change().finally(() => inFlight.delete(created));
      inFlight.add(created);
    }
    await Promise.all(inFlight);
    const achievedRate = total / ((Date.now() - started) / 1000);
    const expected = total * matching * perLot;
    // Lost: what has not come once nothing more came for a minute (late is not lost: the latencies say how late).
    let last = { count: -1, at: Date.now() };
    while (latencies.length < expected && Date.now() - last.at < 60_000) {
      if (latencies.length !== last.count) last = { count: latencies.length, at: Date.now() };
      await new Promise((r) => setTimeout(r, 200));
    }
    const [server1, dynamo1, bench1] = [cpuMs(server.pid), dynamoCpu(), ownCpuMs()];
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
      duplicates: duplicated.length,
      duplicatesTraced: await trace(duplicated),
      lost: expected - latencies.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
      achievedRate: Math.round(achievedRate * 10) / 10,
      drainedIn: Math.round(drainedIn * 10) / 10,
      deliveryRate: Math.round(latencies.length / drainedIn),
      sustainedRate: sustained(arrivedAt),
      requestsPerDelivery: Math.round(((stats1.requests - stats0.requests) / Math.max(1, delivered)) * 1000) / 1000,
      serverCpuMs: Math.round(((server1 - server0) / Math.max(1, latencies.length)) * 100) / 100,
      dynamoCpuMs: Math.round(((dynamo1 - dynamo0) / Math.max(1, latencies.length)) * 100) / 100,
      benchCpuMs: Math.round(((bench1 - bench0) / Math.max(1, latencies.length)) * 100) / 100,
      load: [Math.round(load0 * 10) / 10, Math.round(loadavg()[0]! * 10) / 10],
      unavailable,
      api: [
        percentile(
          [...apiMs].sort((a, b) => a - b),
          50,
        ),
        percentile(
          [...apiMs].sort((a, b) => a - b),
          99,
        ),
      ],
      ...(hostile && { hostile: withHostile }),
    };
  };

  /**
   * Why each webhook came twice: the subscription's cursor as it stands (its last attempts kept) and when the copies
   * came (a copy at once after the first says a quick retry or a resend on a fresh socket; later, a sender that died
   * after sending and before moving its cursor).
   */
  const trace = async (dups: string[]) =>
    Promise.all(
      dups.map(async (key) => {
        const [path, webhookId] = key.split('|') as [string, string];
        const subscriptionId = subscriptionOf.get(path)!;
        const { Item } = await documentClient().send(
          new GetCommand({
            TableName: table,
            Key: { PK: `SUBSCRIPTION#${subscriptionId}`, SK: 'CURSOR#lots' },
            ConsistentRead: true,
          }),
        );
        const times = arrivals.get(key) ?? [];
        return {
          subscriptionId,
          webhookId,
          arrivals: times.map((t) => t - times[0]!),
          attempts: ((Item?.recent ?? []) as { attempt: Record<string, unknown> }[]).map(
            ({ attempt: a }) => `${a.status ?? a.error} in ${a.ms} ms`,
          ),
        };
      }),
    );

  // With --hostile the two runs compare: a first run warms the server (its first seconds are slower) and is not shown.
  if (hostile) console.error(`bench: warm-up run, not shown: p99 ${Math.round((await run(rate)).p99)} ms`);
  const figures = [await run(rate)];
  console.log(webhookLines(figures).join('\n'));
  if (hostile) {
    // Beside the healthy ones: one receiver that never answers, and one key's 100 (WEBHOOK_REFUSING) whose
    // connections are refused.
    const hanging = await post('/api/0.1/subscriptions', { url: `${hook}/hang`, events: ['lot.*'] }, 'broker');
    const refusing: { id: string; token: string }[] = [];
    for (let i = 0; i < refusingCount; i++) {
      const made = await post(
        '/api/0.1/subscriptions',
        { url: 'http://127.0.0.1:9/refused', events: ['lot.*'] },
        'broker2',
      );
      refusing.push({ id: made.data.id, token: made.access.token });
    }
    // Receivers that have been failing: one change each hears fails its first attempt and the retries 1 s and 5 s
    // later fail too; each cursor then waits (what it is owed stays in the journal). How long that took is printed;
    // the run below measures beside them.
    const failStarted = Date.now();
    await change();
    const failing = [hanging.data.id as string, ...refusing.map((s) => s.id)];
    const failedTwice = async () => {
      const cursors = await Promise.all(
        failing.map((id) =>
          documentClient().send(
            new GetCommand({
              TableName: table,
              Key: { PK: `SUBSCRIPTION#${id}`, SK: 'CURSOR#lots' },
              ConsistentRead: true,
            }),
          ),
        ),
      );
      return cursors.filter((c) => Number(c.Item?.failedPasses ?? 0) >= 2).length;
    };
    while ((await failedTwice()) < failing.length && Date.now() - failStarted < 120_000)
      await new Promise((r) => setTimeout(r, 500));
    console.error(
      `bench: ${await failedTwice()} of ${failing.length} failing subscriptions failed twice in a row in ${((Date.now() - failStarted) / 1000).toFixed(1)} s`,
    );
    const withThem = await run(rate, true);
    for (const s of refusing) {
      const res = await fetch(`${base}/api/0.1/subscriptions/${s.id}`, {
        method: 'DELETE',
        headers: { authorization: basic('broker2'), 'x-access-token': s.token },
      });
      if (res.status !== 200) throw new Error(`DELETE: ${res.status}`);
    }
    const work = await documentClient().send(
      new QueryCommand({
        TableName: table,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': 'WORK#webhooks' },
      }),
    );
    figures.push({ ...withThem, refusing: refusingCount, workAfterDelete: work.Items?.length ?? 0 });
    console.log(webhookLines(figures.slice(-1)).slice(2).join('\n'));
  }
  for (let step = 1; !hostile && findLimit && step <= maxSteps && figures.at(-1)!.p99 <= 2000; step++) {
    figures.push(await run(rate * 2 ** step));
    console.log(webhookLines(figures.slice(-1)).slice(2).join('\n'));
  }
  receiver.postMessage('close');
  process.removeListener('exit', stop);
  // The server stops its pipe before DynamoDB Local goes (and, profiled, writes its profile as it exits of itself).
  server.kill('SIGINT');
  await Promise.race([new Promise((done) => server.once('exit', done)), new Promise((r) => setTimeout(r, 15_000))]);
  stop();
  return figures;
}

export const webhookLines = (all: WebhookFigures[]): string[] => [
  `| subscriptions (matching each change) | changes a second (asked, done; 503s sent again) | deliveries expected | received | duplicates | lost | deliveries a second (all; sustained, middle 80 %) | p50 | p99 | max | DynamoDB requests a delivery | CPU ms a delivery (server, DynamoDB Local, bench) | API p50, p99 | load (start, end) |`,
  `|---|---|---|---|---|---|---|---|---|---|---|---|---|---|`,
  ...all.map(
    (f) =>
      `| ${f.subscriptions} (${f.matching}) | ${f.rate}, ${f.achievedRate}; ${f.unavailable} | ${f.expected} | ${f.received} | ${f.duplicates} | ${f.lost} | ${f.deliveryRate}; ${f.sustainedRate} | ${Math.round(f.p50)} ms | ${Math.round(f.p99)} ms | ${Math.round(f.max)} ms | ${f.requestsPerDelivery} | ${f.serverCpuMs}, ${f.dynamoCpuMs}, ${f.benchCpuMs} | ${Math.round(f.api[0])} ms, ${Math.round(f.api[1])} ms | ${f.load[0]}, ${f.load[1]} |${f.hostile ? ` with 1 hanging and ${f.refusing} refusing beside; work items once those were deleted: ${f.workAfterDelete}` : ''}`,
  ),
  ...all.flatMap((f) =>
    f.duplicatesTraced.map(
      (d) =>
        `duplicate ${d.webhookId} (subscription ${d.subscriptionId}): came at +${d.arrivals.join(', +')} ms; attempts recorded: ${d.attempts.join('; ') || 'none'}`,
    ),
  ),
];
