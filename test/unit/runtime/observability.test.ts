import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig, resetConfig } from '../../../functions/platform/config.ts';
import {
  emfDocument,
  MetricUnit,
  publishMetrics,
  requestMetrics,
  rootLogger,
} from '../../../functions/runtime/observability.ts';
import { TELEMETRY } from '../../../functions/platform/telemetry.ts';

/** CloudWatch's StandardUnit values (PutMetricData), the only units an EMF document may name. */
const CLOUDWATCH_UNITS = new Set(
  'Seconds Microseconds Milliseconds Bytes Kilobytes Megabytes Gigabytes Terabytes Bits Kilobits Megabits Gigabits Terabits Percent Count Bytes/Second Kilobytes/Second Megabytes/Second Gigabytes/Second Terabytes/Second Bits/Second Kilobits/Second Megabits/Second Gigabits/Second Terabits/Second Count/Second None'.split(
    ' ',
  ),
);

/**
 * The rules of the embedded metric format specification a document must follow for CloudWatch to extract its
 * metrics: `_aws` with an integer ms Timestamp and CloudWatchMetrics directives (Namespace, Dimensions: arrays of at
 * most 30 names each a string member of the document, Metrics: at most 100, each named with a numeric member and a
 * valid unit).
 */
function expectValidEmf(doc: Record<string, any>): void {
  const { Timestamp, CloudWatchMetrics } = doc._aws;
  expect(Number.isInteger(Timestamp)).toBe(true);
  expect(Math.abs(Timestamp - Date.now())).toBeLessThan(60_000);
  expect(CloudWatchMetrics.length).toBeGreaterThan(0);
  for (const directive of CloudWatchMetrics) {
    expect(directive.Namespace).toMatch(/\S/);
    expect(directive.Dimensions.length).toBeGreaterThan(0);
    for (const set of directive.Dimensions) {
      expect(set.length).toBeLessThanOrEqual(30);
      for (const name of set) expect(typeof doc[name], `dimension ${name}`).toBe('string');
    }
    expect(directive.Metrics.length).toBeGreaterThan(0);
    expect(directive.Metrics.length).toBeLessThanOrEqual(100);
    for (const metric of directive.Metrics) {
      expect(Number.isFinite(doc[metric.Name]), `value of ${metric.Name}`).toBe(true);
      expect(CLOUDWATCH_UNITS.has(metric.Unit), `unit ${metric.Unit}`).toBe(true);
    }
  }
}

/** The lines written to stdout while `fn` runs, each parsed. */
function stdoutLines(fn: () => void | Promise<void>): Promise<Record<string, any>[]> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
    chunks.push(String(chunk));
    return true;
  });
  return Promise.resolve()
    .then(fn)
    .finally(() => spy.mockRestore())
    .then(() =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    );
}

describe('EMF metrics', () => {
  beforeAll(() => {
    process.env.AGORA_METRICS = '1';
    resetConfig();
  });
  afterAll(() => {
    delete process.env.AGORA_METRICS;
    resetConfig();
  });

  it('writes a valid document: namespace, one dimension set with service, every metric named, valued and united', () => {
    const doc = emfDocument(
      { route: 'GET /api/0.1/lots' },
      { Requests: [1, MetricUnit.Count], Latency: [12.5, MetricUnit.Milliseconds] },
      Date.now(),
    );
    expect(doc).not.toBeNull();
    expectValidEmf(doc as Record<string, any>);
    expect(doc).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: TELEMETRY.namespace,
            Dimensions: [['service', 'route']],
            Metrics: [
              { Name: 'Requests', Unit: 'Count' },
              { Name: 'Latency', Unit: 'Milliseconds' },
            ],
          },
        ],
      },
      service: TELEMETRY.service,
      route: 'GET /api/0.1/lots',
      Requests: 1,
      Latency: 12.5,
    });
  });

  it('leaves out values that are not finite numbers, and writes nothing when none is left', () => {
    const doc = emfDocument({}, { Good: [2, MetricUnit.Count], Bad: [Number.NaN, MetricUnit.Count] }, Date.now());
    expect(doc?._aws).toMatchObject({ CloudWatchMetrics: [{ Metrics: [{ Name: 'Good', Unit: 'Count' }] }] });
    expect(doc).not.toHaveProperty('Bad');
    expect(emfDocument({}, { Bad: [Number.POSITIVE_INFINITY, MetricUnit.Count] }, Date.now())).toBeNull();
  });

  it('publishes one line per call, and the service-wide counts the alarms watch under dimension service only', async () => {
    const lines = await stdoutLines(() => {
      requestMetrics('POST /api/0.1/lots', 401, 3);
      requestMetrics('GET /api/0.1/lots', 429, 1);
      requestMetrics('GET /api/0.1/lots/{id}', 500, 7.25);
    });
    expect(lines).toHaveLength(5);
    for (const line of lines) expectValidEmf(line);
    const [denied, authFailure, limited, throttled, failed] = lines;
    expect(denied).toMatchObject({ route: 'POST /api/0.1/lots', Requests: 1, ClientErrors: 1, ServerErrors: 0 });
    expect(authFailure._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(authFailure).toMatchObject({ service: 'agora', [TELEMETRY.authFailures]: 1 });
    expect(limited).toMatchObject({ ClientErrors: 1 });
    expect(throttled).toMatchObject({ [TELEMETRY.throttled]: 1 });
    expect(throttled._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(failed).toMatchObject({ ServerErrors: 1, ClientErrors: 0, Latency: 7.25 });
  });

  it('writes nothing when metrics are off (locally without AGORA_METRICS=1)', async () => {
    delete process.env.AGORA_METRICS;
    resetConfig();
    try {
      expect(await stdoutLines(() => publishMetrics({}, { Requests: [1, MetricUnit.Count] }))).toEqual([]);
    } finally {
      process.env.AGORA_METRICS = '1';
      resetConfig();
    }
  });
});

describe('JSON log lines', () => {
  const TRACE = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
  beforeAll(() => {
    process.env._X_AMZN_TRACE_ID = TRACE;
  });
  afterEach(() => rootLogger.setLogLevel('WARN'));
  afterAll(() => {
    delete process.env._X_AMZN_TRACE_ID;
  });

  it('writes one JSON object a line: level, message, ISO timestamp, service, trace id, scope keys and extra keys', async () => {
    // The module as a new process loads it (other files of this worker logged already: its cold start is spent).
    vi.resetModules();
    const { log, rootLogger, withCorrelation } = await import('../../../functions/runtime/observability.ts');
    rootLogger.setLogLevel('INFO');
    const lines = await stdoutLines(async () => {
      await withCorrelation('corr-12345678', { route: 'GET /x', requestId: 'req-1', absent: undefined }, async () =>
        log().info('first', { status: 200, level: 'DEBUG' }),
      );
      await withCorrelation('corr-87654321', { route: 'GET /x' }, async () => log().info('second'));
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({
      level: 'INFO',
      message: 'first',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: 'agora',
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      cold_start: true,
      correlation_id: 'corr-12345678',
      route: 'GET /x',
      requestId: 'req-1',
      status: 200,
    });
    // Only the first scope of a process is its cold start.
    expect(lines[1]).toMatchObject({ message: 'second', cold_start: false, correlation_id: 'corr-87654321' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('writes only the lines at or above the level, in every child logger', async () => {
    rootLogger.setLogLevel('WARN');
    const lines = await stdoutLines(async () => {
      const logger = rootLogger.createChild({ bot: 'convoy' });
      for (const l of [rootLogger, logger]) {
        l.trace('t');
        l.debug('d');
        l.info('i');
        l.warn('w');
        l.error('e');
        l.critical('c');
      }
      rootLogger.setLogLevel('SILENT');
      logger.critical('silenced');
    });
    expect(lines.map((l) => `${l.level}:${l.message}${l.bot ? '@bot' : ''}`)).toEqual([
      'WARN:w',
      'ERROR:e',
      'CRITICAL:c',
      'WARN:w@bot',
      'ERROR:e@bot',
      'CRITICAL:c@bot',
    ]);
  });

  it('redacts secrets at any depth, writes errors with their stack and cause, and survives cycles and bigints', async () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const error = new Error('boom', { cause: new TypeError('root cause') });
    const lines = await stdoutLines(() =>
      rootLogger.error('failed', {
        headers: { Authorization: 'Basic c2VjcmV0', other: 'kept' },
        access: { token: 'tok-secret' },
        acc_token: 'tok-2',
        error,
        cyclic,
        big: 10n ** 20n,
      }),
    );
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(JSON.stringify(line)).not.toMatch(/c2VjcmV0|tok-secret|tok-2/);
    expect(line.headers).toEqual({ Authorization: '[redacted]', other: 'kept' });
    expect(line.access).toEqual({ token: '[redacted]' });
    expect(line.error).toMatchObject({ name: 'Error', message: 'boom', stack: expect.stringContaining('boom') });
    expect(line.error.cause).toMatchObject({ name: 'TypeError', message: 'root cause' });
    expect(line.cyclic).toEqual({ name: 'loop', self: '[Circular]' });
    expect(line.big).toBe('100000000000000000000');
  });

  it('redacts a secret in a line of plain values too (written without the replacer when nothing needs it)', async () => {
    const lines = await stdoutLines(() => {
      rootLogger.error('plain', { status: 401, caller: 'broker', token: 'tok-3', api_key: 42, big: 7n });
      rootLogger.error('plain', { status: 200, caller: 'broker', missing: undefined, ok: true });
      // A `toJSON` among a line's keys would make the whole line; it must not slip past the redaction.
      rootLogger.error('plain', { status: 200, toJSON: () => ({ token: 'tok-4' }) });
    });
    expect(JSON.stringify(lines)).not.toMatch(/tok-4/);
    expect(JSON.stringify(lines)).not.toMatch(/tok-3/);
    expect(lines[0]).toMatchObject({
      status: 401,
      caller: 'broker',
      token: '[redacted]',
      api_key: '[redacted]',
      big: '7',
    });
    expect(lines[1]).toMatchObject({ message: 'plain', status: 200, caller: 'broker', ok: true });
    expect(lines[1]).not.toHaveProperty('missing');
  });
});

describe('log level from the configuration', () => {
  it("takes AGORA_LOG_LEVEL, else the function's application log level (Lambda's FATAL is CRITICAL), else INFO", () => {
    expect(readConfig({ AGORA_LOG_LEVEL: 'debug', AWS_LAMBDA_LOG_LEVEL: 'ERROR' }).logLevel).toBe('DEBUG');
    expect(readConfig({ AWS_LAMBDA_LOG_LEVEL: 'WARN' }).logLevel).toBe('WARN');
    expect(readConfig({ AWS_LAMBDA_LOG_LEVEL: 'FATAL' }).logLevel).toBe('CRITICAL');
    expect(readConfig({}).logLevel).toBe('INFO');
    expect(readConfig({ AGORA_LOG_LEVEL: 'chatty' }).logLevel).toBe('INFO');
  });
});
