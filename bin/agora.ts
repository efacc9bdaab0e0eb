import { App, Aspects, type IAspect } from 'aws-cdk-lib';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { ApiStack, routesByStack } from '../lib/api-stack.ts';
import { BotsStack } from '../lib/bots-stack.ts';
import { DataStack } from '../lib/data-stack.ts';
import { RoomStack } from '../lib/room-stack.ts';
import { acknowledgeNagFindings, addNagChecks } from '../lib/nag.ts';
import { ParameterError, parameters } from '../lib/parameters.ts';
import { RouteStack } from '../lib/route-stack.ts';
import { securityParameters } from '../lib/security-parameters.ts';
import { bots } from '../functions/bots.ts';

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
  const { stage, throttle, botSchedules, alarmEmail, api5xxThreshold, runtime, corsOrigins } = parameters(
    app.node,
    bots.map((b) => b.name),
  );
  const security = securityParameters(app.node);
  const data = new DataStack(app, `Agora-${stage}-Data`, { alarmEmail });
  const api = new ApiStack(app, `Agora-${stage}-Api`, {
    table: data.table,
    files: data.files,
    docserviceKey: data.docserviceKey,
    participationKey: data.participationKey,
    throttle,
    api5xxThreshold,
    alarmTopic: data.alarmTopic,
    security,
    corsOrigins,
  });
  const room = new RoomStack(app, `Agora-${stage}-Room`, {
    table: data.table,
    participationKey: data.participationKey,
    files: data.files,
    docserviceKey: data.docserviceKey,
    alarmTopic: data.alarmTopic,
  });
  const routeStacks = [...routesByStack()].map(
    ([family, routes]) =>
      new RouteStack(app, `${api.stackName}-${family}`, { api, routes, roomSocket: room.socketUrl }),
  );
  const botsStack = new BotsStack(app, `Agora-${stage}-Bots`, {
    table: data.table,
    participationKey: data.participationKey,
    schedules: botSchedules,
    alarmTopic: data.alarmTopic,
    botConcurrency: security.botConcurrency,
  });
  Aspects.of(app).add(
    new RuntimeSettings({ AGORA_AUCTION_SITE: runtime.auctionSite ?? api.publicUrl, AGORA_CALENDAR: runtime.calendar }),
  );
  acknowledgeNagFindings({ data, api, routeStacks, bots: botsStack, room });
  if (String(app.node.tryGetContext('nag')) === 'true') addNagChecks(app);
  return { app, data, api, routeStacks, bots: botsStack, room };
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
