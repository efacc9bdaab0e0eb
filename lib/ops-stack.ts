import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { IHttpApi, IWebSocketApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import {
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  PeriodOverride,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { TELEMETRY } from '../functions/platform/telemetry.ts';
import { alarm, RUNBOOK } from './operations.ts';

export interface OpsStackProps extends StackProps {
  stage: string;
  api: IHttpApi;
  room: { api: IWebSocketApi; stageName: string };
  table: ITableV2;
  alarmTopic: ITopic;
  /** The bots whose runs the dashboard shows (bots.ts and the room's). */
  botNames: readonly string[];
  /** A monthly cost budget in USD (context `budgetUsd`): notifies the alarm topic at 80 % and 100 % spent, 100 % forecast. */
  budgetUsd?: number;
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * What the operator looks at: the dashboard `Agora-<stage>` (the API, its routes, the bots, the functions, the table,
 * the room), the alarm on Lambda throttles of the account, and, when asked for, the monthly budget. It only reads
 * metrics and ids of the other stacks; the route metrics and the functions' come from SEARCH expressions, so new
 * routes and Lambdas appear on it without a change here.
 */
export class OpsStack extends Stack {
  readonly dashboard: Dashboard;
  constructor(scope: Construct, id: string, props: OpsStackProps) {
    super(scope, id, props);
    const metric = (namespace: string, metricName: string, dimensionsMap: Record<string, string>, statistic = 'Sum') =>
      new Metric({ namespace, metricName, dimensionsMap, statistic, period: FIVE_MINUTES });
    const search = (query: string, statistic: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('${query}', '${statistic}', 300)`,
        label,
        period: FIVE_MINUTES,
      });
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) =>
      new GraphWidget({ title, left, right, width: 8, height: 6 });
    const api = (metricName: string, statistic = 'Sum') =>
      metric('AWS/ApiGateway', metricName, { ApiId: props.api.apiId }, statistic);
    const socket = (metricName: string, statistic = 'Sum') =>
      metric('AWS/ApiGateway', metricName, { ApiId: props.room.api.apiId, Stage: props.room.stageName }, statistic);
    const bot = (metricName: string, name: string) =>
      metric(TELEMETRY.namespace, metricName, { service: TELEMETRY.service, bot: name });
    const service = (metricName: string, statistic = 'Sum') =>
      metric(TELEMETRY.namespace, metricName, { service: TELEMETRY.service }, statistic);
    const table = (metricName: string, statistic = 'Sum') =>
      metric('AWS/DynamoDB', metricName, { TableName: props.table.tableName }, statistic);
    // The app's functions are named after their stacks (Agora-<stage>-...): a search by that prefix finds them all.
    const functions = (metricName: string, statistic: string) =>
      search(`{AWS/Lambda,FunctionName} MetricName="${metricName}" Agora-${props.stage}-`, statistic, metricName);

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `Agora-${props.stage}`,
      defaultInterval: Duration.hours(6),
      periodOverride: PeriodOverride.AUTO,
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# Agora ${props.stage}\nEvery alarm of the app notifies the alarm topic (Agora-${props.stage}-Data, AlarmTopicArn); each one's description names its runbook section in \`${RUNBOOK}\`.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      graph('API requests and errors', [api('Count'), api('4xx'), api('5xx')]),
      graph('API latency (ms)', [api('Latency', 'p50'), api('Latency', 'p99'), api('IntegrationLatency', 'p99')]),
      graph(
        'Routes: 5xx and 4xx by route',
        [search(`{${TELEMETRY.namespace},route,service} MetricName="ServerErrors"`, 'Sum', 'ServerErrors')],
        [search(`{${TELEMETRY.namespace},route,service} MetricName="ClientErrors"`, 'Sum', 'ClientErrors')],
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Bots: completed runs (heartbeat)',
        props.botNames.map((name) => bot(TELEMETRY.botRuns, name)),
      ),
      graph(
        'Bots: due items and failed items',
        props.botNames.map((name) => bot('Due', name)),
        props.botNames.map((name) => bot(TELEMETRY.botItemFailures, name)),
      ),
      graph('Refused and limited callers', [service(TELEMETRY.authFailures), service(TELEMETRY.throttled)]),
    );
    this.dashboard.addWidgets(
      graph('Functions: errors and throttles', [functions('Errors', 'Sum')], [functions('Throttles', 'Sum')]),
      graph('Functions: p99 duration (ms)', [functions('Duration', 'p99')]),
      graph('Functions: concurrency (account)', [
        metric('AWS/Lambda', 'ConcurrentExecutions', {}, 'Maximum'),
        metric('AWS/Lambda', 'Throttles', {}),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Table: consumed units', [table('ConsumedReadCapacityUnits'), table('ConsumedWriteCapacityUnits')]),
      graph('Table: throttled and failed requests', [
        table('ReadThrottleEvents'),
        table('WriteThrottleEvents'),
        search(
          `{AWS/DynamoDB,Operation,TableName} MetricName="SystemErrors" ${props.table.tableName}`,
          'Sum',
          'SystemErrors',
        ),
      ]),
      graph('Table: request latency (ms)', [
        search(
          `{AWS/DynamoDB,Operation,TableName} MetricName="SuccessfulRequestLatency" ${props.table.tableName}`,
          'Average',
          'SuccessfulRequestLatency',
        ),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Room: connections and messages', [socket('ConnectCount'), socket('MessageCount')]),
      graph('Room: errors', [socket('IntegrationError'), socket('ExecutionError'), socket('ClientError')]),
      graph(
        'Room: latency (ms)',
        [socket('IntegrationLatency', 'p99')],
        [service(TELEMETRY.roomTransitionLateness, 'Maximum')],
      ),
    );

    // Lambda's own sum over every function of the account and region: a throttled route function answers 5xx (which
    // the API's alarms also see), a throttled bot misses its heartbeat; this one names the cause.
    alarm(
      this,
      'LambdaThrottles',
      metric('AWS/Lambda', 'Throttles', {}),
      1,
      'Lambda throttled invocations in this account and region (Throttles, every function): the account concurrency or a reserved concurrency is used up.',
      props.alarmTopic,
      { runbook: 'lambdaThrottled' },
    );

    if (props.budgetUsd !== undefined) {
      const notify = (notificationType: 'ACTUAL' | 'FORECASTED', threshold: number) => ({
        notification: { notificationType, comparisonOperator: 'GREATER_THAN', threshold, thresholdType: 'PERCENTAGE' },
        subscribers: [{ subscriptionType: 'SNS', address: props.alarmTopic.topicArn }],
      });
      new CfnBudget(this, 'MonthlyBudget', {
        budget: {
          budgetName: `Agora-${props.stage}-monthly`,
          budgetType: 'COST',
          timeUnit: 'MONTHLY',
          budgetLimit: { amount: props.budgetUsd, unit: 'USD' },
        },
        notificationsWithSubscribers: [notify('ACTUAL', 80), notify('ACTUAL', 100), notify('FORECASTED', 100)],
      });
    }
  }
}
