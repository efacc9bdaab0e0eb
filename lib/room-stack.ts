import { CfnOutput, Duration, Expiration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnStage, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AppSyncAuthorizationType, EventApi } from 'aws-cdk-lib/aws-appsync';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import {
  Choice,
  Condition,
  DefinitionBody,
  LogLevel,
  StateMachine,
  StateMachineType,
  Succeed,
  Wait,
  WaitTime,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { ROOM_BOT_SCHEDULE, ROOM_NAMESPACE, roomLambdas } from '../functions/room/lambdas.ts';
import { CONNECTION_PARTITION } from '../functions/store/table-design.ts';
import { TELEMETRY } from '../functions/platform/telemetry.ts';
import { AppFunction } from './app-function.ts';
import { grantSecretValue } from './iam.ts';
import { alarm, ScheduleDeadLetters, ScheduledBot } from './operations.ts';
import { CustomDomain } from './custom-domain.ts';
import type { DomainParameters } from './parameters.ts';

export interface RoomStackProps extends StackProps {
  /** The one table (DataStack): the room's items live in their own partitions of it. */
  table: ITableV2;
  /** The participation secret (DataStack): $connect verifies bidders' links with it. */
  participationKey: ISecret;
  /** The document service's bucket and signing key (DataStack): the audit document of an ended room is filed there. */
  files: IBucket;
  docserviceKey: ISecret;
  alarmTopic: ITopic;
  /** WebSocket stage throttling (every route). */
  throttle?: { rateLimit: number; burstLimit: number };
  /**
   * The API's public base URL (AGORA_PUBLIC_URL): the links of the audit document an ended room files (its `url`,
   * the document service's) are built from it, as the route functions build theirs.
   */
  publicUrl: string;
  /** Reserved concurrency of the room bot (context `botConcurrency`, as every bot's; 0 or absent: none). */
  botConcurrency?: number;
  /** The room's own domain (context `roomDomain`, lib/parameters.ts): the stage mapped at its root. */
  domain?: DomainParameters;
}

/**
 * The auction room: its WebSocket API (API Gateway, one Lambda per route of functions/room/lambdas.ts, selected by
 * `$request.body.action`), its timers and its bot, with their permissions and alarms. Self-contained: it takes the
 * table, the participation secret and the alarm topic, and gives its endpoint (`socketUrl`, what the room page
 * connects to: another host than the page's, which the HTTP API serves).
 *
 * Timers: Step Functions, one standard execution per room version (`Wait` until the next instant, the transition
 * Lambda, again until it answers `done`). Chosen over EventBridge Scheduler one-time schedules because a Wait state
 * wakes to the second at a timestamp given at run time and loops without a schedule to create and delete per stage
 * (an 80-step auction would need ~90 schedules, each a create and a delete call, at minute-granular precision unless
 * flexible windows are off); an execution per version also makes a stale timer harmless (it finds a newer version and
 * stops). The room bot (every minute) is the backstop: a room whose timer is late is taken up by it.
 */
export class RoomStack extends Stack {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  /**
   * The room's WebSocket URL, the room page's socket: `wss://<roomDomain>`, else
   * `wss://<api id>.execute-api.<region>.amazonaws.com/live`.
   */
  readonly socketUrl: string;
  /**
   * The observers' broadcast (AppSync Events): its real-time endpoint (`wss://<realtime domain>/event/realtime`) and
   * the API key observers subscribe with (public by design: it only lets one read the rooms' public documents).
   */
  readonly events: EventApi;
  /** What the room page hands its observers: the real-time endpoint, the host its authorization names, the API key. */
  readonly observers: { url: string; host: string; apiKey: string };

  constructor(scope: Construct, id: string, props: RoomStackProps) {
    super(scope, id, props);
    const logGroup = new LogGroup(this, 'RoomLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.api = new WebSocketApi(this, 'Room', {
      description: 'Agora auction room (functions/room/protocol.schema.json)',
      routeSelectionExpression: '$request.body.action',
    });
    const throttle = props.throttle ?? { rateLimit: 500, burstLimit: 1000 };
    this.stage = new WebSocketStage(this, 'Live', {
      webSocketApi: this.api,
      stageName: 'live',
      autoDeploy: true,
      throttle,
    });
    // On its own domain the stage is mapped at the root: `wss://<roomDomain>` (the Lambdas still post to connections
    // through the stage's execute-api callback URL, ROOM_CALLBACK_URL).
    if (props.domain)
      new CustomDomain(this, 'RoomDomain', {
        ...props.domain,
        api: this.api,
        stage: this.stage,
        serves: "the auction room's WebSocket",
      });
    this.socketUrl = props.domain ? `wss://${props.domain.domainName}` : this.stage.url;
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    (this.stage.node.defaultChild as CfnStage).accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        time: '$context.requestTime',
        routeKey: '$context.routeKey',
        eventType: '$context.eventType',
        status: '$context.status',
        connectionId: '$context.connectionId',
        integrationError: '$context.integrationErrorMessage',
        ip: '$context.identity.sourceIp',
      }),
    };

    // Observers: one publish per change to the room's channel, fanned out by AppSync Events (docs/DESIGN.md says why).
    // Anyone may connect and subscribe with the API key; only IAM (the room Lambdas that change rooms) may publish.
    this.events = new EventApi(this, 'RoomEvents', {
      apiName: `${this.stackName}-room-events`,
      authorizationConfig: {
        authProviders: [
          // The longest an API key may live (365 days): a deploy within the year renews it (docs/operations.md).
          {
            authorizationType: AppSyncAuthorizationType.API_KEY,
            apiKeyConfig: { name: 'observers', expires: Expiration.after(Duration.days(365)) },
          },
          { authorizationType: AppSyncAuthorizationType.IAM },
        ],
        connectionAuthModeTypes: [AppSyncAuthorizationType.API_KEY, AppSyncAuthorizationType.IAM],
        defaultPublishAuthModeTypes: [AppSyncAuthorizationType.IAM],
        defaultSubscribeAuthModeTypes: [AppSyncAuthorizationType.API_KEY],
      },
    });
    this.observers = {
      url: `wss://${this.events.realtimeDns}/event/realtime`,
      host: this.events.httpDns,
      apiKey: this.events.apiKeys.observers.attrApiKey,
    };
    const rooms = this.events.addChannelNamespace('Rooms', {
      channelNamespaceName: ROOM_NAMESPACE,
      authorizationConfig: {
        publishAuthModeTypes: [AppSyncAuthorizationType.IAM],
        subscribeAuthModeTypes: [AppSyncAuthorizationType.API_KEY],
      },
    });

    const fn = new Map<string, AppFunction>();
    for (const lambda of roomLambdas) {
      const made = new AppFunction(this, `Room${lambda.name}`, {
        handler: lambda.handler,
        table: props.table,
        access: lambda.table,
        logGroup,
        timeout: Duration.seconds(lambda.kind === 'route' ? 10 : 60),
        environment: {
          ROOM_CALLBACK_URL: this.stage.callbackUrl,
          ...(lambda.participation && { PARTICIPATION_SECRET_ARN: props.participationKey.secretArn }),
          ...(lambda.posts && {
            DOCSERVICE_SECRET_ARN: props.docserviceKey.secretArn,
            FILES_BUCKET: props.files.bucketName,
            AGORA_PUBLIC_URL: props.publicUrl,
          }),
        },
        ...((lambda.participation || lambda.posts) && { secretsExtension: true }),
      });
      if (lambda.participation) grantSecretValue(props.participationKey, made);
      if (lambda.messages && lambda.table === 'ro')
        // The message allowance (room/kit.ts): an answering Lambda updates its connection's item, and no other.
        made.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [props.table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${CONNECTION_PARTITION}*`] } },
          }),
        );
      if (lambda.posts) {
        // The ended room files its audit document: it writes a new file and marks it attached, nothing more.
        grantSecretValue(props.docserviceKey, made);
        made.addToRolePolicy(
          new PolicyStatement({
            actions: ['s3:PutObject', 's3:PutObjectTagging'],
            resources: [props.files.arnForObjects('files/*')],
          }),
        );
      }
      // Who answers or tells connections (PostToConnection, DeleteConnection): not $connect and $disconnect, which
      // only answer the handshake and forget the connection.
      if (lambda.kind !== 'route' || lambda.messages) this.api.grantManageConnections(made);
      if (lambda.publishes) {
        // The publisher: appsync:EventPublish on the rooms' namespace, and nothing else of the Event API.
        made.addEnvironment('ROOM_EVENTS_HOST', this.events.httpDns);
        rooms.grantPublish(made);
      }
      if (lambda.route)
        this.api.addRoute(lambda.route, {
          integration: new WebSocketLambdaIntegration(`Room${lambda.name}Integration`, made),
        });
      fn.set(lambda.kind === 'route' ? lambda.route! : lambda.kind, made);
    }

    // The timer: wait until `nextAt`, apply, and again with the order the transition answers, until `done`.
    const wait = new Wait(this, 'UntilNextInstant', { time: WaitTime.timestampPath('$.nextAt') });
    const apply = new LambdaInvoke(this, 'ApplyDue', {
      lambdaFunction: fn.get('timer')!,
      payloadResponseOnly: true,
      retryOnServiceExceptions: true,
    });
    apply.addRetry({ errors: ['States.ALL'], interval: Duration.seconds(1), backoffRate: 2, maxAttempts: 4 });
    const loop = wait
      .next(apply)
      .next(
        new Choice(this, 'MoreToDo')
          .when(Condition.isPresent('$.done'), new Succeed(this, 'RoomNeedsNoTimer'))
          .otherwise(wait),
      );
    const timers = new StateMachine(this, 'RoomTimers', {
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromChainable(loop),
      tracingEnabled: true,
      logs: {
        destination: new LogGroup(this, 'TimerLogs', {
          retention: RetentionDays.ONE_MONTH,
          removalPolicy: RemovalPolicy.DESTROY,
        }),
        level: LogLevel.ALL,
      },
    });
    // Whoever changes a room's schedule arms its next timer: a bid and the bot.
    for (const arming of [fn.get('bid')!, fn.get('bot')!]) {
      arming.addEnvironment('ROOM_TIMERS_ARN', timers.stateMachineArn);
      timers.grantStartExecution(arming);
    }

    const bot = fn.get('bot')!;
    if (props.botConcurrency)
      (bot.node.defaultChild as CfnFunction).reservedConcurrentExecutions = props.botConcurrency;
    new ScheduledBot(this, 'RoomBotSchedule', {
      bot: 'room',
      fn: bot,
      schedule: ROOM_BOT_SCHEDULE,
      description: 'Plans rooms of auctions entering active.auction, closes cancelled ones, takes up late timers.',
      alarmTopic: props.alarmTopic,
      deadLetters: new ScheduleDeadLetters(this, 'ScheduleDeadLetters', props.alarmTopic).queue,
    });

    const metric = (metricName: string, statistic: string) =>
      new Metric({
        namespace: TELEMETRY.namespace,
        metricName,
        dimensionsMap: { service: TELEMETRY.service },
        statistic,
        period: Duration.minutes(5),
      });
    alarm(
      this,
      'ResultsNotPosted',
      metric(TELEMETRY.roomResultsPostFailures, 'Sum'),
      3,
      'An ended auction room could not post its results (RoomResultsPostFailures): it retries until they go through.',
      props.alarmTopic,
      { runbook: 'roomResultsNotPosted' },
    );
    alarm(
      this,
      'TransitionsLate',
      metric(TELEMETRY.roomTransitionLateness, 'Maximum'),
      5000,
      'A room stage change was applied 5 s or more after its planned instant (RoomTransitionLateness): bids are still judged by the clock.',
      props.alarmTopic,
      { runbook: 'roomTransitionsLate' },
    );
    alarm(
      this,
      'TimersFailed',
      timers.metricFailed({ period: Duration.minutes(5), statistic: 'Sum' }),
      1,
      'A room timer execution failed after its retries: the room bot takes the room up within a minute.',
      props.alarmTopic,
      { runbook: 'roomTimersFailed' },
    );
    // The WebSocket API itself (AWS/ApiGateway by ApiId and Stage): its Lambdas failing or unreachable, and slow.
    const socketMetric = (metricName: string, statistic: string) =>
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiId: this.api.apiId, Stage: this.stage.stageName },
        statistic,
        period: Duration.minutes(5),
      });
    alarm(
      this,
      'SocketErrors',
      new MathExpression({
        expression: 'integration + execution',
        usingMetrics: {
          integration: socketMetric('IntegrationError', 'Sum'),
          execution: socketMetric('ExecutionError', 'Sum'),
        },
        label: 'IntegrationError + ExecutionError',
        period: Duration.minutes(5),
      }),
      5,
      "The room's WebSocket API failed 5 or more messages or connections in 5 minutes (IntegrationError + ExecutionError).",
      props.alarmTopic,
      { runbook: 'roomSocketErrors' },
    );
    alarm(
      this,
      'SocketLatencyP99',
      socketMetric('IntegrationLatency', 'p99'),
      2000,
      "The room's WebSocket messages took 2 s or more at p99 in their Lambdas for 15 minutes (IntegrationLatency).",
      props.alarmTopic,
      { runbook: 'roomSocketLatency', evaluationPeriods: 3 },
    );

    new CfnOutput(this, 'RoomEventsUrl', {
      value: this.observers.url,
      description: "The observers' broadcast (AppSync Events): subscribe to /rooms/<auction id> with the API key",
    });
    new CfnOutput(this, 'RoomUrl', {
      value: this.socketUrl,
      description: 'The auction room WebSocket endpoint: connect with ?auction_id=<id> (and a bidder link parameters)',
    });
  }
}
