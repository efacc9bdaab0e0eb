import { Duration, RemovalPolicy, TimeZone } from 'aws-cdk-lib';
import type { HttpApi, CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITableV2, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CALENDAR_COVERAGE_DAYS, TELEMETRY } from '../functions/platform/telemetry.ts';

const FIVE_MINUTES = Duration.minutes(5);

/** Where the runbooks are: each alarm's description ends with its section of this file. */
export const RUNBOOK = 'docs/operations.md';

/** The runbook sections (headings `### Runbook: <words>` of docs/operations.md), by the alarm they answer. */
export const RUNBOOKS = {
  botStopped: 'runbook-bot-stopped',
  botRunFailed: 'runbook-bot-run-failed',
  botItemsFailed: 'runbook-bot-items-failed',
  scheduleDeadLetters: 'runbook-schedule-dead-letters',
  lambdaThrottled: 'runbook-lambda-throttled',
  api5xx: 'runbook-api-5xx',
  apiLatency: 'runbook-api-latency',
  authFailures: 'runbook-auth-failures',
  keysThrottled: 'runbook-keys-throttled',
  dynamoDbThrottled: 'runbook-dynamodb-throttled',
  dynamoDbSystemErrors: 'runbook-dynamodb-system-errors',
  roomSocketErrors: 'runbook-room-socket-errors',
  roomSocketLatency: 'runbook-room-socket-latency',
  roomResultsNotPosted: 'runbook-room-results-not-posted',
  roomTransitionsLate: 'runbook-room-transitions-late',
  roomTimersFailed: 'runbook-room-timers-failed',
  webhookDeadLetters: 'runbook-webhook-dead-letters',
  webhookOldestChange: 'runbook-webhook-oldest-change',
  webhookPipeFailing: 'runbook-webhook-pipe-failing',
  webhookReceiverFailing: 'runbook-webhook-receiver-failing',
  calendarCoverage: 'runbook-calendar-coverage',
} as const;

export interface AlarmOptions {
  /** The runbook section the description links. */
  runbook: keyof typeof RUNBOOKS;
  /** Default: at or above the threshold. */
  comparison?: ComparisonOperator;
  /** Default: missing data is fine (no traffic, no errors); a heartbeat says BREACHING. */
  missingData?: TreatMissingData;
  /** Periods in a row over the threshold that raise it (default 1). */
  evaluationPeriods?: number;
}

/** One alarm of the app, notifying the alarm topic when it fires and when it clears; its description names its runbook. */
export function alarm(
  scope: Construct,
  id: string,
  metric: IMetric,
  threshold: number,
  description: string,
  topic: ITopic,
  options: AlarmOptions,
): Alarm {
  const made = new Alarm(scope, id, {
    metric,
    threshold,
    evaluationPeriods: options.evaluationPeriods ?? 1,
    comparisonOperator: options.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: options.missingData ?? TreatMissingData.NOT_BREACHING,
    alarmDescription: `${description} Runbook: ${RUNBOOK}#${RUNBOOKS[options.runbook]}`,
  });
  made.addAlarmAction(new SnsAction(topic));
  made.addOkAction(new SnsAction(topic));
  return made;
}

export interface ApiOperationsProps {
  api: HttpApi;
  throttle: { rateLimit: number; burstLimit: number };
  alarmTopic: ITopic;
  /** 5xx answers in five minutes that raise the alarm. */
  serverErrorThreshold: number;
  /** 401/403 answers (AuthFailures) and 429 answers (Throttled) in five minutes that raise their alarms. */
  authFailureThreshold?: number;
  throttleThreshold?: number;
}

/**
 * The API's operations: stage throttling (every route of the `$default` stage; over it API Gateway itself answers
 * 429 `{"message":"Too Many Requests"}`, not the service's envelope: HTTP APIs cannot customize that body), JSON access
 * logs of the stage (request id, route, status, latency; never headers), and an alarm on 5xx answers.
 */
export class ApiOperations extends Construct {
  readonly serverErrors: Alarm;
  readonly serverErrorRate: Alarm;
  readonly latency: Alarm;
  readonly authFailures: Alarm;
  readonly throttled: Alarm;
  constructor(scope: Construct, id: string, props: ApiOperationsProps) {
    super(scope, id);
    const stage = props.api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = {
      throttlingRateLimit: props.throttle.rateLimit,
      throttlingBurstLimit: props.throttle.burstLimit,
    };
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        time: '$context.requestTime',
        routeKey: '$context.routeKey',
        status: '$context.status',
        latencyMs: '$context.responseLatency',
        integrationError: '$context.integrationErrorMessage',
        authorizerError: '$context.authorizer.error',
        ip: '$context.identity.sourceIp',
      }),
    };
    this.serverErrors = alarm(
      this,
      'ServerErrors',
      props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
      props.serverErrorThreshold,
      `Agora API answered ${props.serverErrorThreshold} or more 5xx in 5 minutes.`,
      props.alarmTopic,
      { runbook: 'api5xx' },
    );
    // A rate too: a few 5xx in a quiet hour and 1 % of a busy one are different news. Under 20 requests, no rate.
    this.serverErrorRate = alarm(
      this,
      'ServerErrorRate',
      new MathExpression({
        expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
          requests: props.api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
        },
        label: '5xx % of requests',
        period: FIVE_MINUTES,
      }),
      API_ALARMS.serverErrorPercent,
      `Agora API answered ${API_ALARMS.serverErrorPercent} % or more of its requests with 5xx in 5 minutes (of 20 or more).`,
      props.alarmTopic,
      { runbook: 'api5xx' },
    );
    this.latency = alarm(
      this,
      'LatencyP99',
      props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
      API_ALARMS.latencyP99Ms,
      `Agora API's p99 latency was ${API_ALARMS.latencyP99Ms} ms or more for 15 minutes (three 5-minute periods in a row).`,
      props.alarmTopic,
      { runbook: 'apiLatency', evaluationPeriods: 3 },
    );
    // Spikes of refused credentials (someone trying keys or tokens) and of callers over their key's limit, from the
    // EMF counts the HTTP kit publishes (API Gateway's own 4xx metric mixes them with every 404 and 422).
    const serviceMetric = (metricName: string) =>
      new Metric({
        namespace: TELEMETRY.namespace,
        metricName,
        dimensionsMap: { service: TELEMETRY.service },
        statistic: 'Sum',
        period: FIVE_MINUTES,
      });
    this.authFailures = alarm(
      this,
      'AuthFailures',
      serviceMetric(TELEMETRY.authFailures),
      props.authFailureThreshold ?? 100,
      'Agora answered many 401/403 in 5 minutes (AuthFailures).',
      props.alarmTopic,
      { runbook: 'authFailures' },
    );
    this.throttled = alarm(
      this,
      'Throttled',
      serviceMetric(TELEMETRY.throttled),
      props.throttleThreshold ?? 50,
      'Agora answered many 429 in 5 minutes (Throttled): an API key is over its request limit (context keyRate/keyBurst).',
      props.alarmTopic,
      { runbook: 'keysThrottled' },
    );
  }
}

/** The API's latency and 5xx-rate thresholds (docs/operations.md, runbooks). */
export const API_ALARMS = { latencyP99Ms: 3000, serverErrorPercent: 1 } as const;

/**
 * How long a bot may go without a completed run before its heartbeat alarm fires: three of its scheduled intervals,
 * at least 15 minutes (one late or failed run is the run-failure alarm's news, not a stopped bot), at most a day
 * (CloudWatch's longest period); a cron or one-off schedule, a day.
 */
export function heartbeatWindow(schedule: string): Duration {
  const rate = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(schedule);
  const minutes = rate ? Number(rate[1]) * { minute: 1, hour: 60, day: 1440 }[rate[2] as 'minute'] : 1440;
  return Duration.minutes(Math.min(1440, Math.max(15, 3 * minutes)));
}

export interface ScheduledBotProps {
  /** The bot's name (bots.ts, or `room`): the `bot` dimension of its metrics. */
  bot: string;
  fn: IFunction;
  /** EventBridge Scheduler expression, run in Europe/Kyiv. */
  schedule: string;
  description: string;
  alarmTopic: ITopic;
  /** The stack's dead-letter queue of its schedules (`ScheduleDeadLetters`). */
  deadLetters: IQueue;
}

/**
 * A bot on its schedule and what watches it: EventBridge Scheduler invokes it (Europe/Kyiv; an invocation it cannot
 * deliver after its retries goes to the stack's dead-letter queue); alarms on a failed run (Lambda Errors), on failed
 * items (`BotItemFailures`), on throttled invocations, and its heartbeat: no completed run (`BotRuns`, published at
 * the end of every run, runtime/observability.ts) within `heartbeatWindow`, missing data breaching, so a disabled
 * schedule, a broken Scheduler role, a throttled or crashing bot all fire it.
 */
export class ScheduledBot extends Construct {
  readonly heartbeat: Alarm;
  constructor(scope: Construct, id: string, props: ScheduledBotProps) {
    super(scope, id);
    const { bot, fn, alarmTopic } = props;
    new Schedule(this, 'Schedule', {
      description: props.description,
      schedule: ScheduleExpression.expression(props.schedule, TimeZone.EUROPE_KYIV),
      target: new LambdaInvoke(fn, {
        deadLetterQueue: props.deadLetters,
        retryAttempts: 2,
        maxEventAge: Duration.minutes(5),
      }),
    });
    const botMetric = (metricName: string, period: Duration) =>
      new Metric({
        namespace: TELEMETRY.namespace,
        metricName,
        dimensionsMap: { service: TELEMETRY.service, bot },
        statistic: 'Sum',
        period,
      });
    const window = heartbeatWindow(props.schedule);
    this.heartbeat = alarm(
      this,
      'Heartbeat',
      botMetric(TELEMETRY.botRuns, window),
      1,
      `The ${bot} bot has not completed a run for ${window.toMinutes()} minutes (no BotRuns): nothing it owes is being done.`,
      alarmTopic,
      {
        runbook: 'botStopped',
        comparison: ComparisonOperator.LESS_THAN_THRESHOLD,
        missingData: TreatMissingData.BREACHING,
      },
    );
    alarm(
      this,
      'RunFailures',
      fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      1,
      `The ${bot} bot's run failed (Lambda Errors).`,
      alarmTopic,
      { runbook: 'botRunFailed' },
    );
    alarm(
      this,
      'ItemFailures',
      botMetric(TELEMETRY.botItemFailures, FIVE_MINUTES),
      1,
      `The ${bot} bot failed on items (BotItemFailures): they stay due and are retried every run.`,
      alarmTopic,
      { runbook: 'botItemsFailed' },
    );
    alarm(
      this,
      'Throttles',
      fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
      1,
      `The ${bot} bot's invocations were throttled (Lambda Throttles): its reserved concurrency or the account's is used up.`,
      alarmTopic,
      { runbook: 'lambdaThrottled' },
    );
  }
}

/**
 * The dead-letter queue of a stack's schedules: an invocation EventBridge Scheduler could not deliver after its
 * retries (the function gone, its role broken, throttled for 5 minutes) lands here, kept 14 days, and raises an alarm.
 */
export class ScheduleDeadLetters extends Construct {
  readonly queue: Queue;
  constructor(scope: Construct, id: string, alarmTopic: ITopic) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    alarm(
      this,
      'Arrived',
      this.queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      1,
      'A scheduled bot invocation could not be delivered and is in the dead-letter queue.',
      alarmTopic,
      { runbook: 'scheduleDeadLetters' },
    );
  }
}

/** The operations that can throttle or fail on the table (10: the most metrics an alarm's expression may use). */
const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.SCAN,
  Operation.BATCH_GET_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];

/** The table's alarms: throttled requests (an on-demand table's partition or account limits) and DynamoDB's own errors. */
export function tableAlarms(scope: Construct, table: ITableV2, topic: ITopic): Alarm[] {
  return [
    alarm(
      scope,
      'TableThrottled',
      table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES }),
      10,
      'DynamoDB throttled 10 or more requests to the table in 5 minutes (ThrottledRequests): the API answered them 503 with Retry-After.',
      topic,
      { runbook: 'dynamoDbThrottled' },
    ),
    alarm(
      scope,
      'TableSystemErrors',
      table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES }),
      5,
      'DynamoDB answered 5 or more requests to the table with its own errors in 5 minutes (SystemErrors, HTTP 500).',
      topic,
      { runbook: 'dynamoDbSystemErrors' },
    ),
  ];
}

/**
 * The working-day calendar's coverage alarm: the chronograph publishes `CalendarCoverageDays` every run; fewer than
 * CALENDAR_COVERAGE_DAYS left and it fires, months before a period counted past `coverage.to` is refused (403).
 * Missing data is not breaching: a chronograph that stopped is its heartbeat's alarm.
 */
export function calendarCoverageAlarm(scope: Construct, topic: ITopic): Alarm {
  return alarm(
    scope,
    'CalendarCoverage',
    new Metric({
      namespace: TELEMETRY.namespace,
      metricName: TELEMETRY.calendarCoverageDays,
      dimensionsMap: { service: TELEMETRY.service },
      statistic: 'Minimum',
      period: Duration.hours(1),
    }),
    CALENDAR_COVERAGE_DAYS,
    `The working-day calendar covers fewer than ${CALENDAR_COVERAGE_DAYS} days ahead (CalendarCoverageDays): extend its coverage before periods reach its end.`,
    topic,
    { runbook: 'calendarCoverage', comparison: ComparisonOperator.LESS_THAN_THRESHOLD },
  );
}
