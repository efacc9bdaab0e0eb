import { createSocket, type Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { config, traceHeader } from '#platform/config.ts';

/**
 * X-Ray subsegments for AWS SDK calls, without the X-Ray SDK. In Lambda with active tracing the runtime records the
 * function's segment and hands each invocation its trace header (`_X_AMZN_TRACE_ID`); what the X-Ray SDK adds for a
 * DynamoDB call is one subsegment document sent over UDP to the daemon (`AWS_XRAY_DAEMON_ADDRESS`). This does exactly
 * that in a few hundred bytes, where Powertools' Tracer brings the X-Ray SDK, semver and cls-hooked (about 120 KB and
 * 40 ms of every cold start). Outside Lambda (no daemon address) it does nothing.
 */
export interface TraceContext {
  traceId: string;
  parentId: string;
}

/** `Root=1-…;Parent=…;Sampled=1` → the ids, or undefined when the request is not sampled. */
export function parseTraceHeader(header: string | undefined): TraceContext | undefined {
  if (!header) return undefined;
  const fields = Object.fromEntries(header.split(';').map((part) => part.trim().split('=') as [string, string]));
  if (!fields.Root || !fields.Parent || fields.Sampled !== '1') return undefined;
  return { traceId: fields.Root, parentId: fields.Parent };
}

/** `169.254.79.129:2000`, or `tcp:… udp:…` (the UDP part). */
export function daemonAddress(value: string | undefined): { host: string; port: number } | undefined {
  if (!value) return undefined;
  const udp = value.split(/\s+/).find((part) => part.startsWith('udp:')) ?? value;
  const match = /^(?:udp:)?([^:\s]+):(\d+)$/.exec(udp);
  return match ? { host: match[1], port: Number(match[2]) } : undefined;
}

export interface SubsegmentFacts {
  service: string;
  operation: string;
  start: number;
  end: number;
  region?: string;
  tableName?: string;
  requestId?: string;
  status?: number;
  retries?: number;
  error?: boolean;
}

/** The subsegment document as the X-Ray SDK writes it for an AWS call (namespace `aws`). */
export function subsegmentDocument(context: TraceContext, facts: SubsegmentFacts): Record<string, unknown> {
  const status = facts.status;
  return {
    name: facts.service,
    id: randomBytes(8).toString('hex'),
    trace_id: context.traceId,
    parent_id: context.parentId,
    start_time: facts.start / 1000,
    end_time: facts.end / 1000,
    type: 'subsegment',
    namespace: 'aws',
    aws: {
      operation: facts.operation,
      region: facts.region,
      request_id: facts.requestId,
      retries: facts.retries ?? 0,
      ...(facts.tableName && { table_name: facts.tableName }),
    },
    ...(status !== undefined && { http: { response: { status } } }),
    ...(facts.error && (status !== undefined && status >= 400 && status < 500 ? { error: true } : { fault: true })),
  };
}

let socket: Socket | undefined;
const HEADER = '{"format":"json","version":1}\n';

function send(document: Record<string, unknown>): void {
  const address = daemonAddress(config().xrayDaemonAddress);
  if (!address) return;
  if (!socket) {
    socket = createSocket('udp4');
    socket.unref(); // never keeps a process (or a frozen Lambda) alive
  }
  socket.send(HEADER + JSON.stringify(document), address.port, address.host, () => {});
}

interface MiddlewareStackLike {
  add(
    middleware: (next: (args: any) => Promise<any>, context: any) => (args: any) => Promise<any>,
    options: { step: 'initialize'; name: string },
  ): void;
}

/**
 * Adds a middleware to an SDK v3 client that sends one subsegment per call of a sampled invocation. The trace header
 * is read per call: the Lambda runtime sets it per invocation.
 */
export function traceClient<C extends { middlewareStack: MiddlewareStackLike; config?: { region?: unknown } }>(
  client: C,
  service: string,
): C {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const trace = daemonAddress(config().xrayDaemonAddress) && parseTraceHeader(traceHeader());
      if (!trace) return next(args);
      const start = Date.now();
      const facts = (output: any, error?: any): SubsegmentFacts => ({
        service,
        operation: String(context.commandName ?? 'Unknown').replace(/Command$/, ''),
        start,
        end: Date.now(),
        region: config().awsRegion,
        tableName: typeof args.input?.TableName === 'string' ? args.input.TableName : undefined,
        requestId: (output ?? error)?.$metadata?.requestId,
        status: (output ?? error)?.$metadata?.httpStatusCode,
        retries: (output ?? error)?.$metadata?.attempts ? (output ?? error).$metadata.attempts - 1 : 0,
        error: error !== undefined,
      });
      try {
        const output = await next(args);
        send(subsegmentDocument(trace, facts(output.output)));
        return output;
      } catch (error) {
        send(subsegmentDocument(trace, facts(undefined, error)));
        throw error;
      }
    },
    { step: 'initialize', name: 'agoraXRay' },
  );
  return client;
}
