import { createHash } from 'node:crypto';
import { DescribeTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { describe, expect, it } from 'vitest';
import { bots } from '../../../functions/bots.ts';
import { routeKey, routes } from '../../../functions/routes.ts';
import { invokeHandler } from '../../../lib/local/gateway.ts';
import { queueMessageDiffs, RFC3339 } from '../../support/aws/events.ts';
import * as aws from '../../support/aws/fixtures.ts';
import { shapeDiff } from '../../support/aws/shape.ts';
import { useService } from '../../support/service.ts';

/**
 * The AWS-shaped events (test/support/aws/fixtures.ts) handled by the real handlers, through the entry AWS calls
 * (each module's `handler`), over this file's table in DynamoDB Local: what a function does with what AWS sends.
 */
useService({ changeStream: true });

const handlerOf = (key: string) => routes.find((r) => routeKey(r) === key)!.handler;
/** The fixture as a request to another route (its path and method), the rest as AWS sends it. */
const httpEvent = (key: string, changes: Partial<typeof aws.httpApiEvent> = {}) => {
  const [method, path] = key.split(' ');
  return {
    ...aws.httpApiEvent,
    routeKey: key,
    rawPath: path,
    pathParameters: undefined,
    requestContext: {
      ...aws.httpApiEvent.requestContext,
      routeKey: key,
      http: { ...aws.httpApiEvent.requestContext.http, method, path },
    },
    ...changes,
  };
};

describe('AWS-shaped events through the real handlers', () => {
  it("an HTTP API v2 event: the caller is the authorizer context's, a base64 body is decoded", async () => {
    const get = 'GET /api/0.1/subscriptions/{subscriptionId}';
    const event = httpEvent(get, {
      rawPath: '/api/0.1/subscriptions/none',
      pathParameters: { subscriptionId: 'none' },
      body: undefined,
      isBase64Encoded: false,
    });
    // The broker of the authorizer's context may ask: no such subscription (not a 401).
    const asBroker = await invokeHandler(handlerOf(get), event);
    expect([403, 404]).toContain(asBroker.statusCode);
    // The same request with the anonymous context: refused in the envelope.
    const anonymous = {
      ...event,
      requestContext: { ...event.requestContext, authorizer: { lambda: aws.authorizerAnswer.context } },
    };
    const refused = await invokeHandler(handlerOf(get), anonymous);
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(refused.body).status).toBe('error');

    const upload = 'POST /api/docservice/upload';
    const bytes = Buffer.from(aws.httpApiEvent.body!, 'base64');
    const uploaded = await invokeHandler(handlerOf(upload), httpEvent(upload));
    expect(uploaded.statusCode, uploaded.body).toBeLessThan(300);
    expect(uploaded.body).toContain(createHash('md5').update(bytes).digest('hex'));
  });

  it("the authorizer's event: a simple response, the known key's context as strings", async () => {
    const answer = await invokeHandler('auth/authorizer', aws.authorizerEvent);
    expect(answer).toEqual({ isAuthorized: true, context: { name: 'broker', role: 'broker', levels: '1234' } });
    expect(shapeDiff(aws.authorizerAnswer, answer, { maps: ['context'] })).toEqual([]);
  });

  it('the WebSocket events: $connect refuses a handshake without a token, a message and $disconnect answer 200', async () => {
    const { multiValueQueryStringParameters: _, queryStringParameters: __, ...bare } = aws.socketConnectEvent;
    const connect = await invokeHandler('room/connect', bare);
    expect(connect.statusCode).toBeGreaterThanOrEqual(400);
    expect(connect.statusCode).toBeLessThan(500);
    expect((await invokeHandler('room/connect', aws.socketConnectEvent)).statusCode).toBeLessThan(500);
    const ping = await invokeHandler('room/ping', aws.socketMessageEvent('ping', '{"action":"ping"}'));
    expect(ping.statusCode).toBe(200);
    expect((await invokeHandler('room/disconnect', aws.socketDisconnectEvent)).statusCode).toBe(200);
  });

  it("the queue's message of the pipe's stream record: its change is taken", async () => {
    expect(await invokeHandler('bots/webhook-changes', { Records: [aws.queueMessage] })).toMatchObject({
      changes: 1,
      deliveries: 0,
    });
  });

  it("DynamoDB Local's own stream records, as the local change stream hands them on, have the pipe's shape", async () => {
    const local = {
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    };
    const db = new DynamoDBClient(local);
    const streams = new DynamoDBStreamsClient(local);
    const TableName = process.env.TABLE_NAME!;
    await db.send(
      new PutItemCommand({
        TableName,
        Item: {
          PK: { S: 'PARITY#1' },
          SK: { S: 'PARITY' },
          entity: { S: 'revision' },
          seq: { N: '1' },
          digest: { B: Uint8Array.from([1, 2, 3]) },
          changes: { L: [{ M: { op: { S: 'add' }, value: { NULL: true } } }] },
        },
      }),
    );
    const { Table } = await db.send(new DescribeTableCommand({ TableName }));
    const StreamArn = Table!.LatestStreamArn!;
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn }));
    const records = [];
    for (const shard of StreamDescription!.Shards!) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      records.push(...((await streams.send(new GetRecordsCommand({ ShardIterator }))).Records ?? []));
    }
    const parity = records.find((r) => r.dynamodb?.Keys?.PK?.S === 'PARITY#1');
    expect(parity).toBeDefined();
    expect(queueMessageDiffs(parity!, StreamArn)).toEqual([]);
    db.destroy();
    streams.destroy();
  });

  it("the Step Functions task's input: the transition answers what the state machine reads", async () => {
    const answer = await invokeHandler('room/transition', aws.timerTaskInput);
    const diffs = (answer as { done?: true }).done
      ? shapeDiff(aws.timerTaskAnswers.done, answer)
      : [...shapeDiff(aws.timerTaskAnswers.next, answer), ...(RFC3339.test(answer.nextAt) ? [] : ['nextAt'])];
    expect(diffs).toEqual([]);
    expect(answer).toEqual({ done: true }); // no room a1: nothing more to time
  });

  it("EventBridge Scheduler's input: every bot runs and reports", async () => {
    for (const bot of [...bots.map((b) => b.handler), 'room/bot'])
      expect(await invokeHandler(bot, aws.schedulerInput), bot).toMatchObject({ due: expect.any(Number) });
  });
});
