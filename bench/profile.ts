/**
 * `npx tsx bench/profile.ts [path]`: where the local gateway's CPU goes under load. Starts DynamoDB Local and
 * `npm start`'s server (bin/serve.ts) under `--cpu-prof`, creates a lot, runs autocannon at 16 connections for
 * BENCH_SECONDS (default 10) on `GET /api/0.1/lots/<id>` (or on `path`), measures raw GetItem at 16 concurrent callers
 * in the same run, stops the server (the profile is written on exit, to .build/profile/) and prints its self time by
 * where the code lives: our modules, each npm package, Node's internals, native calls (socket writes), GC.
 * Open the .cpuprofile in Chrome DevTools or speedscope for the call trees. See bench/PROFILE.md.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { freePort, startDynamoDbLocal } from '../lib/local/dynamodb-local.ts';
import { placeOf, type ProfileNode, startServer } from './local-server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DIR = '.build/profile';
const TABLE = 'agora-profile';
const BROKER = `Basic ${Buffer.from('broker:').toString('base64')}`;

rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
const dynamo = await startDynamoDbLocal();
const port = await freePort();
const server = await startServer({ port, dynamoEndpoint: dynamo.endpoint, table: TABLE, profileDir: DIR });
const base = `http://127.0.0.1:${port}`;

const party = { name: 'C', identifier: { scheme: 'UA-EDR', id: '00037256' }, address: { countryName: 'Україна' } };
const created = await fetch(`${base}/api/0.1/lots`, {
  method: 'POST',
  headers: { authorization: BROKER, 'content-type': 'application/json' },
  body: JSON.stringify({
    data: {
      lotIdentifier: 'P-1',
      title: 'Profile',
      lotCustodian: { ...party, contactPoint: { name: 'C' } },
      assets: ['a'.repeat(32)],
    },
  }),
});
const lot = ((await created.json()) as { data: { id: string } }).data.id;
const path = process.argv[2] ?? `/api/0.1/lots/${lot}`;
const load = (duration: number) =>
  autocannon({ url: `${base}${path}`, connections: 16, duration, headers: { authorization: BROKER } });
await load(2);
/** CPU seconds (user + system) a process has used so far: /proc/<pid>/stat, in clock ticks of 1/100 s. */
const cpuOf = (pid: number | undefined) => {
  if (!pid) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const own = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const before = { server: cpuOf(server.pid), dynamo: cpuOf(dynamo.pid), bench: own() };
const result = await load(SECONDS);
const apiCalls = result.requests.total;
const apiCpu = {
  server: cpuOf(server.pid) - before.server,
  dynamo: cpuOf(dynamo.pid) - before.dynamo,
  bench: own() - before.bench,
};

const client = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'local',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  }),
);
let raw = 0;
const until = Date.now() + SECONDS * 500;
const rawBefore = { dynamo: cpuOf(dynamo.pid), bench: own() };
await Promise.all(
  Array.from({ length: 16 }, async () => {
    for (; Date.now() < until; raw++)
      await client.send(new GetCommand({ TableName: TABLE, Key: { PK: `LOT#${lot}`, SK: '#ROOT' } }));
  }),
);
const rawRate = raw / (SECONDS / 2);
const rawCpu = { dynamo: cpuOf(dynamo.pid) - rawBefore.dynamo, bench: own() - rawBefore.bench };
// CPU per call, in ms, by process: on a machine whose cores are all busy, rates follow these, whatever else runs.
const perCall = (s: number, n: number) => ((1000 * s) / n).toFixed(3);
console.log(
  `CPU ms per call: API: server ${perCall(apiCpu.server, apiCalls)}, DynamoDB Local ${perCall(apiCpu.dynamo, apiCalls)}, ` +
    `autocannon ${perCall(apiCpu.bench, apiCalls)}, total ${perCall(apiCpu.server + apiCpu.dynamo + apiCpu.bench, apiCalls)}; ` +
    `raw GetItem: caller (SDK) ${perCall(rawCpu.bench, raw)}, DynamoDB Local ${perCall(rawCpu.dynamo, raw)}, ` +
    `total ${perCall(rawCpu.bench + rawCpu.dynamo, raw)}`,
);
console.log(
  `${path}: ${result.requests.average} req/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx} not 2xx); raw GetItem ${rawRate} req/s; ratio ${(result.requests.average / rawRate).toFixed(2)}; load average ${loadavg()[0].toFixed(1)}`,
);
server.kill('SIGINT');
await new Promise((done) => server.once('exit', done));
dynamo.stop();

// The server's main thread (the other profile is tsx's loader thread).
const file = readdirSync(DIR).find((f) => f.endsWith('.0.001.cpuprofile'))!;
const profile = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
profile.samples.forEach((id, i) => {
  const place = placeOf(nodes.get(id)!.callFrame);
  self.set(place, (self.get(place) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
for (const idle of ['native (idle)', 'native (program)']) self.delete(idle);
const busy = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`CPU ${(busy / 1e6).toFixed(1)} s (server start, seeding and load), self time by place:`);
for (const [place, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`${((100 * us) / busy).toFixed(1).padStart(5)}%  ${place}`);
console.log(`profile: ${join(DIR, file)}`);
process.exit(0);
