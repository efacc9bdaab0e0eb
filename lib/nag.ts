import { Validations, type App, type IPolicyValidationPluginBeta1, type Stack } from 'aws-cdk-lib';
import { CfnRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnPolicy } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks, rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { routeKey, routes } from '../functions/routes.ts';

/**
 * The cdk-nag (AwsSolutions) findings this app accepts, each on the narrowest construct and finding id that covers
 * it, with the reason. test/infra/nag.test.ts runs the rule pack over the synthesized app: anything new fails `npm test`
 * until it is fixed or acknowledged here with a reason.
 */
// An ARN's partition as cdk-nag writes it: the `AWS::Partition` token, or a literal (`aws`, `aws-cn`, `aws-us-gov`) when
// cdk.json's `@aws-cdk/core:enablePartitionLiterals` is on and the stack's region is known (`-c region`, or the CLI's
// CDK_DEFAULT_REGION). Both are accepted: the same grant, whichever way the template spells it.
const PARTITIONS = ['<AWS::Partition>', 'aws', 'aws-cn', 'aws-us-gov'] as const;
const PARTITION = '(?:<AWS::Partition>|aws(?:-[a-z]+)*)';
const basicExecution = (partition: string) =>
  `AwsSolutions-IAM4[Policy::arn:${partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]`;

const acknowledge = (scope: IConstruct, id: string, reason: string) =>
  Validations.of(scope).acknowledge({ id, reason });

export function acknowledgeNagFindings({
  data,
  api,
  routeStacks,
  bots,
  room,
}: {
  data: Stack;
  api: Stack;
  routeStacks: readonly Stack[];
  bots: Stack;
  room: Stack;
}): void {
  // --- Data
  acknowledge(
    data.node.findChild('Files'),
    'AwsSolutions-S1',
    'Files are reached only through the API (uploads by authenticated brokers, downloads by 5-minute presigned links the route functions issue and log). Server access logs would add a second bucket of unbounded logs for no reader; enable CloudTrail S3 data events when an audit needs object-level access records.',
  );
  acknowledge(
    data.node.findChild('DocserviceKey'),
    'AwsSolutions-SMG4',
    'Signing key of the document service: an automatic rotation would invalidate every signed document URL already stored in lots, assets and auctions at once. It is rotated by hand (new secret version) as a planned operation.',
  );
  acknowledge(
    data.node.findChild('ParticipationKey'),
    'AwsSolutions-SMG4',
    "Keys bidders' participation links (HMAC of auction and bid ids): an automatic rotation would break the links of every running auction. It is rotated by hand between auctions.",
  );

  for (const stack of [api, bots, room]) {
    for (const partition of PARTITIONS)
      acknowledge(
        stack,
        basicExecution(partition),
        'AWSLambdaBasicExecutionRole grants only logs:CreateLogGroup, CreateLogStream and PutLogEvents, which every function needs to write its own log group; a copy as an inline policy would say the same.',
      );
    acknowledge(
      stack,
      'AwsSolutions-IAM5[Resource::*]',
      'The only statement on "*" is xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing): X-Ray does not support resource-level permissions.',
    );
  }
  // --- Schedules' dead letters
  for (const stack of [bots, room]) {
    acknowledge(
      stack.node.findChild('ScheduleDeadLetters'),
      'AwsSolutions-SQS3',
      "This queue is itself the dead-letter queue of the stack's EventBridge Scheduler schedules (an invocation they could not deliver); nothing consumes it, an alarm watches it.",
    );
  }
  acknowledge(
    bots.node.findChild('WebhookChangesPipeDeadLetters'),
    'AwsSolutions-SQS3',
    'This queue is itself the dead-letter queue of the webhook pipe (lib/webhooks.ts: the batches of stream records it gave up on); nothing consumes it, the WebhookPipeDeadLetters alarm watches it.',
  );
  // --- Room
  for (const route of room.node.findAll().filter((c): c is CfnRoute => c instanceof CfnRoute)) {
    acknowledge(
      route,
      'AwsSolutions-APIG4',
      route.routeKey === '$connect'
        ? "$connect authorizes in its own function: an observer needs no credential, a bidder's participation link is verified (Ed25519 or SHA-1 hash, constant time) and a bad one refused with 403."
        : 'A WebSocket API authorizes only at $connect; every message route finds its session (bidder or observer) by the connection id the handshake stored.',
    );
  }
  const filesRole = api.node.tryFindChild('NoneFilesRouteRole');
  if (filesRole) {
    for (const action of ['s3:Abort*', 's3:DeleteObject*', 's3:GetBucket*', 's3:GetObject*', 's3:List*']) {
      acknowledge(
        filesRole,
        `AwsSolutions-IAM5[Action::${action}]`,
        "CDK's grantReadWrite action groups for the document service routes (upload, registered upload, download), limited to the files bucket and its files/ prefix.",
      );
    }
  }
  for (const route of [api, ...routeStacks].flatMap((s) => s.node.findAll()).filter((c) => c instanceof CfnRoute)) {
    const declared = routes.find((r) => routeKey(r) === route.routeKey);
    if (route.routeKey === '$default' || declared?.auth === 'public') {
      acknowledge(
        route,
        'AwsSolutions-APIG4',
        route.routeKey === '$default'
          ? "The $default route only answers 404 in the service's error envelope for paths no route serves."
          : `${route.routeKey} is declared public in functions/routes.ts (API description, docs page, or a file download whose presigned link is the credential). Every other route goes through the API key authorizer.`,
      );
    }
  }
}

/**
 * Wildcard resources whose finding id names a cross-stack export or a logical id (so it changes with the stage and
 * cannot be written down before synthesis; the region and account are tokens, or literals when the stage names them): acknowledged by pattern once references are resolved, each with its reason.
 */
export const RESOURCE_WILDCARDS: readonly { pattern: RegExp; reason: string }[] = [
  {
    pattern: /^Resource::.*:ExportsOutputFnGetAttTable\w+Arn\w+\/index\/\*$/,
    reason:
      "The table grants (read or read/write) cover the table's own global secondary indexes, <table arn>/index/*: the listing feeds (GSI1) and the bots' due work (GSI2) are Queries on them.",
  },
  {
    pattern: /^Resource::.*:ExportsOutputFnGetAttFiles\w+Arn\w+\/files\/\*$/,
    reason:
      'Document files are stored as files/<random id>: the grant is the files/ prefix of the document service bucket and nothing else.',
  },
  {
    pattern: new RegExp(
      `^Resource::arn:${PARTITION}:lambda:(<AWS::Region>|[a-z0-9-]+):(<AWS::AccountId>|\\d{12}):function:[\\w-]+-\\*$`,
    ),
    reason:
      "API Gateway's route invoker role may invoke the functions of its own stack (generated names start with the stack name), one statement instead of a resource-based permission per route function.",
  },
  {
    pattern: new RegExp(
      `^Resource::arn:${PARTITION}:execute-api:(<AWS::Region>|[a-z0-9-]+):(<AWS::AccountId>|\\d{12}):<Room\\w+>/\\*/\\*/@connections/\\*$`,
    ),
    reason:
      "PostToConnection (execute-api:ManageConnections) on the auction room's own WebSocket API: its connections have run-time ids, so the grant is every connection of that one API (CDK's grantManageConnections).",
  },
  {
    pattern: /^Resource::<RoomTransition\w+\.Arn>:\*$/,
    reason:
      "The room timers' state machine may invoke exactly the transition function, versions included (<function arn>:*), as CDK's LambdaInvoke task grants it.",
  },
  {
    pattern: /^Resource::<\w+Bot\w+\.Arn>:\*$/,
    reason:
      "EventBridge Scheduler's role may invoke exactly its bot's function, versions included (<function arn>:*), as CDK's LambdaInvoke target grants it.",
  },
];

/** Acknowledges the RESOURCE_WILDCARDS findings of every IAM policy under `scope` (after references are resolved). */
export function acknowledgeResourceWildcards(scope: IConstruct): void {
  for (const policy of scope.node.findAll().filter((c): c is CfnPolicy => c instanceof CfnPolicy)) {
    const findings = rules.iam.IAMNoWildcardPermissions(policy);
    if (!Array.isArray(findings)) continue;
    for (const finding of findings) {
      const known = RESOURCE_WILDCARDS.find((w) => w.pattern.test(finding));
      if (known) acknowledge(policy, `AwsSolutions-IAM5[${finding}]`, known.reason);
    }
  }
}

/**
 * Runs cdk-nag's AwsSolutions pack on the app at synthesis (`Validations` plugins run after references are resolved):
 * first a plugin that acknowledges the RESOURCE_WILDCARDS findings, then the pack. Used by the tests and by
 * `cdk synth -c nag=true`.
 */
export function addNagChecks(app: App): void {
  const wildcards: IPolicyValidationPluginBeta1 = {
    name: 'AgoraResourceWildcards',
    validate: (context) => {
      acknowledgeResourceWildcards(context.appConstruct);
      return { success: true, violations: [] };
    },
  };
  Validations.of(app).addPlugins(wildcards, new AwsSolutionsChecks(app));
}
