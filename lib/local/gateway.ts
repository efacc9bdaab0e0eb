import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bots, webhookDelivery } from '../../functions/bots.ts';
import { routeKey, routeRule, routes, type RouteDefinition } from '../../functions/routes.ts';
import { corsHeaders, corsPolicy, parseOrigins } from '../cors.ts';
import { bundleOf } from '../lambda-bundles.ts';
import { roomLambdas } from '../../functions/room/lambdas.ts';
import { attachRoomServer, type RoomServer } from './room-server.ts';
import { localOnlyRefusal } from './local-only-guard.ts';
import { capacityMeter } from './capacity.ts';
import { EVENTS_PATH } from './event-api.ts';
import { localCertificate } from './tls.ts';

/**
 * The local stand-in for API Gateway (HTTP API, payload 2.0): it serves every route of `functions/routes.ts`
 * by turning the HTTP request into the same v2 event, running the same REQUEST authorizer, and invoking the
 * route's own handler module in-process. Local-only extras (never in AWS): `POST /_local/bots/<name>` runs a bot
 * once, `PUT /_local/clock` shifts the request clock, `GET /_local/room` tells the room server's connections and pacing, `PUT|GET /_local/faults` sets and reports DynamoDB fault
 * injection (store/faults.ts, which the gateway installs: no bundle carries it), and each answer reports
 * `x-agora-dynamodb-requests` (the route handler's, not the authorizer's). The document
 * service's files live in a folder (AGORA_FILES_DIR, default `.agora/files`) and its `/api/docservice/get` route answers
 * their bytes itself where AWS redirects to S3.
 *
 * With AGORA_BUNDLES set to a build of lib/build.ts (lib/local/bundles.ts), each handler module is that Lambda's bundle
 * (`<dir>/<bundle>/index.mjs`) instead of its TypeScript source: the code that ships, behind the same gateway.
 */
const FUNCTIONS = join(dirname(fileURLToPath(import.meta.url)), '../../functions');
const modules = new Map<string, Promise<any>>();
const moduleUrl = (module: string, bundles = process.env.AGORA_BUNDLES) =>
  pathToFileURL(bundles ? join(bundles, module, 'index.mjs') : join(FUNCTIONS, `${module}.ts`)).href;
const load = (module: string, url = moduleUrl(module)) => {
  if (!modules.has(url)) modules.set(url, import(url));
  return modules.get(url)!;
};

interface Matcher {
  route: RouteDefinition;
  regex: RegExp;
  params: string[];
}

const matchers: Matcher[] = routes
  .filter((r) => r.path !== '$default')
  .map((route) => {
    const params: string[] = [];
    const pattern = route.path.replace(/\{(\w+)\+?\}/g, (_, name) => {
      params.push(name);
      return '([^/]+)';
    });
    return { route, regex: new RegExp(`^${pattern}$`), params };
  });
const fallback = routes.find((r) => r.path === '$default');

/** API Gateway answers a malformed escape as an unknown path; keep the raw text so the handler finds nothing. */
const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript))/i;

function lambdaContext(name: string) {
  return {
    functionName: name,
    awsRequestId: randomUUID(),
    getRemainingTimeInMillis: () => 30_000,
    callbackWaitsForEmptyEventLoop: false,
  };
}

/** API Gateway's own payload limit (HTTP API: 10 MB); a larger body is refused before it is read in full. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** What the gateway reads of a request (an IncomingMessage is one; the event-parity tests build one). */
export type RequestLike = Pick<IncomingMessage, 'method' | 'headers'> & { socket: { remoteAddress?: string } };

/** The HTTP API's payload 2.0 event of a request (test/support/aws/events.ts checks it against AWS's shape). */
export function toEvent(
  req: RequestLike,
  url: URL,
  body: Buffer,
  route: RouteDefinition,
  pathParameters: Record<string, string>,
) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'cookie' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-proto'] ??= 'http';
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const text = body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = Date.now();
  const key = routeKey(route);
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie?.split(';').map((c) => c.trim()),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      // The gateway's own address, as API Gateway gives the domain it serves: never the client's Host header.
      domainName: ownHost,
      domainPrefix: 'localhost',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    } as Record<string, unknown>,
    body: body.length ? (text ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: !text && body.length > 0,
  };
}

/** A route's event with its authorizer's context, where API Gateway puts a simple response's context. */
export function withAuthorizer<E extends { requestContext: Record<string, unknown> }>(event: E, context: unknown): E {
  event.requestContext.authorizer = { lambda: context };
  return event;
}

/**
 * The REQUEST authorizer's payload 2.0 event of a route's event, as API Gateway builds it (no identity sources: the
 * authorizer runs on every request, lib/api-stack.ts).
 */
export function authorizerEvent(event: ReturnType<typeof toEvent>) {
  const { requestContext: context } = event;
  const { method, path } = context.http as { method: string; path: string };
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:local:${String(context.accountId)}:${String(context.apiId)}/${String(context.stage)}/${method}${path}`,
    identitySource: [] as string[],
    routeKey: event.routeKey,
    rawPath: event.rawPath,
    rawQueryString: event.rawQueryString,
    cookies: event.cookies,
    headers: event.headers,
    queryStringParameters: event.queryStringParameters,
    requestContext: context,
    pathParameters: event.pathParameters,
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer) {
  res.writeHead(status, headers);
  res.end(body);
}

const JSON_TYPE = { 'content-type': 'application/json' };
const refuse = (
  res: ServerResponse,
  status: number,
  name: string,
  description: string,
  location = status === 404 ? 'url' : 'body',
) => send(res, status, JSON_TYPE, JSON.stringify({ status: 'error', errors: [{ location, name, description }] }));

/** A request that asks `x-agora-capacity: 1` (local only) is measured: lib/local/capacity.ts. */
const measuring = (headers: IncomingMessage['headers']) => (headers['x-agora-capacity'] ? capacityMeter() : undefined);

async function localOnly(
  method: string,
  url: URL,
  body: Buffer,
  res: ServerResponse,
  headers: IncomingMessage['headers'],
): Promise<boolean> {
  const bot = /^\/_local\/bots\/([\w-]+)$/.exec(url.pathname);
  if (bot && method === 'POST') {
    // The room bot (functions/room/lambdas.ts) runs here too: `POST /_local/bots/room`.
    const def = bots.find((b) => b.name === bot[1]) ?? roomLambdas.find((l) => l.kind === 'bot' && bot[1] === 'room');
    if (!def) {
      refuse(res, 404, 'bot', 'Not Found');
      return true;
    }
    try {
      const { countRequests } = await load('store/client', moduleUrl('store/client', ''));
      const capacity = measuring(headers);
      const { result: report, requests } = await countRequests(
        () => asLambda(def.handler, async () => (await load(def.handler)).run()),
        capacity?.meter,
      );
      const measured = capacity && { 'x-agora-dynamodb-requests': String(requests), ...capacity.headers() };
      send(res, 200, { ...JSON_TYPE, ...measured }, JSON.stringify({ data: report }));
    } catch (error) {
      // A run that failed as a whole (its work Query, under injected faults): retried by the next run.
      refuse(res, 503, 'bot', `The ${def.name} run failed: ${(error as Error).name}`);
    }
    return true;
  }
  if (url.pathname === '/_local/faults') {
    const faults = await load('store/faults', moduleUrl('store/faults', ''));
    if (method === 'PUT') {
      let config: unknown;
      try {
        config = JSON.parse(body.toString('utf8') || '{}');
      } catch {
        refuse(res, 422, 'data', 'Expecting a JSON object like {"share": 0.2, "seed": 42}');
        return true;
      }
      if (!config || typeof config !== 'object' || Array.isArray(config)) {
        refuse(res, 422, 'data', 'Expecting a JSON object');
        return true;
      }
      (await runtimeConfig()).setLocal({ faults: Object.keys(config).length ? JSON.stringify(config) : '' });
      faults.resetFaultStats();
    }
    if (method === 'PUT' || method === 'GET') {
      const raw = (await runtimeConfig()).config().faults;
      send(
        res,
        200,
        JSON_TYPE,
        JSON.stringify({ data: { config: raw ? JSON.parse(raw) : {}, stats: faults.faultStats() } }),
      );
      return true;
    }
  }
  if (url.pathname === '/_local/room' && method === 'GET' && ownRoom) {
    // The room server's own state: its open connections and how its `$disconnect`s are paced.
    send(
      res,
      200,
      JSON_TYPE,
      JSON.stringify({
        data: { connections: ownRoom.connections(), disconnects: ownRoom.disconnects(), timers: ownRoom.timers() },
      }),
    );
    return true;
  }
  const stopped = /^\/_local\/room\/timers\/([^/]+)$/.exec(url.pathname);
  if (stopped && method === 'DELETE' && ownRoom) {
    // A room's execution stopped (a test of what happens when a room never posts its results): 204, or 404 if none.
    const found = ownRoom.stopTimer(decodeURIComponent(stopped[1]));
    if (found) send(res, 204, {}, '');
    else refuse(res, 404, 'auction_id', 'No pending room timer for this auction');
    return true;
  }
  if (url.pathname === '/_local/clock' && method === 'GET') {
    sendClock(res, (await runtimeConfig()).localRuntime()?.clockOffsetMs ?? 0);
    return true;
  }
  if (url.pathname === '/_local/clock' && method === 'PUT') {
    let offsetMs: unknown;
    try {
      offsetMs = (JSON.parse(body.toString('utf8') || '{}') as { offsetMs?: unknown } | null)?.offsetMs ?? 0;
    } catch {
      refuse(res, 422, 'data', 'Expecting a JSON object like {"offsetMs": 0}');
      return true;
    }
    if (typeof offsetMs !== 'number' || !Number.isFinite(offsetMs)) {
      refuse(res, 422, 'offsetMs', 'Expecting a number of milliseconds');
      return true;
    }
    (await runtimeConfig()).setLocal({ clockOffsetMs: offsetMs });
    ownRoom?.clockMoved();
    // Said in the log: what is written from now on is dated by this clock (docs/development.md, time travel).
    localLog('clock moved', { offsetMs, now: new Date(Date.now() + offsetMs).toISOString() });
    sendClock(res, offsetMs);
    return true;
  }
  return false;
}

/** The service clock: its offset from real time and the time it reads now (ISO, UTC). */
const sendClock = (res: ServerResponse, offsetMs: number) =>
  send(res, 200, JSON_TYPE, JSON.stringify({ data: { offsetMs, now: new Date(Date.now() + offsetMs).toISOString() } }));

/** A line of the gateway's own in the handlers' JSON log format (npm start prints it short). */
const localLog = (message: string, fields: Record<string, unknown>) =>
  process.stdout.write(
    `${JSON.stringify({ level: 'INFO', message, timestamp: new Date().toISOString(), service: 'agora', ...fields })}\n`,
  );

/**
 * The runtime's config module (the sources' copy; its state is shared with the bundles' copies on globalThis): the
 * gateway sets the local-only knobs (clock offset, URLs, faults) through it, never through process.env.
 */
interface RuntimeConfig {
  startLocalRuntime(): void;
  setLocal(settings: {
    clockOffsetMs?: number;
    publicUrl?: string;
    docserviceUrl?: string;
    auctionSite?: string;
    faults?: string;
    eventsInitTimeoutMs?: number;
    eventsTlsUrl?: string;
  }): void;
  config(): { faults: string; publicUrl?: string };
  localRuntime(): { clockOffsetMs: number } | undefined;
}
const runtimeConfig = (): Promise<RuntimeConfig> => load('platform/config', moduleUrl('platform/config', ''));

/**
 * What the build gives each Lambda's entry (lib/build.ts), given here once to the sources: the HTTP kit gets the
 * rules of every route (a bundle has its own copy of the kit, with its own routes' rules built in), and the DynamoDB
 * clients, the bundles' too, get the fault injector of the local runtime (store/faults.ts, never in a bundle).
 */
async function serveSources(): Promise<void> {
  const kit = await load('http-kit/route-rules', moduleUrl('http-kit/route-rules', ''));
  const documents = moduleUrl('runtime/documents', '');
  kit.registerRoutes(routes.map(routeRule), async () => (await load('runtime/documents', documents)).documentPorts());
  (await load('store/faults', moduleUrl('store/faults', ''))).installFaults();
}

/**
 * Runs a handler as the Lambda AWS would invoke (store/aws-calls.ts: the tests check each call it makes against that
 * Lambda's role): `route:<route key>`, `authorizer`, `bot:<name>`, `room:<name>`, `webhook-delivery`, `migrate`.
 */
const asCaller = async <T>(caller: string, run: () => Promise<T>): Promise<T> =>
  (await load('store/aws-calls', moduleUrl('store/aws-calls', ''))).asCaller(caller, run);
const callerOf = (module: string): string => {
  if (module === 'auth/authorizer') return 'authorizer';
  if (module === webhookDelivery.handler) return 'webhook-delivery';
  if (module === 'ops/migrate') return 'migrate';
  const bot = bots.find((b) => b.handler === module);
  if (bot) return `bot:${bot.name}`;
  const room = roomLambdas.find((l) => l.handler === module);
  if (room) return `room:${room.name}`;
  // A route's handler invoked directly (an AWS-shaped event's test): as its route's Lambda.
  const route = routes.find((r) => r.handler === module);
  return route ? `route:${routeKey(route)}` : `module:${module}`;
};
const asLambda = <T>(module: string, run: () => Promise<T>): Promise<T> => asCaller(callerOf(module), run);

/** The path of a public URL (`http://host/agora` → `/agora`; `''` for a root URL), parsed once per URL set. */
const mounts = new Map<string, string>();
const mountOf = (publicUrl: string | undefined) => {
  if (!publicUrl) return '';
  if (!mounts.has(publicUrl)) mounts.set(publicUrl, new URL(publicUrl).pathname.replace(/\/+$/, ''));
  return mounts.get(publicUrl)!;
};

/** `host:port` this gateway listens on (set by startGateway). */
let ownHost = 'localhost';
let ownPort = 0;
/** The room server beside this gateway, for `GET /_local/room`. */
let ownRoom: RoomServer | undefined;

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const method = req.method ?? 'GET';
  const body = await readBody(req);
  if (!body) {
    res.setHeader('connection', 'close');
    return refuse(res, 413, 'data', `Request body is larger than ${MAX_PAYLOAD_BYTES} bytes`);
  }
  if (url.pathname.startsWith('/_local/')) {
    const refusal = localOnlyRefusal(method, req.headers, ownPort);
    if (refusal) return refuse(res, 403, 'local', refusal, 'header');
    if (await localOnly(method, url, body, res, req.headers)) return;
  }
  // CORS as the HTTP API does it with `corsOrigins` (AGORA_CORS_ORIGINS here): preflights answered before any route.
  const origins = parseOrigins(process.env.AGORA_CORS_ORIGINS);
  const preflight = method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  const cors = origins.length ? corsHeaders(corsPolicy(origins), req.headers.origin, preflight) : undefined;
  if (preflight && origins.length) return send(res, 204, cors ?? {}, '');

  // A custom domain's API mapping, as API Gateway serves one: under the public URL's path (AGORA_PUBLIC_URL
  // `http://host/agora`) the routes match what follows it, and the handlers get the whole path in `rawPath`.
  const mount = mountOf((await runtimeConfig()).config().publicUrl);
  const path = mount && url.pathname.startsWith(`${mount}/`) ? url.pathname.slice(mount.length) : url.pathname;
  let route = fallback!;
  let params: Record<string, string> = {};
  for (const m of matchers) {
    const hit = m.regex.exec(path);
    if (hit && (m.route.method === method || m.route.method === 'ANY')) {
      route = m.route;
      params = Object.fromEntries(m.params.map((p, i) => [p, safeDecode(hit[i + 1])]));
      break;
    }
  }
  const event = toEvent(req, url, body, route, params);
  // Counted by the sources' store client, whose counter the bundles' copies share (functions/store/client.ts).
  const { countRequests } = await load('store/client', moduleUrl('store/client', ''));
  const capacity = measuring(req.headers);
  const { result, requests } = await countRequests(async () => {
    if (route.auth !== 'public') {
      const authorizer = await load('auth/authorizer');
      // Its own Lambda in AWS: its requests (a key lookup once its 10 s memo has passed) are not the route's count,
      // which would then depend on when the memo expired (a measured scope's meter still sees them).
      const { result: decision } = await countRequests(() =>
        asLambda('auth/authorizer', async () => authorizer.handler(authorizerEvent(event))),
      );
      if (!decision.isAuthorized) return { statusCode: 403, body: JSON.stringify({ message: 'Forbidden' }) };
      withAuthorizer(event, decision.context);
    }
    // A bundled auction write is its route type's own bundle (lib/lambda-bundles.ts); the sources serve every type.
    const module = await load(route.handler, moduleUrl(process.env.AGORA_BUNDLES ? bundleOf(route) : route.handler));
    return asCaller(`route:${event.routeKey}`, async () => module.handler(event, lambdaContext(route.handler)));
  }, capacity?.meter);
  const out =
    typeof result === 'object' && result && 'statusCode' in result
      ? result
      : { statusCode: 200, body: JSON.stringify(result) };
  const headers: Record<string, string> = {
    ...(out.headers ?? {}),
    ...cors,
    'x-agora-dynamodb-requests': String(requests),
    ...capacity?.headers(),
  };
  send(res, out.statusCode, headers, out.isBase64Encoded ? Buffer.from(out.body ?? '', 'base64') : (out.body ?? ''));
}

export interface Gateway {
  url: string;
  port: number;
  server: Server;
  /** The same service over TLS (`https://`, its own port), with the local certificate: AWS's clients insist on it. */
  tls: { url: string; port: number; certificate: string; certificateFile?: string };
  /** The observers' broadcast as AWS serves it: `wss://<host>:<TLS port>/event/realtime`. */
  eventsUrl: string;
  close(): Promise<void>;
}

export interface GatewayOptions {
  port?: number;
  host?: string;
  /** The TLS port (default: any free one). */
  tlsPort?: number;
  /** Where the local certificate is kept (`npm start`: .agora/tls); unset, one is made for this process. */
  certificateDir?: string;
}

export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const runtime = await runtimeConfig();
  runtime.startLocalRuntime();
  await serveSources();
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('local gateway:', error);
      if (!res.headersSent)
        send(res, 500, { 'content-type': 'application/json' }, JSON.stringify({ message: 'Internal Server Error' }));
    });
  });
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as { port: number };
  ownHost = `${host}:${port}`;
  ownPort = port;
  // The same service over TLS on a port of its own: AWS Amplify's Events client opens `wss://` whatever its endpoint
  // says (it only swaps http for wss), so the broadcast is reachable by it only this way. Its requests and upgrades
  // (the broadcast, the room socket) are the plain server's, handled alike.
  const certificate = await localCertificate(options.certificateDir);
  const tlsServer = createTlsServer({ key: certificate.key, cert: certificate.cert }, (req, res) =>
    server.emit('request', req, res),
  );
  tlsServer.keepAliveTimeout = server.keepAliveTimeout;
  tlsServer.on('upgrade', (req, stream, head) => server.emit('upgrade', req, stream, head));
  // A client that refuses the certificate (one not told to trust it) drops the handshake: nothing to report.
  tlsServer.on('tlsClientError', () => {});
  await new Promise<void>((resolve, reject) =>
    tlsServer.once('error', reject).listen(options.tlsPort ?? 0, host, () => resolve()),
  );
  const tlsPort = (tlsServer.address() as { port: number }).port;
  const tlsUrl = `https://${host}:${tlsPort}`;
  const eventsUrl = `${tlsUrl.replace(/^https/, 'wss')}${EVENTS_PATH}`;
  // The public base URL of links (Location, next_page, document urls) is this gateway's own, unless the operator
  // configured one (AGORA_PUBLIC_URL before start, e.g. behind a proxy); never a request's Host header.
  const publicUrl = process.env.AGORA_PUBLIC_URL || `http://${ownHost}`;
  // The document service of this gateway: the base its signed file URLs carry and the APIs accept.
  // The auction room is served here too (lib/local/room-server.ts): links lead to it unless AGORA_AUCTION_SITE is set.
  const auctionSite = process.env.AGORA_AUCTION_SITE || publicUrl;
  // A new gateway is a new service: real time and no faults, whatever an earlier one in this process was told (the
  // test files of a worker share the process: vitest.config.ts).
  runtime.setLocal({
    publicUrl,
    docserviceUrl: `${publicUrl}/api/docservice`,
    auctionSite,
    clockOffsetMs: 0,
    faults: '',
    eventsInitTimeoutMs: undefined,
    eventsTlsUrl: eventsUrl,
  });
  // The auction room's WebSocket API on the same port (`ws://<host>:<port>/room`), with its timers in process.
  const room = await attachRoomServer(server, () => ownHost);
  ownRoom = room;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    tls: { url: tlsUrl, port: tlsPort, certificate: certificate.cert, certificateFile: certificate.file },
    eventsUrl,
    close: () =>
      new Promise((resolve) => {
        room.close();
        tlsServer.closeAllConnections();
        tlsServer.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const runBot = async (name: string) => {
  const def = bots.find((b) => b.name === name);
  if (!def) throw new Error(`Unknown bot ${name}; known: ${bots.map((b) => b.name).join(', ') || 'none'}`);
  return asLambda(def.handler, async () => (await load(def.handler)).run());
};

/** Calls the Lambda `handler` of a module (sources, or its bundle) with an event, as AWS would. */
export const invokeHandler = async (module: string, event: unknown) => {
  const loaded = await load(module);
  return asLambda(module, async () => loaded.handler(event));
};
