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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export async function runWebhookBench(): Promise<WebhookFigures> {
  const subscriptions = Number(process.env.WEBHOOK_SUBSCRIPTIONS ?? 1000);
  const matching = Number(process.env.WEBHOOK_MATCHING ?? 10);
  const rate = Number(process.env.WEBHOOK_RATE ?? 100);
  const seconds = Number(process.env.WEBHOOK_SECONDS ?? 10);
  const dynamo = await startDynamoDbLocal();
  const port = await freePort();
  const table = 'bench-webhooks';
  const server = await startServer({ port, dynamoEndpoint: dynamo.endpoint, table });
  const stop = () => {
    server.kill('SIGTERM');
    dynamo.stop();
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
  const latencies: number[] = [];
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
        if (body.type?.startsWith('lot.')) latencies.push(at - (parseInstant(body.data.dateModified) ?? 0) / 1000);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const post = async (path: string, data: unknown, key = 'broker') => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: basic(key), 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
  for (let i = 0; i < subscriptions; i++) {
    const events = i < matching ? ['lot.*'] : [i % 2 ? 'asset.*' : 'auction.updated'];
    await post('/api/0.1/subscriptions', { url: `${hook}/s${i}`, events }, keys[Math.floor(i / 100)]);
  }

  // Changes at `rate` a second: one lot created each (its create is the change).
  const total = rate * seconds;
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
  const drainedIn = Math.round((Date.now() - started) / 100) / 10;
  receiver.close();
  stop();
  process.removeListener('exit', stop);
  const sorted = [...latencies].sort((a, b) => a - b);
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
    drainedIn,
  };
}

export const webhookLines = (f: WebhookFigures): string[] => [
  `| subscriptions (matching each change) | changes a second (asked, done) | changes | deliveries expected | received | duplicates | lost | p50 | p99 | max | all sent in |`,
  `|---|---|---|---|---|---|---|---|---|---|---|`,
  `| ${f.subscriptions} (${f.matching}) | ${f.rate}, ${f.achievedRate} | ${f.changes} | ${f.expected} | ${f.received} | ${f.duplicates} | ${f.lost} | ${Math.round(f.p50)} ms | ${Math.round(f.p99)} ms | ${Math.round(f.max)} ms | ${f.drainedIn} s |`,
];
