import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonAddress, parseTraceHeader, traceClient } from '../../../functions/store/xray.ts';
import { resetConfig } from '../../../functions/platform/config.ts';

/** A stand-in SDK client: the middleware stack of SDK v3 reduced to what traceClient uses. */
function fakeClient(answer: () => Promise<unknown>) {
  const middlewares: ((next: any, context: any) => (args: any) => Promise<any>)[] = [];
  return {
    middlewareStack: { add: (m: (typeof middlewares)[number]) => void middlewares.push(m) },
    send: (commandName: string, input: unknown) =>
      middlewares.reduceRight<(args: any) => Promise<any>>(
        (next, m) => m(next, { commandName }),
        async () => ({ output: await answer() }),
      )({ input }),
  };
}

const ENV = ['AWS_XRAY_DAEMON_ADDRESS', '_X_AMZN_TRACE_ID', 'AWS_REGION'] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  resetConfig();
});

describe('X-Ray subsegments without the X-Ray SDK', () => {
  it('reads the trace header and the daemon address as Lambda sets them', () => {
    expect(parseTraceHeader('Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1')).toEqual({
      traceId: '1-5759e988-bd862e3fe1be46a994272793',
      parentId: '53995c3f42cd8ad8',
    });
    expect(
      parseTraceHeader('Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0'),
    ).toBeUndefined();
    expect(parseTraceHeader(undefined)).toBeUndefined();
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:127.0.0.1:2001 udp:127.0.0.2:2002')).toEqual({ host: '127.0.0.2', port: 2002 });
  });

  it('sends one subsegment per call of a sampled invocation to the daemon, under the function segment', async () => {
    const daemon = createSocket('udp4');
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    const received = new Promise<string>((resolve) => daemon.once('message', (m) => resolve(m.toString())));
    process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    resetConfig();
    process.env.AWS_REGION = 'eu-central-1';
    resetConfig();
    const client = traceClient(
      fakeClient(async () => ({ $metadata: { requestId: 'R1', httpStatusCode: 200, attempts: 1 } })),
      'DynamoDB',
    );
    await client.send('GetItemCommand', { TableName: 'agora' });
    const [header, body] = (await received).split('\n');
    daemon.close();
    expect(JSON.parse(header)).toEqual({ format: 'json', version: 1 });
    const doc = JSON.parse(body);
    expect(doc).toMatchObject({
      name: 'DynamoDB',
      type: 'subsegment',
      namespace: 'aws',
      trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      parent_id: '53995c3f42cd8ad8',
      aws: { operation: 'GetItem', table_name: 'agora', region: 'eu-central-1', request_id: 'R1', retries: 0 },
      http: { response: { status: 200 } },
    });
    expect(doc.id).toMatch(/^[0-9a-f]{16}$/);
    expect(doc.end_time).toBeGreaterThanOrEqual(doc.start_time);
  });

  it('marks a failed call as a fault and still throws its error; passes calls through when not traced', async () => {
    const daemon = createSocket('udp4');
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    const received = new Promise<string>((resolve) => daemon.once('message', (m) => resolve(m.toString())));
    process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    resetConfig();
    const failure = Object.assign(new Error('boom'), { $metadata: { httpStatusCode: 500 } });
    const client = traceClient(
      fakeClient(async () => {
        throw failure;
      }),
      'DynamoDB',
    );
    await expect(client.send('QueryCommand', {})).rejects.toBe(failure);
    const doc = JSON.parse((await received).split('\n')[1]);
    daemon.close();
    expect(doc).toMatchObject({ fault: true, aws: { operation: 'Query' }, http: { response: { status: 500 } } });
    delete process.env.AWS_XRAY_DAEMON_ADDRESS;
    resetConfig();
    const quiet = traceClient(
      fakeClient(async () => ({ ok: 1 })),
      'DynamoDB',
    );
    await expect(quiet.send('QueryCommand', {})).resolves.toEqual({ output: { ok: 1 } });
  });
});
