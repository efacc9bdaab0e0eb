/**
 * `npm run bench`: throughput and latency of the API through the local gateway (16 connections), beside the raw
 * DynamoDB Local rate measured in the same run, the DynamoDB requests each API call makes, and bundle sizes.
 * Figures depend on the machine; nothing here is asserted. BENCH_SECONDS (default 10) sets each run's length.
 */
import { spawn } from 'node:child_process';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { routes } from '../functions/routes.ts';
import { startDynamoDbLocal, freePort } from '../lib/local/dynamodb-local.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;
const TABLE = 'bench';
const AUTH = `Basic ${Buffer.from('broker:').toString('base64')}`;

const dynamo = await startDynamoDbLocal();
const port = await freePort();
const server = spawn(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], {
  env: { ...process.env, PORT: String(port), DYNAMODB_ENDPOINT: dynamo.endpoint, TABLE_NAME: TABLE, BOTS_INTERVAL_MS: '3600000' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const stopAll = () => {
  server.kill('SIGTERM');
  dynamo.stop();
};
process.once('exit', stopAll);
await new Promise<void>((resolve) => server.stdout!.on('data', (c: Buffer) => c.toString().includes('serving on') && resolve()));
const base = `http://127.0.0.1:${port}`;

async function call(method: string, path: string, data?: unknown, token?: string) {
  const res = await fetch(`${base}${path}${token ? `?acc_token=${token}` : ''}`, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify({ data }),
  });
  return { status: res.status, body: (await res.json()) as any, requests: Number(res.headers.get('x-agora-dynamodb-requests')) };
}

const lotBody = () => ({
  lotIdentifier: 'BENCH-1',
  title: 'Bench lot',
  lotCustodian: {
    name: 'Custodian',
    identifier: { scheme: 'UA-EDR', id: '00037256' },
    address: { countryName: 'Україна' },
    contactPoint: { name: 'Contact' },
  },
  assets: [Array.from({ length: 32 }, () => 'abcdef0123456789'[Math.floor(Math.random() * 16)]).join('')],
});

// Seed: 300 listed lots, and note the DynamoDB requests of each kind of call on the way.
const perCall: Record<string, number> = {};
let sample = { id: '', token: '' };
for (let i = 0; i < 300; i++) {
  const created = await call('POST', '/api/0.1/lots', lotBody());
  const patched = await call('PATCH', `/api/0.1/lots/${created.body.data.id}`, { status: 'pending' }, created.body.access.token);
  perCall['POST /api/0.1/lots'] = created.requests;
  perCall['PATCH /api/0.1/lots/{id} (status)'] = patched.requests;
  sample = { id: created.body.data.id, token: created.body.access.token };
}
perCall['GET /api/0.1/lots/{id}'] = (await call('GET', `/api/0.1/lots/${sample.id}`)).requests;
perCall['GET /api/0.1/lots?limit=100'] = (await call('GET', '/api/0.1/lots?limit=100')).requests;
perCall['PATCH /api/0.1/lots/{id} (unchanged)'] = (await call('PATCH', `/api/0.1/lots/${sample.id}`, { status: 'pending' }, sample.token)).requests;

// Bot runs: DynamoDB requests of one concierge run with N lots due (each lot over 2 assets, under verification).
const basicAsset = () => ({
  assetType: 'basic',
  title: 'Bench asset',
  classification: { scheme: 'CAV', id: '04000000-8', description: 'Нерухоме майно' },
  value: { amount: 100, currency: 'UAH' },
  unit: { code: 'H87' },
  quantity: 1,
  address: { countryName: 'Україна' },
  assetCustodian: lotBody().lotCustodian,
});
async function pendingAsset(): Promise<string> {
  const created = await call('POST', '/api/0.1/assets', basicAsset());
  await call('PATCH', `/api/0.1/assets/${created.body.data.id}`, { status: 'pending' }, created.body.access.token);
  return created.body.data.id;
}
const botRuns: Record<string, { due: number; changed: number; requests: number; ms: number }> = {};
for (const n of [0, 1, 10, 50]) {
  for (let i = 0; i < n; i++) {
    const lot = await call('POST', '/api/0.1/lots', { ...lotBody(), assets: [await pendingAsset(), await pendingAsset()] });
    for (const status of ['pending', 'verification']) await call('PATCH', `/api/0.1/lots/${lot.body.data.id}`, { status }, lot.body.access.token);
  }
  const t = performance.now();
  const report = (await (await fetch(`${base}/_local/bots/concierge`, { method: 'POST' })).json()).data;
  botRuns[`concierge, ${n} lots due`] = { due: report.due, changed: report.changed, requests: report.requests, ms: Math.round(performance.now() - t) };
}
for (const bot of ['convoy', 'chronograph']) {
  const report = (await (await fetch(`${base}/_local/bots/${bot}`, { method: 'POST' })).json()).data;
  botRuns[`${bot}, nothing due`] = { due: report.due, changed: report.changed, requests: report.requests, ms: 0 };
}

async function load(title: string, path: string) {
  const result = await autocannon({ url: `${base}${path}`, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: AUTH } });
  return { title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function raw(title: string, send: () => Promise<unknown>) {
  const end = Date.now() + SECONDS * 1000;
  let count = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        await send();
        latencies.push(performance.now() - t);
        count++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { title, rps: count / SECONDS, p50: latencies[Math.floor(latencies.length / 2)], p99: latencies[Math.floor(latencies.length * 0.99)], errors: 0 };
}

const ddb = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'eu-central-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
);
const rows = [
  await load('API GET /api/0.1/lots/{id}', `/api/0.1/lots/${sample.id}`),
  await load('API GET /api/0.1/lots?limit=100', '/api/0.1/lots?limit=100'),
  await raw('raw DynamoDB Local Query (aggregate by PK)', () =>
    ddb.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `LOT#${sample.id}` }, ConsistentRead: true })),
  ),
  await raw('raw DynamoDB Local GetItem (root item)', () => ddb.send(new GetCommand({ TableName: TABLE, Key: { PK: `LOT#${sample.id}`, SK: '#ROOT' } }))),
  await raw('raw DynamoDB Local Query (feed page of 100)', () =>
    ddb.send(new QueryCommand({ TableName: TABLE, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': 'lots' }, Limit: 100 })),
  ),
];

// Bundle sizes, built as the CDK builds them (ESM, minified, SDK external).
const sizes: { handler: string; kb: number }[] = [];
for (const handler of [...new Set(routes.map((r) => r.handler)), 'auth/authorizer']) {
  const out = await build({
    entryPoints: [`functions/${handler}.ts`], bundle: true, platform: 'node', format: 'esm', minify: true, write: false,
    target: 'node22', external: ['@aws-sdk/*'], mainFields: ['module', 'main'],
  });
  sizes.push({ handler, kb: Math.round(out.outputFiles[0].contents.length / 102.4) / 10 });
}

console.log(`\nAgora bench: ${CONNECTIONS} connections, ${SECONDS} s per run, 300 lots, ${new Date().toISOString()}\n`);
console.table(rows.map((r) => ({ run: r.title, 'req/s': Math.round(r.rps), 'p50 ms': +r.p50.toFixed(1), 'p99 ms': +r.p99.toFixed(1), errors: r.errors })));
console.log('\nDynamoDB requests per API call (authorizer warm):');
console.table(perCall);
console.log('\nBot runs (DynamoDB requests per run; a verification takes two steps of lot Query + asset BatchGet + transaction):');
console.table(botRuns);
console.log('\nBundle size per Lambda (KB, minified ESM, SDK external):');
console.table(Object.fromEntries(sizes.map((s) => [s.handler, s.kb])));
stopAll();
process.exit(0);
