import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { HttpApi, CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { TELEMETRY } from '../functions/runtime/telemetry.ts';

const FIVE_MINUTES = Duration.minutes(5);

export function alarm(
  scope: Construct,
  id: string,
  metric: IMetric,
  threshold: number,
  description: string,
  topic: ITopic,
): Alarm {
  const made = new Alarm(scope, id, {
    metric,
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: description,
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
      `Agora API answered ${props.serverErrorThreshold} or more 5xx in 5 minutes: look for level ERROR in the route functions' logs (correlation_id = the answer's x-correlation-id).`,
      props.alarmTopic,
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
      "Agora answered many 401/403 in 5 minutes: look for status 401/403 in the route functions' request lines (caller, route).",
      props.alarmTopic,
    );
    this.throttled = alarm(
      this,
      'Throttled',
      serviceMetric(TELEMETRY.throttled),
      props.throttleThreshold ?? 50,
      'Agora answered many 429 in 5 minutes: an API key is over its request limit (context keyRate/keyBurst).',
      props.alarmTopic,
    );
  }
}

/**
 * A bot's alarm: the run itself failed (Lambda Errors, e.g. a missing secret) or items of a run failed
 * (`BotItemFailures`, published by the bot with dimension `bot`; such items stay due and are retried every run).
 */
export function botAlarms(scope: Construct, bot: string, fn: IFunction, topic: ITopic): Alarm[] {
  const itemFailures = new Metric({
    namespace: TELEMETRY.namespace,
    metricName: TELEMETRY.botItemFailures,
    dimensionsMap: { service: TELEMETRY.service, bot },
    statistic: 'Sum',
    period: FIVE_MINUTES,
  });
  return [
    alarm(
      scope,
      `${fn.node.id}RunFailures`,
      fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      1,
      `The ${bot} bot's run failed (Lambda error): nothing it owes is being done. See its log group.`,
      topic,
    ),
    alarm(
      scope,
      `${fn.node.id}ItemFailures`,
      itemFailures,
      1,
      `The ${bot} bot failed on items (BotItemFailures): they stay due and are retried; see "bot item failed" in its logs.`,
      topic,
    ),
  ];
}
