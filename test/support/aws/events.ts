import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { bots } from '../../../functions/bots.ts';
import { roomLambdas } from '../../../functions/room/lambdas.ts';
import { routeKey, routes } from '../../../functions/routes.ts';
import { timerInput } from '../../../functions/room/ports.ts';
import { pipeRecord, queueMessage } from '../../../lib/local/change-stream.ts';
import { authorizerEvent, toEvent, withAuthorizer } from '../../../lib/local/gateway.ts';
import { connectExtras, socketEvent } from '../../../lib/local/room-server.ts';
import * as aws from './fixtures.ts';
import { shapeDiff, type ShapeRules } from './shape.ts';

/**
 * Event parity: each kind of event a function consumes, as the local stand-in builds it, against the AWS fixture of
 * its kind (fixtures.ts) by the shape walk (shape.ts). Pure: the stand-ins' own event builders, no network, so that
 * `npm run verify:aws` reports it cheaply; test/unit/local/event-parity.test.ts fails on any difference and
 * test/integration/aws-events.test.ts runs the fixtures through the real handlers.
 */
export interface EventParity {
  /** The consuming function (its module under functions/, or the family of them). */
  fn: string;
  /** The kind of event. */
  event: string;
  /** The stand-in that builds it locally. */
  standIn: string;
  /** What differs from AWS's shape, one line a field (empty: the same). */
  diffs: string[];
  /** What passing means, where it is not a matched fixture. */
  note?: string;
}

const HTTP_MAPS = ['headers', 'queryStringParameters', 'pathParameters', 'requestContext.authorizer.lambda'];
const SOCKET_MAPS = ['headers', 'multiValueHeaders', 'queryStringParameters', 'multiValueQueryStringParameters'];
const SQS_MAPS = ['messageAttributes'];
const IMAGES: ShapeRules = { images: ['dynamodb.Keys', 'dynamodb.NewImage', 'dynamodb.OldImage'] };

/** A request as a client sends it: a repeated query parameter, cookies, a binary body, mixed-case header names. */
export function localHttpEvent() {
  const route = routes.find((r) => r.path.includes('{') && r.auth !== 'public')!;
  const path = route.path.replace(/\{(\w+)\+?\}/g, 'a1');
  const url = new URL(`http://127.0.0.1:3000${path}?opt_fields=id&opt_fields=title&limit=5`);
  const body = Buffer.from([1, 2, 3, 4, 5]);
  const headers = {
    accept: 'application/json',
    authorization: 'Basic YnJva2VyOg==',
    'content-type': 'application/octet-stream',
    'content-length': String(body.length),
    cookie: 'cookie1=value1; cookie2=value2',
    host: '127.0.0.1:3000',
    'user-agent': 'agent/1.0',
  };
  const req = { method: route.method, headers, socket: { remoteAddress: '127.0.0.1' } };
  const params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\+?\}/g)].map(([, name]) => [name, 'a1']));
  return { route: routeKey(route), event: toEvent(req, url, body, route, params) };
}

/** A record as the DynamoDB Streams client reads it (Dates and bytes), the pipe's source. */
export const sdkRecord: _Record = {
  eventID: 'c81e728d9d4c2f636f067f89cc14862c',
  eventName: 'MODIFY',
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'eu-central-1',
  dynamodb: {
    ApproximateCreationDateTime: new Date(1_795_856_400_000),
    Keys: { pk: { S: 'AUCTION#a1' }, sk: { S: 'REV#00000002' } },
    NewImage: {
      pk: { S: 'AUCTION#a1' },
      entity: { S: 'revision' },
      seq: { N: '2' },
      digest: { B: Uint8Array.from([1, 2, 3]) },
      changes: { L: [{ M: { op: { S: 'replace' }, value: { NULL: true } } }] },
    },
    SequenceNumber: '111100000000000000000001',
    SizeBytes: 180,
    StreamViewType: 'NEW_IMAGE',
  },
};

/** The queue's message of a stream record (as the local change stream builds it), checked with its body. */
export function queueMessageDiffs(record: _Record, streamArn = aws.pipeStreamRecord.eventSourceARN!): string[] {
  const read = pipeRecord(record, streamArn);
  return [
    ...shapeDiff(aws.queueMessage, queueMessage(JSON.stringify(read)), { maps: SQS_MAPS }),
    ...shapeDiff(aws.pipeStreamRecord, read, IMAGES).map((d) => `record: ${d}`),
  ];
}

const connection = { connectionId: 'Fv2XheQ0FiACFmA=', connectedAt: Date.now(), domainName: '127.0.0.1:3000' };
const MESSAGE_ROUTES = roomLambdas.flatMap((l) =>
  l.route && l.route !== '$connect' && l.route !== '$disconnect' ? [l] : [],
);

/** Every event kind, its consumer, its stand-in and what differs from AWS's shape. */
export function eventParity(): EventParity[] {
  const http = localHttpEvent();
  const connect = socketEvent(
    '$connect',
    connection,
    connectExtras(
      { headers: { host: '127.0.0.1:3000', 'sec-websocket-version': '13' } },
      new URL('http://127.0.0.1:3000/room?token=first&token=last'),
    ),
  );
  const disconnect = socketEvent('$disconnect', connection, {
    headers: {},
    multiValueHeaders: {},
    isBase64Encoded: false,
  });
  const taskInput = JSON.parse(
    JSON.stringify(timerInput({ auctionId: 'a1', version: 3, nextAt: '2026-11-28T09:00:04.2Z' })),
  );
  return [
    {
      fn: 'http-kit (every HTTP route)',
      event: 'HTTP API v2 event with the authorizer context',
      standIn: 'lib/local/gateway.ts toEvent + withAuthorizer',
      diffs: shapeDiff(aws.httpApiEvent, withAuthorizer(http.event, aws.authorizerAnswer.context), {
        maps: HTTP_MAPS,
      }),
    },
    {
      fn: 'auth/authorizer',
      event: 'REQUEST authorizer event (payload 2.0)',
      standIn: 'lib/local/gateway.ts authorizerEvent',
      diffs: shapeDiff(aws.authorizerEvent, authorizerEvent(localHttpEvent().event), { maps: HTTP_MAPS }),
    },
    {
      fn: 'room/connect',
      event: 'WebSocket $connect event',
      standIn: 'lib/local/room-server.ts socketEvent + connectExtras',
      diffs: shapeDiff(aws.socketConnectEvent, connect, { maps: SOCKET_MAPS }),
    },
    {
      fn: 'room/disconnect',
      event: 'WebSocket $disconnect event',
      standIn: 'lib/local/room-server.ts socketEvent',
      diffs: shapeDiff(aws.socketDisconnectEvent, disconnect, { maps: SOCKET_MAPS }),
    },
    ...MESSAGE_ROUTES.map((l) => ({
      fn: l.handler,
      event: `WebSocket message event (${l.route})`,
      standIn: 'lib/local/room-server.ts socketEvent',
      diffs: shapeDiff(
        aws.socketMessageEvent(l.route!, '{"action":"ping"}'),
        socketEvent(l.route!, connection, { body: '{"action":"ping"}', isBase64Encoded: false }),
      ),
    })),
    {
      fn: 'bots/webhook-changes',
      event: "SQS message carrying the pipe's DynamoDB stream record",
      standIn: 'lib/local/change-stream.ts pipeRecord + fillTemplate + queueMessage',
      diffs: queueMessageDiffs(sdkRecord),
    },
    {
      fn: 'room/transition',
      event: "Step Functions task's input (the execution's input)",
      standIn: 'lib/local/room-server.ts arm (functions/room/ports.ts timerInput)',
      diffs: [
        ...shapeDiff(aws.timerTaskInput, taskInput),
        ...(RFC3339.test(taskInput.nextAt) ? [] : [`nextAt ${taskInput.nextAt} is not what a Wait state reads`]),
      ],
    },
    {
      fn: [...bots.map((b) => b.handler), 'room/bot'].join(', '),
      event: "EventBridge Scheduler's input (no Input: its default notification)",
      standIn: 'lib/local/scheduler.ts, lib/local/room-server.ts startRoomBot',
      diffs: [],
      note: 'undocumented fields, none read: the handlers take no argument',
    },
  ];
}

/** Step Functions' Wait `TimestampPath`: an RFC 3339 timestamp in UTC, as functions/room/ports.ts utcCeiling writes. */
export const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** One row per event kind for `npm run verify:aws`: the consumer, whether its local event has AWS's shape. */
export function eventsReport(): { fn: string; ok: boolean; detail: string }[] {
  return eventParity().map(({ fn, event, standIn, diffs, note = 'AWS fixture shape matched' }) => ({
    fn,
    ok: diffs.length === 0,
    detail: diffs.length ? `${event}: ${standIn}: ${diffs.join('; ')}` : `${event}: ${note}`,
  }));
}
