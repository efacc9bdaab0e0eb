import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { webhookDelivery } from '../../functions/bots.ts';
import { PIPE_MESSAGE_TEMPLATE } from '../../functions/store/table-design.ts';
import { CHANGE_FILTERS, PIPE_GIVES_UP } from '../../lib/webhooks.ts';
import { synthesizeAsCli } from '../support/synth.ts';

let bots: Template;
let data: Template;
beforeAll(() => {
  const built = synthesizeAsCli();
  bots = Template.fromStack(built.bots);
  data = Template.fromStack(built.data);
});

const ofType = (t: Template, type: string) =>
  Object.entries(t.toJSON().Resources as Record<string, { Type: string; Properties: any }>).filter(
    ([, r]) => r.Type === type,
  );

describe('webhook deliveries in AWS', () => {
  it('streams the table (new images): the source of every first attempt', () => {
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('pipes the stream, filtered to changes, into a queue with a dead-letter queue that the delivery Lambda consumes', () => {
    const [[, pipe]] = ofType(bots, 'AWS::Pipes::Pipe');
    // The roots of lots, assets and auctions with a change log and nothing else: their records come in write order.
    const filters = pipe!.Properties.SourceParameters.FilterCriteria.Filters.map((f: { Pattern: string }) =>
      JSON.parse(f.Pattern),
    );
    expect(filters).toEqual([
      {
        dynamodb: {
          Keys: { PK: { S: [{ prefix: 'LOT#' }, { prefix: 'ASSET#' }, { prefix: 'AUCTION#' }] }, SK: { S: ['#ROOT'] } },
          NewImage: {
            history: { M: { seq: { N: [{ exists: true }] } } },
            lane: { S: [{ exists: true }] },
            feed: { M: { id: { S: [{ exists: true }] } } },
          },
        },
      },
    ]);
    expect(filters).toEqual(CHANGE_FILTERS);
    // The message is the few attributes a change needs, not the root (which may outgrow a queue message).
    expect(pipe!.Properties.TargetParameters.InputTemplate).toBe(PIPE_MESSAGE_TEMPLATE);
    expect(PIPE_MESSAGE_TEMPLATE).not.toContain('NewImage.data>');
    expect(JSON.stringify(pipe!.Properties.Source)).toContain('StreamArn');
    // The queue, its dead-letter queue, and the pipe's own dead-letter queue (a stream source's failures: standard SQS).
    const queues = ofType(bots, 'AWS::SQS::Queue').filter(
      ([id]) => id.startsWith('WebhookChanges') && !id.startsWith('WebhookChangesPipeDeadLetters'),
    );
    expect(queues).toHaveLength(2);
    const [[queueId, queue]] = queues.filter(([, q]) => q.Properties.RedrivePolicy);
    expect(queue!.Properties.RedrivePolicy.maxReceiveCount).toBe(5);
    expect(pipe!.Properties.Target).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    // FIFO, one message group per changed object: its changes reach the Lambda in order, one batch at a time.
    expect(queues.every(([, q]) => q.Properties.FifoQueue === true)).toBe(true);
    expect(pipe!.Properties.TargetParameters.SqsQueueParameters).toEqual({
      MessageGroupId: '$.dynamodb.Keys.PK.S',
      MessageDeduplicationId: '$.eventID',
    });
    const [[, mapping]] = ofType(bots, 'AWS::Lambda::EventSourceMapping');
    expect(mapping!.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    expect(mapping!.Properties.BatchSize).toBe(10);
    const [functionId] = ofType(bots, 'AWS::Lambda::Function').find(([id]) => id.startsWith('WebhookDelivery'))!;
    expect(mapping!.Properties.FunctionName).toEqual({ Ref: functionId });
    expect(webhookDelivery.handler).toBe('bots/webhook-changes');
  });

  it('alarms on the dead-letter queue and on the oldest change waiting to be sent', () => {
    bots.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Threshold: 1,
    });
    bots.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateAgeOfOldestMessage',
      Namespace: 'AWS/SQS',
      Threshold: 300,
      AlarmActions: Match.anyValue(),
    });
  });

  it('gives the pipe a dead-letter queue of its own: a batch it cannot deliver for an hour goes there, with an alarm', () => {
    const [[, pipe]] = ofType(bots, 'AWS::Pipes::Pipe');
    const stream = pipe!.Properties.SourceParameters.DynamoDBStreamParameters;
    const [[deadId]] = ofType(bots, 'AWS::SQS::Queue').filter(([id]) => id.startsWith('WebhookChangesPipeDeadLetters'));
    expect(stream).toMatchObject({
      DeadLetterConfig: { Arn: { 'Fn::GetAtt': [deadId, 'Arn'] } },
      MaximumRecordAgeInSeconds: PIPE_GIVES_UP.toSeconds(),
      OnPartialBatchItemFailure: 'AUTOMATIC_BISECT',
    });
    // The pipe's role may send there (as to the queue it feeds), or the pipe could not give a batch up either.
    const [[roleId]] = ofType(bots, 'AWS::IAM::Role').filter(([id]) => id.startsWith('WebhookPipeRole'));
    const statements = ofType(bots, 'AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: expect.arrayContaining(['sqs:SendMessage']),
        Resource: expect.arrayContaining([{ 'Fn::GetAtt': [deadId, 'Arn'] }]),
      }),
    );
    bots.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadId, 'QueueName'] } }],
      Threshold: 1,
      AlarmDescription: Match.stringLikeRegexp('runbook-webhook-pipe-failing$'),
    });
  });

  it("alarms on the pipe's own failures, which WebhookOldestChange cannot see (nothing reaches the queue)", () => {
    const [[pipeId]] = ofType(bots, 'AWS::Pipes::Pipe');
    bots.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/EventBridge/Pipes',
      MetricName: 'ExecutionFailed',
      Dimensions: [{ Name: 'PipeName', Value: { Ref: pipeId } }],
      Statistic: 'Sum',
      Threshold: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: Match.anyValue(),
      AlarmDescription: Match.stringLikeRegexp('runbook-webhook-pipe-failing$'),
    });
  });

  it('schedules the retry sweep (the webhooks bot) every minute', () => {
    bots.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      Description: Match.stringLikeRegexp('webhook'),
    });
  });
});
