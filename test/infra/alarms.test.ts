import { readFileSync } from 'node:fs';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { bots } from '../../functions/bots.ts';
import { ROOM_BOT_SCHEDULE, roomLambdas } from '../../functions/room/lambdas.ts';
import { routes } from '../../functions/routes.ts';
import { heartbeatWindow, RUNBOOK, RUNBOOKS } from '../../lib/operations.ts';
import { synthesizeAsCli } from '../support/synth.ts';

type Resource = { Type: string; Properties: Record<string, any> };

const build = (context: Record<string, unknown> = {}) => synthesizeAsCli(context);
const stacksOf = (built: ReturnType<typeof synthesizeAsCli>) =>
  built.app.node.children.filter((c): c is Stack => Stack.isStack(c));

let built: ReturnType<typeof synthesizeAsCli>;
let templates: Map<string, Template>;
const alarms = (stack: Stack): Resource[] =>
  Object.values(templates.get(stack.stackName)!.findResources('AWS::CloudWatch::Alarm')) as Resource[];
const allAlarms = () => stacksOf(built).flatMap(alarms);

/** The GitHub slugs of docs/operations.md's headings. */
const headings = new Set(
  readFileSync(RUNBOOK, 'utf8')
    .split('\n')
    .filter((line) => /^#{1,4} /.test(line))
    .map((line) =>
      line
        .replace(/^#+ /, '')
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    ),
);

beforeAll(() => {
  built = build();
  templates = new Map(stacksOf(built).map((s) => [s.stackName, Template.fromStack(s)]));
});

describe('Heartbeats: an alarm when a bot stops', () => {
  const scheduled = [
    ...bots.map((b) => ({ name: b.name, schedule: b.schedule })),
    { name: 'room', schedule: ROOM_BOT_SCHEDULE },
  ];

  it('gives every scheduled bot an alarm on the absence of completed runs, missing data breaching', () => {
    const heartbeats = allAlarms().filter((a) => a.Properties.MetricName === 'BotRuns');
    expect(heartbeats.map((a) => a.Properties.Dimensions.find((d: any) => d.Name === 'bot').Value).sort()).toEqual(
      scheduled.map((b) => b.name).sort(),
    );
    for (const { Properties: p } of heartbeats) {
      const bot = scheduled.find((b) => b.name === p.Dimensions.find((d: any) => d.Name === 'bot').Value)!;
      expect(p).toMatchObject({
        Namespace: 'Agora',
        Statistic: 'Sum',
        ComparisonOperator: 'LessThanThreshold',
        Threshold: 1,
        EvaluationPeriods: 1,
        TreatMissingData: 'breaching',
        Period: heartbeatWindow(bot.schedule).toSeconds(),
      });
      expect(p.AlarmActions).toHaveLength(1);
    }
  });

  it("states its window from the bot's schedule: three intervals, 15 minutes to a day", () => {
    expect(heartbeatWindow('rate(1 minute)').toMinutes()).toBe(15);
    expect(heartbeatWindow('rate(10 minutes)').toMinutes()).toBe(30);
    expect(heartbeatWindow('rate(2 hours)').toMinutes()).toBe(360);
    expect(heartbeatWindow('rate(1 day)').toMinutes()).toBe(1440);
    expect(heartbeatWindow('cron(0 3 * * ? *)').toMinutes()).toBe(1440);
    const slower = Template.fromStack(build({ botSchedules: '{"convoy":"rate(1 hour)"}' }).bots);
    slower.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'BotRuns',
      Dimensions: Match.arrayWith([{ Name: 'bot', Value: 'convoy' }]),
      Period: 3 * 3600,
    });
  });

  it('sends what a schedule could not deliver to a dead-letter queue that raises an alarm', () => {
    for (const stack of [built.bots, built.room]) {
      const t = templates.get(stack.stackName)!;
      // The webhooks' queues (lib/webhooks.ts) are the change stream's, not the schedules'.
      const queues = Object.keys(t.findResources('AWS::SQS::Queue')).filter((id) => !id.startsWith('WebhookChanges'));
      expect(queues).toHaveLength(1);
      const schedules = Object.values(t.findResources('AWS::Scheduler::Schedule')) as Resource[];
      expect(schedules.length).toBeGreaterThan(0);
      for (const s of schedules) {
        expect(s.Properties.Target.DeadLetterConfig.Arn).toEqual({ 'Fn::GetAtt': [queues[0], 'Arn'] });
        expect(s.Properties.Target.RetryPolicy).toMatchObject({ MaximumRetryAttempts: 2 });
      }
      t.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queues[0], 'QueueName'] } }],
      });
    }
  });
});

describe('Alarms on the platform', () => {
  const has = (stack: Stack, properties: Record<string, unknown>) =>
    templates.get(stack.stackName)!.hasResourceProperties('AWS::CloudWatch::Alarm', properties);
  const expression = (stack: Stack, pattern: RegExp) =>
    alarms(stack).filter((a) => a.Properties.Metrics?.some((m: any) => pattern.test(m.Expression ?? '')));

  it('alarms on Lambda throttles: every function of the account, and each bot', () => {
    has(built.ops, { Namespace: 'AWS/Lambda', MetricName: 'Throttles', Dimensions: Match.absent() });
    const botThrottles = [...alarms(built.bots), ...alarms(built.room)].filter(
      (a) => a.Properties.MetricName === 'Throttles',
    );
    expect(botThrottles).toHaveLength(bots.length + 1);
  });

  it('alarms on DynamoDB throttled requests and system errors of the table, summed over its operations', () => {
    for (const metric of ['ThrottledRequests', 'SystemErrors']) {
      const found = alarms(built.data).filter((a) =>
        a.Properties.Metrics?.some((m: any) => m.MetricStat?.Metric.MetricName === metric),
      );
      expect(found, metric).toHaveLength(1);
      const summed = found[0].Properties.Metrics.filter((m: any) => m.MetricStat);
      expect(summed.length).toBeLessThanOrEqual(10); // an alarm's expression takes at most 10 metrics
      expect(
        summed.map((m: any) => m.MetricStat.Metric.Dimensions.find((d: any) => d.Name === 'Operation').Value),
      ).toEqual(expect.arrayContaining(['Query', 'TransactWriteItems', 'UpdateItem', 'GetItem', 'PutItem']));
    }
  });

  it("alarms on the API's p99 latency and its 5xx rate as well as its 5xx count", () => {
    has(built.api, {
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      EvaluationPeriods: 3,
    });
    expect(expression(built.api, /100 \* errors \/ requests/)).toHaveLength(1);
    has(built.api, { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Statistic: 'Sum' });
  });

  it("alarms when the working-day calendar covers fewer than 120 days ahead (the chronograph's metric)", () => {
    has(built.bots, {
      Namespace: 'Agora',
      MetricName: 'CalendarCoverageDays',
      Statistic: 'Minimum',
      Threshold: 120,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'notBreaching',
      Dimensions: [{ Name: 'service', Value: 'agora' }],
    });
  });

  it("alarms on the room's WebSocket API: failed messages and connections, and slow ones", () => {
    expect(expression(built.room, /integration \+ execution/)).toHaveLength(1);
    has(built.room, { Namespace: 'AWS/ApiGateway', MetricName: 'IntegrationLatency', ExtendedStatistic: 'p99' });
  });

  it('sends every alarm to the alarm topic, firing and clearing, and links its runbook section in docs/operations.md', () => {
    const all = allAlarms();
    expect(all.length).toBeGreaterThan(20);
    for (const { Properties: p } of all) {
      expect(p.AlarmActions, p.AlarmDescription).toHaveLength(1);
      expect(p.OKActions, p.AlarmDescription).toHaveLength(1);
      const link = new RegExp(`Runbook: ${RUNBOOK}#([\\w-]+)$`).exec(p.AlarmDescription);
      expect(link, p.AlarmDescription).not.toBeNull();
      expect(headings.has(link![1]), `docs/operations.md has no section #${link![1]}`).toBe(true);
    }
    for (const anchor of Object.values(RUNBOOKS)) expect(headings.has(anchor), anchor).toBe(true);
  });

  it('counts as docs/operations.md says: 4 per scheduled bot, 1 per stack with schedules, 19 others', () => {
    const total = 4 * (bots.length + 1) + 2 + 19;
    expect(allAlarms()).toHaveLength(total);
    expect(readFileSync(RUNBOOK, 'utf8')).toContain(`that is ${total} alarms`);
  });
});

describe("docs/operations.md's cost section", () => {
  it('counts routes, functions, alarms and alarm metrics as the code and the templates do', () => {
    const guide = readFileSync(RUNBOOK, 'utf8');
    const cost = guide.slice(guide.indexOf('## What a month costs')).replace(/\s+/g, ' ');
    const apiRoutes = routes.filter((r) => r.path !== '$default').length;
    const functions = stacksOf(built).reduce(
      (n, s) => n + Object.keys(templates.get(s.stackName)!.findResources('AWS::Lambda::Function')).length,
      0,
    );
    const alarmMetrics = allAlarms().reduce(
      (n, a) => n + (a.Properties.Metrics ? a.Properties.Metrics.filter((m: any) => m.MetricStat).length : 1),
      0,
    );
    // The authorizer, the migrations and the webhook delivery Lambda besides the routes, bots and room.
    expect(functions).toBe(routes.length + 1 + bots.length + 1 + 1 + roomLambdas.length);
    expect(cost).toContain(`4 per route × ${apiRoutes} routes`);
    expect(cost).toContain(`${apiRoutes} API routes`);
    expect(cost).toContain(`${functions} functions`);
    expect(cost).toContain(`${allAlarms().length} alarms`);
    expect(cost).toContain(`${alarmMetrics} alarm metrics`);
  });
});

describe('Dashboard and budget', () => {
  it('has one dashboard showing the API, every bot, the functions, the table and the room', () => {
    const t = templates.get(built.ops.stackName)!;
    const dashboards = Object.values(t.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0].Properties.DashboardName).toBe('Agora-dev');
    const body = JSON.stringify(dashboards[0].Properties.DashboardBody);
    for (const bot of [...bots.map((b) => b.name), 'room']) expect(body).toContain(`\\"bot\\",\\"${bot}\\"`);
    for (const shown of [
      'BotRuns',
      'ServerErrors',
      'Throttles',
      'ConsumedWriteCapacityUnits',
      'MessageCount',
      'Agora-dev-',
    ])
      expect(body).toContain(shown);
  });

  it('makes a monthly budget notifying the alarm topic only when budgetUsd is given', () => {
    expect(templates.get(built.ops.stackName)!.findResources('AWS::Budgets::Budget')).toEqual({});
    const withBudget = build({ budgetUsd: 300 });
    const ops = Template.fromStack(withBudget.ops);
    ops.hasResourceProperties('AWS::Budgets::Budget', {
      Budget: { BudgetType: 'COST', TimeUnit: 'MONTHLY', BudgetLimit: { Amount: 300, Unit: 'USD' } },
      NotificationsWithSubscribers: Match.arrayWith([
        {
          Notification: Match.objectLike({ NotificationType: 'FORECASTED', Threshold: 100 }),
          Subscribers: [{ SubscriptionType: 'SNS', Address: Match.anyValue() }],
        },
      ]),
    });
    Template.fromStack(withBudget.data).hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'budgets.amazonaws.com' }, Action: 'sns:Publish' }),
        ]),
      },
    });
    expect(() => build({ budgetUsd: 'a lot' })).toThrow(/budgetUsd/);
  });
});

describe('Stack conventions', () => {
  it('describes and tags every stack (app, stage, stack)', () => {
    for (const stack of stacksOf(built)) {
      expect(templates.get(stack.stackName)!.toJSON().Description, stack.stackName).toMatch(/^Agora dev: \w/);
      expect(stack.tags.tagValues()).toMatchObject({
        'agora:app': 'agora',
        'agora:stage': 'dev',
        'agora:stack': stack.stackName,
      });
    }
    const fn = Object.values(
      templates.get(built.bots.stackName)!.findResources('AWS::Lambda::Function'),
    )[0] as Resource;
    expect(fn.Properties.Tags).toEqual(expect.arrayContaining([{ Key: 'agora:stage', Value: 'dev' }]));
  });

  it('protects every stack from deletion in prod, and none elsewhere', () => {
    for (const stack of stacksOf(built)) expect(stack.terminationProtection).toBe(false);
    const prod = build({ stage: 'prod', account: '123456789012', region: 'eu-central-1' });
    for (const stack of stacksOf(prod)) {
      expect(stack.terminationProtection, stack.stackName).toBe(true);
      expect([stack.account, stack.region]).toEqual(['123456789012', 'eu-central-1']);
    }
  });

  it('refuses to synthesize prod for an unknown account or region, and warns elsewhere', () => {
    expect(() => build({ stage: 'prod' })).toThrow(/stage prod: the account and region must be known/);
    // The CLI always names a region (us-east-1 when none is configured): only a missing account is left to refuse.
    expect(() => build({ stage: 'prod', region: 'eu-central-1' })).toThrow(/account and region/);
    expect(build({ stage: 'prod', account: '123456789012' }).data.region).toBe('us-east-1');
    expect(() => build({ account: 'acme' })).toThrow(/context account/);
    expect(() => build({ region: 'Frankfurt' })).toThrow(/context region/);
    Annotations.fromStack(built.data).hasWarning('*', Match.stringLikeRegexp('No account or region known'));
    const known = build({ account: '123456789012', region: 'eu-central-1' });
    expect(Annotations.fromStack(known.data).findWarning('*', Match.stringLikeRegexp('No account'))).toHaveLength(0);
  });
});
