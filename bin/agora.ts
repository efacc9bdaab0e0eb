import { Annotations, App, Aspects, type IAspect, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { ApiStack, routesByStack } from '../lib/api-stack.ts';
import { BotsStack } from '../lib/bots-stack.ts';
import { DataStack } from '../lib/data-stack.ts';
import { OpsStack } from '../lib/ops-stack.ts';
import { RoomStack } from '../lib/room-stack.ts';
import { acknowledgeNagFindings, addNagChecks } from '../lib/nag.ts';
import { ParameterError, parameters } from '../lib/parameters.ts';
import { RouteStack } from '../lib/route-stack.ts';
import { securityParameters } from '../lib/security-parameters.ts';
import { bots } from '../functions/bots.ts';
import { roomLambdas } from '../functions/room/lambdas.ts';

/** The deployment's run-time settings (context `auctionSite`, `calendar`) in every function's environment. */
class RuntimeSettings implements IAspect {
  constructor(private readonly environment: Record<string, string>) {}
  visit(node: IConstruct) {
    if (node instanceof LambdaFunction)
      for (const [key, value] of Object.entries(this.environment)) node.addEnvironment(key, value);
  }
}

/**
 * The CDK app, in its deploy order: DataStack (the table, files, secrets, alarm topic) -> ApiStack (the HTTP API, its
 * authorizer, alarms and outputs) -> RoomStack (the auction room's WebSocket API, timers, its bot) -> one RouteStack
 * per family of routes (their functions) and BotsStack (schedules). The room page is served by the HTTP API and its
 * WebSocket by the room, on two hosts: every link (`auctionUrl`, participation links: AGORA_AUCTION_SITE) leads to
 * the HTTP API's public URL unless the `auctionSite` context says otherwise, and the room page's route stack is given
 * the room's WebSocket URL (AGORA_ROOM_SOCKET). So the room needs the API (for links), the routes need both, and the
 * API needs neither: no cycle. Parameters from context (lib/parameters.ts); the cdk-nag findings accepted, with their
 * reasons, in lib/nag.ts (checked by test/infra/nag.test.ts).
 */
export function buildApp(app = new App()) {
  const {
    stage,
    throttle,
    botSchedules,
    alarmEmail,
    api5xxThreshold,
    runtime,
    corsOrigins,
    budgetUsd,
    env,
    terminationProtection,
    domains,
  } = parameters(
    app.node,
    bots.map((b) => b.name),
  );
  const security = securityParameters(app.node);
  // Every stack: the stage's account and region, protected from deletion in prod, and a description saying what it holds.
  const stack = (description: string): StackProps => ({
    env,
    terminationProtection,
    description: `Agora ${stage}: ${description}`,
  });
  const data = new DataStack(app, `Agora-${stage}-Data`, {
    ...stack('the table, the document files, the generated secrets and the alarm topic (all retained)'),
    alarmEmail,
    budgetNotifications: budgetUsd !== undefined,
  });
  const api = new ApiStack(app, `Agora-${stage}-Api`, {
    ...stack('the HTTP API, its authorizer, throttling, access logs and alarms'),
    table: data.table,
    files: data.files,
    docserviceKey: data.docserviceKey,
    participationKey: data.participationKey,
    throttle,
    api5xxThreshold,
    alarmTopic: data.alarmTopic,
    security,
    corsOrigins,
    domain: domains.api,
  });
  const room = new RoomStack(app, `Agora-${stage}-Room`, {
    ...stack('the auction room: its WebSocket API, one Lambda per message, its timers and its bot'),
    table: data.table,
    participationKey: data.participationKey,
    files: data.files,
    docserviceKey: data.docserviceKey,
    alarmTopic: data.alarmTopic,
    botConcurrency: security.botConcurrency,
    publicUrl: api.publicUrl,
    domain: domains.room,
  });
  const routeStacks = [...routesByStack()].map(
    ([family, routes]) =>
      new RouteStack(app, `${api.stackName}-${family}`, {
        ...stack(`the ${family} routes' functions and API routes (${routes.length})`),
        api,
        routes,
        roomSocket: room.socketUrl,
        roomEvents: room.observers,
      }),
  );
  const botsStack = new BotsStack(app, `Agora-${stage}-Bots`, {
    ...stack('the scheduled bots, their dead-letter queue and alarms, and the migrations Lambda'),
    table: data.table,
    participationKey: data.participationKey,
    schedules: botSchedules,
    alarmTopic: data.alarmTopic,
    botConcurrency: security.botConcurrency,
  });
  const ops = new OpsStack(app, `Agora-${stage}-Ops`, {
    ...stack('the dashboard, the account-wide alarms and the optional budget'),
    stage,
    api: api.api,
    room: { api: room.api, stageName: room.stage.stageName },
    table: data.table,
    alarmTopic: data.alarmTopic,
    botNames: [...bots.map((b) => b.name), ...roomLambdas.filter((l) => l.kind === 'bot').map(() => 'room')],
    budgetUsd,
  });
  Tags.of(app).add('agora:app', 'agora');
  Tags.of(app).add('agora:stage', stage);
  for (const made of app.node.children.filter((c): c is Stack => c instanceof Stack)) {
    Tags.of(made).add('agora:stack', made.stackName);
    // cdk.json's `@aws-cdk/core:explicitStackTags` keeps Tags.of() off the stacks themselves: tagged here, so that
    // `cdk deploy` tags each CloudFormation stack as well as its resources.
    for (const [key, value] of Object.entries({
      'agora:app': 'agora',
      'agora:stage': stage,
      'agora:stack': made.stackName,
    }))
      made.tags.setTag(key, value);
  }
  // Synthesized for whichever account and region deploys it: said once, on the first stack (prod refuses instead).
  if (!env.account || !env.region)
    Annotations.of(data).addWarningV2(
      'agora:env-unknown',
      'No account or region known (no credentials, no -c account/region): every template is environment-agnostic.',
    );
  Aspects.of(app).add(
    new RuntimeSettings({ AGORA_AUCTION_SITE: runtime.auctionSite ?? api.publicUrl, AGORA_CALENDAR: runtime.calendar }),
  );
  acknowledgeNagFindings({ data, api, routeStacks, bots: botsStack, room });
  if (String(app.node.tryGetContext('nag')) === 'true') addNagChecks(app);
  return { app, data, api, routeStacks, bots: botsStack, room, ops };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  try {
    buildApp().app.synth();
  } catch (error) {
    // A wrong `-c name=value` is the operator's to fix: one line naming it, not a Node stack trace.
    if (!(error instanceof ParameterError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
