import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { parseInstant } from '#domain/kernel/time.ts';
import type { RoomPorts, TimerOrder } from '#domain/room/ports.ts';
import { config } from '#platform/config.ts';
import { observeClient } from '#store/aws-calls.ts';

/**
 * The room's ports (domain/room/ports.ts `RoomPorts`) in AWS: a message to a connection is API Gateway's
 * PostToConnection, a publish to the observers AppSync Events' HTTP publish (POST /event, signed with the Lambda's
 * role: appsync:EventPublish), the room's next timer a Step Functions execution. The local runtime (lib/local/room-server.ts,
 * never AWS) installs its own: the `ws` server's sockets and in-process timers that call the same transition handler.
 * The Step Functions client and the signer (with its credentials provider) are imported at their first use: the
 * socket's message routes never arm a timer nor publish, and their cold start no longer loads them (issue 46).
 */

/** Step Functions' Wait takes an RFC 3339 timestamp: UTC, to the millisecond, never before the instant. */
export const utcCeiling = (at: string): string => new Date(Math.ceil((parseInstant(at) ?? 0) / 1000)).toISOString();

/** The timer's execution input (its first task's input too): the order, its instant as the Wait state reads it. */
export const timerInput = (order: TimerOrder): TimerOrder => ({ ...order, nextAt: utcCeiling(order.nextAt) });

// On globalThis, like the other local-runtime state: every copy of this module (a bundle per handler) sees it.
const LOCAL_PORTS = Symbol.for('agora.localRoomPorts');
const shared = globalThis as unknown as Record<symbol, RoomPorts | undefined>;

/** The local runtime's ports (lib/local/room-server.ts); refused inside Lambda. */
export function installLocalRoomPorts(ports: RoomPorts | undefined): void {
  if (config().inLambda) throw new Error('the local room ports never run in AWS Lambda');
  shared[LOCAL_PORTS] = ports;
}

let management: ApiGatewayManagementApiClient | undefined;
let sfn: SFNClient | undefined;

const managementApi = () => {
  const endpoint = config().roomCallbackUrl;
  if (!endpoint) throw new Error('the room: ROOM_CALLBACK_URL is not set');
  management ??= observeClient(new ApiGatewayManagementApiClient({ endpoint }), 'ApiGatewayManagementApi', endpoint);
  return management;
};
const isGone = (error: unknown) =>
  error instanceof GoneException || (error as { name?: string }).name === 'GoneException';

/** SHA-256 (and its HMAC) for SigV4, from node:crypto: the SDK's checksum interface. */
type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data) =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);
class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: Data) {
    this.hash = this.fresh();
  }
  private fresh = () => (this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.secret)));
  update(data: Data) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    this.hash = this.fresh();
  }
}

let signer: SignatureV4 | undefined;

/** AppSync Events' publish: the channel and its events (each a JSON text), as its HTTP endpoint takes them. */
async function publishEvent(channel: string, event: string): Promise<void> {
  const host = config().roomEventsHost;
  if (!host) throw new Error('the room: ROOM_EVENTS_HOST is not set');
  if (!signer) {
    const [{ SignatureV4 }, { defaultProvider }] = await Promise.all([
      import('@smithy/signature-v4'),
      import('@aws-sdk/credential-provider-node'),
    ]);
    signer ??= new SignatureV4({
      service: 'appsync',
      region: config().awsRegion ?? 'eu-central-1',
      credentials: defaultProvider(),
      sha256: Sha256,
    });
  }
  const body = JSON.stringify({ channel, events: [event] });
  const signed = await signer.sign({
    method: 'POST',
    protocol: 'https:',
    hostname: host,
    path: '/event',
    headers: { host, 'content-type': 'application/json' },
    body,
  });
  const res = await fetch(`https://${host}/event`, { method: 'POST', headers: signed.headers, body });
  const answer = (await res.json().catch(() => ({}))) as { failed?: unknown[] };
  // A 200 may still name events it refused (`failed`): both are failures here.
  if (!res.ok || answer.failed?.length)
    throw new Error(`AppSync Events publish: ${res.status} ${JSON.stringify(answer)}`);
}

const awsPorts: RoomPorts = {
  publish: publishEvent,
  async send(connectionId, message) {
    try {
      await managementApi().send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: message }));
      return 'sent';
    } catch (error) {
      if (isGone(error)) return 'gone';
      throw error;
    }
  },
  async close(connectionId) {
    // API Gateway takes no close code or reason: the client has heard why in the message before.
    try {
      await managementApi().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  },
  async arm(order) {
    const stateMachineArn = config().roomTimersArn;
    if (!stateMachineArn) throw new Error('the room: ROOM_TIMERS_ARN is not set');
    const { SFNClient, StartExecutionCommand } = await import('@aws-sdk/client-sfn');
    sfn ??= observeClient(new SFNClient({}), 'SFN');
    try {
      // One execution per room version and instant: starting the same one twice is refused, which is what we want.
      await sfn.send(
        new StartExecutionCommand({
          stateMachineArn,
          name: `${order.auctionId}-${order.version}-${Date.parse(order.nextAt)}`,
          input: JSON.stringify(timerInput(order)),
        }),
      );
    } catch (error) {
      if ((error as { name?: string }).name !== 'ExecutionAlreadyExists') throw error;
    }
  },
};

export const roomPorts = (): RoomPorts => shared[LOCAL_PORTS] ?? awsPorts;
