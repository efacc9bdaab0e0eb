import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startDynamoDbLocal, stopOrphan } from '../lib/local/dynamodb-local.ts';
import { buildLocalBundles } from '../lib/local/bundles.ts';
import { startGateway } from '../lib/local/gateway.ts';
import { EVENTS_PATH, LOCAL_EVENTS_API_KEY } from '../lib/local/event-api.ts';
import { humanizeStream } from '../lib/local/log-format.ts';
import { nodeProblem, portFree, portHolder, takeLock } from '../lib/local/preflight.ts';
import { startRoomBot } from '../lib/local/room-server.ts';
import { startBots } from '../lib/local/scheduler.ts';
import { startChangeStream } from '../lib/local/change-stream.ts';
import { createTable } from '../lib/local/table.ts';
import { answerHelp } from '../lib/cli-help.ts';
import { DEV_KEYS, seedDevKeys } from './dev-keys.ts';
import { DEV_ORGANIZATIONS, seedDevOrganizations } from './dev-organizations.ts';
import { DEFAULT_PORT, LOCAL_FILE, runningService } from './local-service.ts';

/**
 * `npm start`: DynamoDB Local (data under .agora/dynamodb, or in memory with AGORA_IN_MEMORY=1), the table,
 * the dev API keys, the local gateway on 127.0.0.1:$PORT (default 6543) and the bots every BOTS_INTERVAL_MS.
 * It checks first (Node, one `npm start` per .agora, the port, Java) and touches nothing when one fails.
 */
answerHelp(
  'Runs the whole service on this machine: DynamoDB Local, the local gateway (HTTP and the room), the bots on a timer. Ctrl-C stops it.',
  [
    'usage: npm start                (data in .agora/dynamodb; npm run start:bundled: the built Lambda bundles)',
    'environment: PORT (default 6543), TLS_PORT (default PORT+1: the same service over TLS, the broadcast as AWS',
    '             serves it), BOTS_INTERVAL_MS (default 2000), AGORA_IN_MEMORY=1 (keep nothing),',
    '             LOG_FORMAT=json (the JSON lines of AWS); a .env file is read too (.env.example lists every setting)',
  ].join('\n'),
);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const fail = (line: string): never => {
  console.error(line);
  process.exit(1);
};
const engines = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } }
).engines;
const tooOld = nodeProblem(engines?.node);
if (tooOld) fail(tooOld);
// Local settings (.env.example lists them); the environment wins over the file. Handlers read them lazily, after this.
if (existsSync('.env')) process.loadEnvFile('.env');

const port = Number(process.env.PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 1 || port > 65535)
  fail(`PORT ${JSON.stringify(process.env.PORT)} is not a port number (1..65535).`);
const interval = Number(process.env.BOTS_INTERVAL_MS ?? 2000);
const inMemory = process.env.AGORA_IN_MEMORY === '1';
const dbPath = '.agora/dynamodb';

if (!(await portFree(port))) {
  const holder = portHolder(port);
  fail(
    `Port ${port} is in use${holder ? ` by ${holder}` : ''}: stop that process or start on another port (PORT=7201 npm start). Nothing was changed.`,
  );
}
// The TLS port: TLS_PORT, else the one after PORT; when that one is taken (another service, a test's), any free one,
// which the banner names. A TLS_PORT asked for and taken is refused as PORT is.
const tlsAsked = process.env.TLS_PORT !== undefined && process.env.TLS_PORT !== '';
const tlsPort = tlsAsked ? Number(process.env.TLS_PORT) : port < 65535 ? port + 1 : 0;
if (!Number.isInteger(tlsPort) || tlsPort < 0 || tlsPort > 65535 || tlsPort === port)
  fail(
    `TLS_PORT ${JSON.stringify(process.env.TLS_PORT)} is not a port number other than PORT (1..65535; 0 for any free one).`,
  );
const tlsFree = tlsPort === 0 || (await portFree(tlsPort));
if (tlsAsked && !tlsFree) {
  const holder = portHolder(tlsPort);
  fail(
    `Port ${tlsPort} (TLS_PORT) is in use${holder ? ` by ${holder}` : ''}: stop that process or choose another (TLS_PORT=7202 npm start). Nothing was changed.`,
  );
}
mkdirSync('.agora', { recursive: true });
const external = Boolean(process.env.DYNAMODB_ENDPOINT);
const lock = takeLock('.agora/lock');
if ('heldBy' in lock && !external) {
  const other = runningService();
  fail(
    `Agora already runs from this folder (npm start, pid ${lock.heldBy}${other ? `, ${other.url}` : ''}): stop it first, or use it. Nothing was changed.`,
  );
}
// With its own DYNAMODB_ENDPOINT (the bench, ops) a second one may run beside: it leaves .agora to the first.
const owner = !('heldBy' in lock);
const release = owner ? (lock as { release: () => void }).release : () => {};
// SIGTERM (process managers, CI, containers), SIGINT (Ctrl-C; npm forwards both to this process, which `npm start`
// execs) and SIGHUP stop whatever has started so far: the JVM goes with the process (dynamodb-local.ts), the lock here.
// A parent that dies without a signal (kill -9) leaves this process an orphan: it stops too. Within 5 s whatever hangs.
let shutdown = (): unknown => {
  release();
  process.exit(0);
};
let stopping = false;
const onStop = (why: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`Stopping (${why}): the bots, the gateway, DynamoDB Local; the lock goes last.`);
  setTimeout(() => {
    release();
    process.exit(1);
  }, 4_000).unref();
  shutdown();
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => onStop(signal));
const parent = process.ppid;
setInterval(() => process.ppid !== parent && onStop('its parent is gone'), 500).unref();
if (process.env.LOG_FORMAT !== 'json') humanizeStream(process.stdout);
if (!inMemory && !process.env.DYNAMODB_ENDPOINT) mkdirSync(dbPath, { recursive: true });

// A server killed with SIGKILL could not stop its JVM: holding the lock now, stop that orphan before starting ours, so
// two JVMs never share the data folder.
const JVM_FILE = '.agora/dynamodb.pid';
if (owner && !external) {
  const orphan = await stopOrphan(JVM_FILE).catch((error: Error) => fail(error.message));
  if (orphan) console.log(`Stopped DynamoDB Local (pid ${orphan}) left by an npm start that was killed; taking over.`);
}
// DYNAMODB_ENDPOINT: use a DynamoDB (Local) that is already running instead of starting one (bench, ops).
let dynamo = process.env.DYNAMODB_ENDPOINT ? { endpoint: process.env.DYNAMODB_ENDPOINT, stop: () => {} } : undefined;
try {
  dynamo ??= await startDynamoDbLocal({ ...(!inMemory && { dbPath }), ...(owner && { pidFile: JVM_FILE }) });
} catch (error) {
  release();
  fail((error as Error).message);
}
const db = dynamo!;
process.env.DYNAMODB_ENDPOINT = db.endpoint;
process.env.TABLE_NAME ??= 'agora';
try {
  await createTable(db.endpoint, process.env.TABLE_NAME, { stream: true });
  await seedDevKeys();
  await seedDevOrganizations();
} catch (error) {
  db.stop();
  release();
  const e = error as Error;
  fail(
    inMemory || external
      ? `DynamoDB Local at ${db.endpoint} refused the table: ${e.name}: ${e.message}`
      : `The local data in ${dbPath} cannot be read (${e.name}: ${e.message.split('\n')[0]}): reset it with \`npm run reset\`, or run without it: AGORA_IN_MEMORY=1 npm start.`,
  );
}
// `npm run start:bundled`: the gateway serves the Lambda bundles CDK ships (lib/build.ts) instead of the sources.
if (process.env.AGORA_BUNDLED === '1') process.env.AGORA_BUNDLES = await buildLocalBundles(resolve('.agora/lambdas'));
const gateway = await startGateway({ port, tlsPort: tlsFree ? tlsPort : 0, certificateDir: '.agora/tls' });
// Where this service answers and its DynamoDB Local listens, for the CLIs (`npm run bot`, `keys`, `organizations`).
if (owner)
  writeFileSync(
    LOCAL_FILE,
    JSON.stringify({ url: gateway.url, endpoint: db.endpoint, table: process.env.TABLE_NAME, pid: process.pid }),
  );
else
  console.log(
    `Another npm start (pid ${(lock as { heldBy: number }).heldBy}) owns .agora: the CLIs reach this one with AGORA_URL=${gateway.url}`,
  );
// Bot runs are logged by the bots themselves; the timer adds only what they cannot say (a run that threw).
// The webhooks' retry sweep every second: a retry due in 5 s (or after a `PUT /_local/clock`) goes out on time.
const sweep = { deliveries: 0, requests: 0 };
const stopBots = startBots(
  interval,
  (line) => {
    if (line.includes('failed:')) console.error(line);
  },
  { webhooks: Math.min(interval, 1000) },
  (report) => {
    if (report.bot !== 'webhooks') return;
    sweep.deliveries += report.changed;
    sweep.requests += report.requests ?? 0;
  },
);
// The pipe of AWS (DynamoDB Streams -> SQS -> delivery Lambda): DynamoDB Local's stream read every 200 ms, so a change
// reaches its webhooks within a second. From the stream's end: a restart does not send again what it still holds.
const changeStream = await startChangeStream({ endpoint: db.endpoint, table: process.env.TABLE_NAME!, from: 'LATEST' });
// The bench (`npm run bench -- --webhooks`) reads what the deliveries cost from this file, written every second: the
// pipe's handler and the retry sweep together (a sender that spent its budget leaves the rest to the sweep).
const statsFile = process.env.AGORA_WEBHOOK_STATS_FILE;
const statsTimer = statsFile
  ? setInterval(() => {
      const piped = changeStream.stats();
      const both = { deliveries: piped.deliveries + sweep.deliveries, requests: piped.requests + sweep.requests };
      writeFileSync(statsFile, JSON.stringify({ ...piped, ...both, sweep }));
    }, 1000)
  : undefined;
// The auction room's bot (plans rooms, closes cancelled ones, takes up late timers): every second, for a room that
// opens as soon as its auction enters active.auction.
const stopRoomBot = startRoomBot(Number(process.env.ROOM_BOT_INTERVAL_MS ?? 1000), (line) => {
  if (line.includes('failed:')) console.error(line);
});

console.log(
  `Agora is serving on ${gateway.url} (DynamoDB Local on ${db.endpoint}, ${inMemory ? 'in memory' : `data in ${dbPath}`})`,
);
console.log(
  `Auction room (WebSocket): ${gateway.url.replace(/^http/, 'ws')}/room?auction_id=<id> (functions/room/protocol.schema.json)`,
);
// Where AWS's own clients reach the broadcast: Amplify's Events client with the endpoint `<TLS URL>/event` opens
// exactly this, and trusts the local certificate when told to (NODE_EXTRA_CA_CERTS, or the system's store).
console.log(
  `Observers' broadcast (AppSync Events' protocol, channel /rooms/<auction id>, API key ${LOCAL_EVENTS_API_KEY}): ${gateway.eventsUrl}` +
    ` (TLS, certificate ${gateway.tls.certificateFile}; HTTP endpoint for Amplify's Events client: ${gateway.tls.url}/event),` +
    ` and without TLS ${gateway.url.replace(/^http/, 'ws')}${EVENTS_PATH}`,
);
console.log(`API keys (Basic user name, empty password): ${DEV_KEYS.map((k) => `${k.name} (${k.role})`).join(', ')}`);
console.log(
  `Organization directory: ${DEV_ORGANIZATIONS.map((o) => `${o.identifier.scheme} ${o.identifier.id} (${o.name})`).join(', ')}`,
);
console.log(
  `Bots every ${interval} ms. Logs: one line per request and bot run (Kyiv time; LOG_FORMAT=json for the JSON of AWS). Try:\n  curl -u broker: ${gateway.url}/api/0.1/lots   # listings show a change 3 s after it (docs/api.md)`,
);

shutdown = async () => {
  stopBots();
  stopRoomBot();
  clearInterval(statsTimer);
  await changeStream.stop();
  if (owner) rmSync(LOCAL_FILE, { force: true });
  release();
  await gateway.close();
  db.stop();
  process.exit(0);
};
