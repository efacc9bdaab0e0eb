import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { TELEMETRY } from '#platform/telemetry.ts';
import { config, type LogLevel, traceHeader } from '#platform/config.ts';

/**
 * Logs, metrics and traces of every Lambda (and of `npm start`, which runs the same handlers).
 *
 * - Logs: one JSON object a line on stdout (`level`, `message`, `timestamp`, `service`, `cold_start`, `requestId`,
 *   `xray_trace_id`, then the scope's keys and the call's). Each request and each bot run gets a child logger carrying
 *   its `correlation_id` (kept in an AsyncLocalStorage, so concurrent requests of the local gateway do not mix). Level
 *   from the config's logLevel (AGORA_LOG_LEVEL, else the Lambda application log level, else INFO; WARN under
 *   vitest). Values under secret-looking keys (authorization, tokens, keys, passwords) are replaced by `[redacted]`
 *   whatever logs them; headers and query strings are never logged at all.
 * - Metrics: CloudWatch embedded metric format, one line per publish, namespace `Agora`, dimensions `service` plus
 *   `route` or `bot` (and `transition`). Emitted in Lambda; locally only with AGORA_METRICS=1.
 * - Traces: Lambda active tracing records each invocation; each DynamoDB call adds its subsegment (xray.ts, no X-Ray
 *   SDK: Powertools' Tracer was a third of every bundle), only in Lambda.
 *
 * Not Powertools' Logger and Metrics: with their commons they were 33 KB of every bundle (a read's budget is 60 KB)
 * for what is here a hundred lines. The lines go to `process.stdout.write`, not `console.*`: with the functions' JSON
 * log format the runtime would wrap a console line in its own JSON object; a JSON line written to stdout is kept as it
 * is, and Lambda filters it by its `level` (README, Logs).
 */
const { namespace: NAMESPACE, service: SERVICE } = TELEMETRY;

const SECRET_KEY =
  /^(authorization|proxy-authorization|cookie|x-access-token|acc_token|token|access_token|transfer|key|api_?key|password|secret)$/i;

/** JSON.stringify's replacer: redacts secrets, writes errors (name, message, stack, cause), bigints, and cuts cycles. */
function replacer(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (key, value) => {
    if (key && SECRET_KEY.test(key) && value !== undefined && value !== null) return '[redacted]';
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error)
      return { name: value.name, message: value.message, stack: value.stack, cause: value.cause };
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return '[Circular]';
      seen.add(value);
    }
    return value;
  };
}

/** Lambda's levels (and Powertools' numbers); a line is written when its level's rank is at least the logger's. */
const RANK: Record<LogLevel, number> = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 };

const PLAIN = new Set(['string', 'number', 'boolean', 'undefined']);

/**
 * A record of plain values (strings, numbers, booleans) under no secret-looking key: the request line, most lines.
 * JSON.stringify leaves its fast path when given a replacer, and these need none.
 */
function isPlain(record: Record<string, unknown>): boolean {
  for (const key in record) {
    const value = record[key];
    // Objects, bigints and functions (a `toJSON` among the keys would run unredacted) take the replacer.
    if ((value !== null && !PLAIN.has(typeof value)) || SECRET_KEY.test(key)) return false;
  }
  return true;
}

/** Writes one line to stdout; logging must never fail a request. */
function writeLine(record: Record<string, unknown>): void {
  let text: string;
  try {
    text = isPlain(record) ? JSON.stringify(record) : JSON.stringify(record, replacer());
  } catch (error) {
    text = JSON.stringify({ level: record.level, message: record.message, logError: String(error) });
  }
  process.stdout.write(`${text}\n`);
}

/** The trace id of the invocation (`Root=` of the X-Ray header the runtime sets per invocation). */
const traceId = () => traceHeader()?.match(/Root=([^;]+)/)?.[1];

/** Only the first invocation of a process (Lambda's cold start) says `cold_start: true`. */
let coldStart = true;

/** Structured JSON logger. Children share their root's level (the process's), so setting it applies to all. */
export class Logger {
  private constructor(
    private readonly keys: Record<string, unknown>,
    private readonly threshold: { level: LogLevel },
  ) {}

  static root(level: LogLevel): Logger {
    return new Logger({}, { level });
  }

  createChild(keys: Record<string, unknown>): Logger {
    return new Logger({ ...this.keys, ...keys }, this.threshold);
  }

  setLogLevel(level: LogLevel): void {
    this.threshold.level = level;
  }

  getLevelName(): LogLevel {
    return this.threshold.level;
  }

  trace(message: string, extra?: Record<string, unknown>): void {
    this.write('TRACE', message, extra);
  }
  debug(message: string, extra?: Record<string, unknown>): void {
    this.write('DEBUG', message, extra);
  }
  info(message: string, extra?: Record<string, unknown>): void {
    this.write('INFO', message, extra);
  }
  warn(message: string, extra?: Record<string, unknown>): void {
    this.write('WARN', message, extra);
  }
  error(message: string, extra?: Record<string, unknown>): void {
    this.write('ERROR', message, extra);
  }
  critical(message: string, extra?: Record<string, unknown>): void {
    this.write('CRITICAL', message, extra);
  }

  private write(level: Exclude<LogLevel, 'SILENT'>, message: string, extra: Record<string, unknown> = {}): void {
    if (RANK[level] < RANK[this.threshold.level]) return;
    const line: Record<string, unknown> = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: SERVICE,
      xray_trace_id: traceId(),
      ...this.keys,
    };
    // The standard keys and the scope's win over a call's keys of the same name.
    for (const [key, value] of Object.entries(extra)) if (!(key in line)) line[key] = value;
    writeLine(line);
  }
}

export const rootLogger = Logger.root(config().logLevel);

interface Scope {
  logger: Logger;
  correlationId: string;
  /** Bot runs: transitions counted during the run, published with its metrics. */
  transitions?: Map<string, number>;
}
const scopes = new AsyncLocalStorage<Scope>();

/** The logger of the current request or bot run (with its correlation id), else the root logger. */
export const log = (): Logger => scopes.getStore()?.logger ?? rootLogger;

export const correlationId = (): string | undefined => scopes.getStore()?.correlationId;

/**
 * Runs `fn` with a child logger that stamps `correlation_id` (and `keys`: the route, the Lambda `requestId`, the bot)
 * on every line it writes, and `cold_start` (true in the first scope of the process only).
 */
export function withCorrelation<T>(
  id: string,
  keys: Record<string, string | undefined>,
  fn: () => Promise<T>,
  extra: Partial<Scope> = {},
): Promise<T> {
  // An undefined key (no Lambda request id locally) is left out of the lines.
  const logger = rootLogger.createChild({ cold_start: coldStart, correlation_id: id, ...keys });
  coldStart = false;
  return scopes.run({ logger, correlationId: id, ...extra }, fn);
}

/**
 * The same scope for the rest of the current asynchronous flow, for a middleware, which cannot wrap what follows it
 * (the HTTP kit's observability middleware: each request's flow starts apart, so concurrent requests never mix).
 */
export function enterCorrelation(id: string, keys: Record<string, string | undefined>): void {
  const logger = rootLogger.createChild({ cold_start: coldStart, correlation_id: id, ...keys });
  coldStart = false;
  scopes.enterWith({ logger, correlationId: id });
}

/** A client's own `x-correlation-id` is kept when it is a plain token; otherwise API Gateway's request id. */
const CLIENT_ID = /^[\w.:-]{8,64}$/;
export const requestCorrelationId = (header: string | undefined, requestId: string | undefined): string =>
  header && CLIENT_ID.test(header) ? header : (requestId ?? randomUUID());

const metricsOn = () => config().metrics;

/** The CloudWatch units this service publishes in (a subset of CloudWatch's StandardUnit). */
export const MetricUnit = {
  Count: 'Count',
  Milliseconds: 'Milliseconds',
  Seconds: 'Seconds',
  Bytes: 'Bytes',
  Percent: 'Percent',
  None: 'None',
} as const;
export type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/**
 * One CloudWatch embedded metric format document: `_aws` names the namespace, the one dimension set (`service` and
 * `dimensions`' keys) and each metric with its unit; the values are top-level members beside the dimension values.
 * Values that are not finite numbers are left out (CloudWatch would reject the whole document); null when none is left.
 */
export function emfDocument(
  dimensions: Record<string, string>,
  values: Record<string, [number, Unit]>,
  timestamp: number,
): Record<string, unknown> | null {
  const metrics = Object.entries(values).filter(([, [value]]) => Number.isFinite(value));
  if (!metrics.length) return null;
  const dims = { service: SERVICE, ...dimensions };
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: NAMESPACE,
          Dimensions: [Object.keys(dims)],
          Metrics: metrics.map(([Name, [, Unit]]) => ({ Name, Unit })),
        },
      ],
    },
    ...dims,
    ...Object.fromEntries(metrics.map(([name, [value]]) => [name, value])),
  };
}

/** One EMF line: the given counts/timings under `service` and `dimensions`. */
export function publishMetrics(dimensions: Record<string, string>, values: Record<string, [number, Unit]>): void {
  if (!metricsOn()) return;
  const document = emfDocument(dimensions, values, Date.now());
  if (document) process.stdout.write(`${JSON.stringify(document)}\n`);
}

/** Per route: Requests, 4xx/5xx counts and Latency (ms), dimension `route` = the route key (`GET /api/0.1/lots/{id}`). */
export function requestMetrics(route: string, status: number, latencyMs: number): void {
  publishMetrics(
    { route },
    {
      Requests: [1, MetricUnit.Count],
      ClientErrors: [status >= 400 && status < 500 ? 1 : 0, MetricUnit.Count],
      ServerErrors: [status >= 500 ? 1 : 0, MetricUnit.Count],
      Latency: [latencyMs, MetricUnit.Milliseconds],
    },
  );
  // Service-wide counts the auth-failure and throttle alarms watch (lib/operations.ts).
  if (status === 401 || status === 403) publishMetrics({}, { [TELEMETRY.authFailures]: [1, MetricUnit.Count] });
  if (status === 429) publishMetrics({}, { [TELEMETRY.throttled]: [1, MetricUnit.Count] });
}

/**
 * Opens one request's scope (an HTTP request, a room page's, a message on the room's socket): its correlation id and
 * `keys` (the route, the Lambda request id...) on every line it writes; answers when it started, for `closeRequest`.
 */
export function openRequest(id: string, keys: Record<string, string | undefined>): number {
  enterCorrelation(id, keys);
  return performance.now();
}

/** Who made a request, as its line names them: an API key's name and role; on the room's socket, bidder or observer. */
export interface RequestCaller {
  name: string;
  role: string;
}

/**
 * Closes a request opened by `openRequest`: its one `request` line (what it was about: the path's ids, the auction;
 * then status, latency, the caller's name and role; never headers, query or body), at ERROR from 500 up, and its
 * route's metrics (`requestMetrics`). Both kits close with it (the HTTP kit, the room's socket kit), so an API route, a
 * room page and a room message log and count alike.
 */
export function closeRequest(
  route: string,
  started: number,
  status: number,
  caller: RequestCaller,
  about: Record<string, string | undefined> = {},
): void {
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  const line = { ...about, status, latencyMs, caller: caller.name, role: caller.role };
  log()[status >= 500 ? 'error' : 'info']('request', line);
  requestMetrics(route, status, latencyMs);
}

/** Counts one transition a bot made in the current run (`lot active.salable->pending.sold`, `claim`, ...). */
export function recordTransition(name: string): void {
  const transitions = scopes.getStore()?.transitions;
  if (transitions) transitions.set(name, (transitions.get(name) ?? 0) + 1);
}

/**
 * Runs one bot run under its own correlation id, logs its outcome and publishes its metrics: per completed run
 * `BotRuns` (1: the heartbeat alarm fires on its absence, so a run that crashes or never starts publishes none), `Due`, `Changed`,
 * `BotItemFailures` (items that threw, left due for the next run; the bot failure alarm watches it), `DynamoDbRequests`
 * and `Duration` under dimension `bot`, and one `Transitions` count per transition under `bot` and `transition`.
 */
export async function observeBotRun<T extends { due: number; changed: number; failed?: number; requests?: number }>(
  bot: string,
  run: () => Promise<T>,
): Promise<T> {
  const transitions = new Map<string, number>();
  const started = performance.now();
  return withCorrelation(
    randomUUID(),
    { bot },
    async () => {
      const report = await run();
      const durationMs = Math.round(performance.now() - started);
      const failed = report.failed ?? 0;
      const line = {
        due: report.due,
        changed: report.changed,
        failed,
        requests: report.requests,
        durationMs,
        transitions: Object.fromEntries(transitions),
      };
      if (failed) log().error('bot run had failures', line);
      else if (report.changed) log().info('bot run', line);
      else log().debug('bot run', line);
      publishMetrics(
        { bot },
        {
          [TELEMETRY.botRuns]: [1, MetricUnit.Count],
          Due: [report.due, MetricUnit.Count],
          Changed: [report.changed, MetricUnit.Count],
          [TELEMETRY.botItemFailures]: [failed, MetricUnit.Count],
          DynamoDbRequests: [report.requests ?? 0, MetricUnit.Count],
          Duration: [durationMs, MetricUnit.Milliseconds],
        },
      );
      for (const [transition, count] of transitions)
        publishMetrics({ bot, transition }, { Transitions: [count, MetricUnit.Count] });
      return report;
    },
    { transitions },
  );
}
