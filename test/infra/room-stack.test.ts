import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOM_BOT_SCHEDULE, roomLambdas } from '../../functions/room/lambdas.ts';
import { TELEMETRY } from '../../functions/platform/telemetry.ts';
import { CONNECTION_PARTITION } from '../../functions/store/table-design.ts';
import { synthesizeAsCli } from '../support/synth.ts';

let room: Template;
beforeAll(() => {
  room = Template.fromStack(synthesizeAsCli().room);
});

const functionsWith = (variable: string) =>
  Object.values(room.findResources('AWS::Lambda::Function')).filter(
    (f: any) => f.Properties.Environment?.Variables?.[variable] !== undefined,
  );

describe('RoomStack', () => {
  it('serves a WebSocket API selecting routes by the message action, one function per room Lambda', () => {
    room.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'WEBSOCKET',
      RouteSelectionExpression: '$request.body.action',
    });
    room.resourceCountIs('AWS::Lambda::Function', roomLambdas.length);
    const routeKeys = Object.values(room.findResources('AWS::ApiGatewayV2::Route')).map(
      (r: any) => r.Properties.RouteKey,
    );
    expect(routeKeys.sort()).toEqual(roomLambdas.flatMap((l) => (l.route ? [l.route] : [])).sort());
    room.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: 'live',
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  it('gives only $connect the participation secret, only the results posters the document service, and every function the PostToConnection endpoint', () => {
    expect(functionsWith('PARTICIPATION_SECRET_ARN')).toHaveLength(1);
    expect(functionsWith('DOCSERVICE_SECRET_ARN')).toHaveLength(roomLambdas.filter((l) => l.posts).length);
    expect(functionsWith('ROOM_CALLBACK_URL')).toHaveLength(roomLambdas.length);
  });

  it('broadcasts to observers through AppSync Events: API key subscribes, only the room changers publish (IAM)', () => {
    room.hasResourceProperties('AWS::AppSync::Api', {
      EventConfig: Match.objectLike({
        DefaultPublishAuthModes: [{ AuthType: 'AWS_IAM' }],
        DefaultSubscribeAuthModes: [{ AuthType: 'API_KEY' }],
      }),
    });
    room.hasResourceProperties('AWS::AppSync::ChannelNamespace', {
      Name: 'rooms',
      PublishAuthModes: [{ AuthType: 'AWS_IAM' }],
      SubscribeAuthModes: [{ AuthType: 'API_KEY' }],
    });
    room.resourceCountIs('AWS::AppSync::ApiKey', 1);
    const publishers = roomLambdas.filter((l) => l.publishes).map((l) => l.name);
    expect(publishers.sort()).toEqual(['Bid', 'Bot', 'Transition']);
    expect(functionsWith('ROOM_EVENTS_HOST')).toHaveLength(publishers.length);
    // appsync:EventPublish, on the rooms' namespace only, in exactly the publishers' policies; nobody may subscribe by IAM.
    const policies = Object.values(room.findResources('AWS::IAM::Policy')).map((p: any) => JSON.stringify(p));
    const granting = policies.filter((p) => p.includes('appsync:EventPublish'));
    expect(granting).toHaveLength(publishers.length);
    for (const p of granting) expect(p).toMatch(/channelNamespace\/rooms/);
    expect(policies.some((p) => p.includes('appsync:EventSubscribe') || p.includes('appsync:EventConnect'))).toBe(
      false,
    );
  });

  it('lets the Lambdas that only answer read the table, and update their connection, and no more', () => {
    const resources = room.toJSON().Resources as Record<string, any>;
    const fns = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    for (const lambda of roomLambdas) {
      const [, fn] = fns.find(([id]) => id.startsWith(`Room${lambda.name}`))!;
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === roleId))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      const actionsOf = (list: any[]) =>
        list.flatMap((s: any) => [s.Action].flat()).filter((a: string) => a.startsWith('dynamodb:'));
      expect(actionsOf(statements), lambda.name).toContain('dynamodb:Query');
      const isWrite = (a: string) => /Put|Update|Delete|Write/.test(a);
      // A message's allowance is a write of the connection's own item: in the CONN# partition only.
      const connectionOnly = (s: any) =>
        JSON.stringify(s.Condition) ===
        JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${CONNECTION_PARTITION}*`] } });
      const writes = actionsOf(statements.filter((s: any) => !connectionOnly(s))).filter(isWrite);
      if (lambda.table === 'ro') expect(writes, lambda.name).toEqual([]);
      else expect(writes, lambda.name).toContain('dynamodb:PutItem');
      const allowance = actionsOf(statements.filter(connectionOnly));
      if (lambda.messages && lambda.table === 'ro') expect(allowance, lambda.name).toEqual(['dynamodb:UpdateItem']);
      else expect(allowance, lambda.name).toEqual([]);
    }
  });

  it('times rooms with a Step Functions loop: wait until $.nextAt, apply, again until done', () => {
    const [machine] = Object.values(room.findResources('AWS::StepFunctions::StateMachine')) as any[];
    const definition = JSON.stringify(machine.Properties.DefinitionString);
    expect(definition).toContain('TimestampPath');
    expect(definition).toContain('$.nextAt');
    expect(definition).toContain('$.done');
    expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
    // Whoever changes a room's schedule arms a timer: bids and the bot.
    expect(functionsWith('ROOM_TIMERS_ARN')).toHaveLength(2);
  });

  it('runs the room bot every minute in Europe/Kyiv', () => {
    room.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: ROOM_BOT_SCHEDULE,
      ScheduleExpressionTimezone: 'Europe/Kyiv',
    });
  });

  it('alarms when results are not posted, when transitions are late and when a timer fails', () => {
    for (const metricName of [TELEMETRY.roomResultsPostFailures, TELEMETRY.roomTransitionLateness])
      room.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: metricName,
        Namespace: TELEMETRY.namespace,
        AlarmActions: Match.anyValue(),
      });
    room.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'ExecutionsFailed' });
  });
});
