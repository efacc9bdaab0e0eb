import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { loadValidators } from '../domain/kernel/validation.ts';
import { TELEMETRY } from './telemetry.ts';
import { config } from './config.ts';
import { wireRuntime } from './wiring.ts';

/**
 * Logs, metrics and traces of every Lambda (and of `npm start`, which runs the same handlers).
 *
 * - Logs: Powertools logger, one JSON object a line. Each request and each bot run gets a child logger carrying its
 *   `correlation_id` (kept in an AsyncLocalStorage, so concurrent requests of the local gateway do not mix). Level
 *   from the config's logLevel (AGORA_LOG_LEVEL, else INFO; WARN under vitest). Values under secret-looking keys (authorization, tokens, keys,
 *   passwords) are replaced by `[redacted]` whatever logs them; headers and query strings are never logged at all.
 * - Metrics: CloudWatch embedded metric format (Powertools metrics), namespace `Agora`, dimensions `service` plus
 *   `route` or `bot` (and `transition`). Emitted in Lambda; locally only with AGORA_METRICS=1.
 * - Traces: Lambda active tracing records each invocation; each DynamoDB call adds its subsegment (xray.ts, no X-Ray
 *   SDK: Powertools' Tracer was a third of every bundle), only in Lambda.
 */
const { namespace: NAMESPACE, service: SERVICE } = TELEMETRY;

const SECRET_KEY =
  /^(authorization|proxy-authorization|cookie|x-access-token|acc_token|token|access_token|transfer|key|api_?key|password|secret)$/i;
const redact = (key: string, value: unknown) =>
  key && SECRET_KEY.test(key) && value !== undefined && value !== null ? '[redacted]' : value;

export const rootLogger = new Logger({ serviceName: SERVICE, logLevel: config().logLevel, jsonReplacerFn: redact });

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

/** Runs `fn` with a child logger that stamps `correlation_id` (and `keys`) on every line it writes. */
export function withCorrelation<T>(
  id: string,
  keys: Record<string, string>,
  fn: () => Promise<T>,
  extra: Partial<Scope> = {},
): Promise<T> {
  const logger = rootLogger.createChild({ persistentKeys: { correlation_id: id, ...keys } });
  return scopes.run({ logger, correlationId: id, ...extra }, fn);
}

/** A client's own `x-correlation-id` is kept when it is a plain token; otherwise API Gateway's request id. */
const CLIENT_ID = /^[\w.:-]{8,64}$/;
export const requestCorrelationId = (header: string | undefined, requestId: string | undefined): string =>
  header && CLIENT_ID.test(header) ? header : (requestId ?? randomUUID());

const metricsOn = () => config().metrics;

/** One EMF line: the given counts/timings under `service` and `dimensions`. */
type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];
export function publishMetrics(dimensions: Record<string, string>, values: Record<string, [number, Unit]>): void {
  if (!metricsOn()) return;
  const metrics = new Metrics({ namespace: NAMESPACE, serviceName: SERVICE, defaultDimensions: dimensions });
  for (const [name, [value, unit]] of Object.entries(values)) metrics.addMetric(name, unit, value);
  metrics.publishStoredMetrics();
}

export { MetricUnit };

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

/** Counts one transition a bot made in the current run (`lot active.salable->pending.sold`, `claim`, ...). */
export function recordTransition(name: string): void {
  const transitions = scopes.getStore()?.transitions;
  if (transitions) transitions.set(name, (transitions.get(name) ?? 0) + 1);
}

/**
 * Runs one bot run under its own correlation id, logs its outcome and publishes its metrics: per run `Due`, `Changed`,
 * `BotItemFailures` (items that threw, left due for the next run; the bot failure alarm watches it), `DynamoDbRequests`
 * and `Duration` under dimension `bot`, and one `Transitions` count per transition under `bot` and `transition`.
 */
export async function observeBotRun<T extends { due: number; changed: number; failed?: number; requests?: number }>(
  bot: string,
  run: () => Promise<T>,
): Promise<T> {
  wireRuntime();
  const transitions = new Map<string, number>();
  const started = performance.now();
  return withCorrelation(
    randomUUID(),
    { bot },
    async () => {
      await loadValidators(); // bots check what they write as the API does
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
