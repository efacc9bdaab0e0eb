import type {
  APIGatewayEventWebsocketRequestContextV2,
  APIGatewayProxyEventV2WithLambdaAuthorizer,
  APIGatewayProxyWebsocketEventV2,
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult,
  DynamoDBRecord,
  SQSRecord,
} from 'aws-lambda';
import type { AuthorizerContext } from '../../../functions/auth/authorizer-context.ts';
import { PIPE_MESSAGE_TEMPLATE } from '../../../functions/store/table-design.ts';
import { fillTemplate } from '../../../lib/local/change-stream.ts';

/**
 * The events AWS hands Agora's functions, in the shapes AWS documents: each fixture names its source, and is typed
 * with `@types/aws-lambda` (devDependencies) so that the compiler checks it against that package's model too. The
 * values are examples (ids, times, addresses); what the parity tests compare is their fields, types and encodings.
 */

const TIME = '28/Nov/2026:09:00:00 +0000';
const EPOCH_MS = 1_795_856_400_000;

/**
 * An HTTP API request (payload format 2.0) behind the REQUEST authorizer, its simple-response context under
 * `requestContext.authorizer.lambda`. Source: API Gateway Developer Guide, "Create AWS Lambda proxy integrations for
 * HTTP APIs" (payload format version 2.0 example), and "Control access to HTTP APIs with AWS Lambda authorizers"
 * (`context` of a simple response); @types/aws-lambda `APIGatewayProxyEventV2WithLambdaAuthorizer`. Multi-valued
 * query parameters and headers are joined with commas, cookies come split in `cookies`, header names lower-cased, a
 * binary body in base64.
 */
export const httpApiEvent: APIGatewayProxyEventV2WithLambdaAuthorizer<AuthorizerContext> = {
  version: '2.0',
  routeKey: 'GET /api/health',
  rawPath: '/api/health',
  rawQueryString: 'opt_fields=id&opt_fields=title&limit=5',
  cookies: ['cookie1=value1', 'cookie2=value2'],
  headers: {
    accept: 'application/json',
    authorization: 'Basic YnJva2VyOg==',
    'content-length': '5',
    'content-type': 'application/octet-stream',
    host: 'abcdef123.execute-api.eu-central-1.amazonaws.com',
    'user-agent': 'agent/1.0',
    'x-forwarded-for': '203.0.113.9',
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
  },
  queryStringParameters: { opt_fields: 'id,title', limit: '5' },
  pathParameters: { id: 'a1' },
  requestContext: {
    accountId: '123456789012',
    apiId: 'abcdef123',
    authorizer: { lambda: { name: 'broker', role: 'broker', levels: '1,2' } },
    domainName: 'abcdef123.execute-api.eu-central-1.amazonaws.com',
    domainPrefix: 'abcdef123',
    http: {
      method: 'GET',
      path: '/api/health',
      protocol: 'HTTP/1.1',
      sourceIp: '203.0.113.9',
      userAgent: 'agent/1.0',
    },
    requestId: 'JKJaXmPLvHcESHA=',
    routeKey: 'GET /api/health',
    stage: '$default',
    time: TIME,
    timeEpoch: EPOCH_MS,
  },
  body: 'AQIDBAU=',
  isBase64Encoded: true,
};

/**
 * The REQUEST authorizer's own event (payload format 2.0; no identity sources, so it runs on every request). Source:
 * API Gateway Developer Guide, "Control access to HTTP APIs with AWS Lambda authorizers" (payload format 2.0 input);
 * @types/aws-lambda `APIGatewayRequestAuthorizerEventV2`.
 */
export const authorizerEvent: APIGatewayRequestAuthorizerEventV2 = {
  version: '2.0',
  type: 'REQUEST',
  routeArn: 'arn:aws:execute-api:eu-central-1:123456789012:abcdef123/$default/GET/api/health',
  identitySource: [],
  routeKey: httpApiEvent.routeKey,
  rawPath: httpApiEvent.rawPath,
  rawQueryString: httpApiEvent.rawQueryString,
  cookies: httpApiEvent.cookies!,
  headers: httpApiEvent.headers,
  queryStringParameters: httpApiEvent.queryStringParameters,
  requestContext: (({ authorizer: _, ...context }) => context)(httpApiEvent.requestContext),
  pathParameters: httpApiEvent.pathParameters,
};

/**
 * The authorizer's answer, a simple response (`enableSimpleResponses`, lib/api-stack.ts). Source: API Gateway
 * Developer Guide, "Control access to HTTP APIs with AWS Lambda authorizers" (format of a simple response);
 * @types/aws-lambda `APIGatewaySimpleAuthorizerWithContextResult`.
 */
export const authorizerAnswer: APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext> = {
  isAuthorized: true,
  context: { name: 'anonymous', role: 'anonymous', levels: '' },
};

const socketContext = (routeKey: string, eventType: 'CONNECT' | 'DISCONNECT' | 'MESSAGE') => ({
  routeKey,
  eventType,
  extendedRequestId: 'Fv2XiEr4FiAFcJA=',
  requestTime: TIME,
  messageDirection: 'IN' as const,
  stage: 'prod',
  connectedAt: EPOCH_MS - 5_000,
  requestTimeEpoch: EPOCH_MS,
  requestId: 'Fv2XiEr4FiAFcJA=',
  domainName: 'ws1234.execute-api.eu-central-1.amazonaws.com',
  connectionId: 'Fv2XheQ0FiACFmA=',
  apiId: 'ws1234',
});

/**
 * The WebSocket API's events of a Lambda proxy integration. Source: API Gateway Developer Guide, "Set up a WebSocket
 * API integration request" and "WebSocket API mapping template reference" (the `$context` variables); @types/aws-lambda
 * `APIGatewayProxyWebsocketEventV2` (its request context; `messageId` only on messages). `$connect` adds the
 * handshake's headers and query, one-valued and multi-valued (a repeated parameter: the last value, all of them).
 */
/** A connection's event: the WebSocket event without the message's own `messageId`, with its headers. */
type ConnectionEvent = Omit<APIGatewayProxyWebsocketEventV2, 'requestContext'> & {
  requestContext: Omit<APIGatewayEventWebsocketRequestContextV2, 'messageId'>;
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
};

export const socketConnectEvent: ConnectionEvent = {
  requestContext: socketContext('$connect', 'CONNECT'),
  headers: { host: 'ws1234.execute-api.eu-central-1.amazonaws.com', 'sec-websocket-version': '13' },
  multiValueHeaders: {
    host: ['ws1234.execute-api.eu-central-1.amazonaws.com'],
    'sec-websocket-version': ['13'],
  },
  queryStringParameters: { token: 'last' },
  multiValueQueryStringParameters: { token: ['first', 'last'] },
  isBase64Encoded: false,
};

export const socketDisconnectEvent: ConnectionEvent = {
  requestContext: socketContext('$disconnect', 'DISCONNECT'),
  headers: {},
  multiValueHeaders: {},
  isBase64Encoded: false,
};

export const socketMessageEvent = (routeKey: string, body: string): APIGatewayProxyWebsocketEventV2 => ({
  requestContext: { ...socketContext(routeKey, 'MESSAGE'), messageId: 'Fv2Xkf1ZFiAFqOQ=' },
  body,
  isBase64Encoded: false,
});

/**
 * A DynamoDB stream record (an auction's root, as the pipe's filter keeps) as the pipe reads it; its input template
 * (functions/bots/webhook-changes.ts) makes the SQS message's body of it. Source: EventBridge User Guide, "Amazon DynamoDB stream as a source for EventBridge Pipes" (example
 * event), and Lambda Developer Guide, "Using AWS Lambda with Amazon DynamoDB" (example record); @types/aws-lambda
 * `DynamoDBRecord`. Images in DynamoDB JSON (numbers as strings, binaries in base64), the time in epoch seconds.
 */
export const pipeStreamRecord: DynamoDBRecord = {
  eventID: 'c81e728d9d4c2f636f067f89cc14862c',
  eventName: 'MODIFY',
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'eu-central-1',
  dynamodb: {
    ApproximateCreationDateTime: 1_795_856_400,
    Keys: { PK: { S: 'AUCTION#a1' }, SK: { S: '#ROOT' } },
    NewImage: {
      PK: { S: 'AUCTION#a1' },
      SK: { S: '#ROOT' },
      entity: { S: 'auction' },
      rev: { N: '3' },
      history: { M: { seq: { N: '2' }, hash: { S: 'e3b0c442' } } },
      data: {
        M: {
          id: { S: 'a1' },
          dateModified: { S: '2026-11-28T11:00:00.000000+02:00' },
          status: { S: 'active.tendering' },
          owner: { S: 'broker' },
          tags: { SS: ['a', 'b'] },
          value: { M: { amount: { N: '100' } } },
          changes: { L: [{ M: { op: { S: 'replace' }, value: { NULL: true } } }] },
          test: { BOOL: false },
        },
      },
      lane: { S: 'auctions-landlease' },
      GSI1PK: { S: 'auctions-landlease' },
      feed: { M: { id: { S: 'a1' }, dateModified: { S: '2026-11-28T11:00:00.000000+02:00' } } },
      digest: { B: 'AQID' },
    },
    SequenceNumber: '111100000000000000000001',
    SizeBytes: 180,
    StreamViewType: 'NEW_IMAGE',
  },
  eventSourceARN: 'arn:aws:dynamodb:eu-central-1:123456789012:table/Agora-dev/stream/2026-11-28T00:00:00.000',
};

/**
 * The SQS message the delivery Lambda gets, one per pipe record. Source: Lambda Developer Guide, "Using Lambda with
 * Amazon SQS" (example standard queue message event); @types/aws-lambda `SQSRecord`.
 */
export const queueMessage: SQSRecord = {
  messageId: '059f36b4-87a3-44ab-83d2-661975830a7d',
  receiptHandle: 'AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a...',
  // The template filled by the rules the EventBridge User Guide states ("Amazon EventBridge Pipes input transformation").
  body: fillTemplate(PIPE_MESSAGE_TEMPLATE, pipeStreamRecord),
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: '1545082649183',
    SenderId: 'AIDAIENQZJOLO23YVJ4VO',
    ApproximateFirstReceiveTimestamp: '1545082649185',
  },
  messageAttributes: {},
  md5OfBody: '098f6bcd4621d373cade4e832627b4f6',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:eu-central-1:123456789012:WebhookChanges',
  awsRegion: 'eu-central-1',
};

/**
 * The room timer's task input and answer. Source: the state machine of lib/room-stack.ts with the Step Functions
 * Developer Guide: a `LambdaInvoke` task with `payloadResponseOnly` gets the state's input (`$`, at first the
 * execution's input: StartExecution's `input`, functions/room/ports.ts) and its answer becomes the next state's input,
 * read by the Choice (`$.done`) and the Wait (`$.nextAt`, an RFC 3339 timestamp: "Wait" state, TimestampPath).
 */
export const timerTaskInput = { auctionId: 'a1', version: 3, nextAt: '2026-11-28T09:00:05.000Z' };
export const timerTaskAnswers = { next: timerTaskInput, done: { done: true } };

/**
 * The room and scheduled bots' input: EventBridge Scheduler invokes a templated Lambda target without `Input`
 * (lib/operations.ts) with what its API reference calls "a default notification" (Target.Input), whose fields it does
 * not document: the bots' handlers take no argument, so no field of it is read. Source: EventBridge Scheduler API
 * Reference, "Target".
 */
export const schedulerInput = {};
