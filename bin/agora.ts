import { App } from 'aws-cdk-lib';
import { ApiStack } from '../lib/api-stack.ts';
import { BotsStack } from '../lib/bots-stack.ts';
import { DataStack } from '../lib/data-stack.ts';
import { acknowledgeNagFindings, addNagChecks } from '../lib/nag.ts';
import { parameters } from '../lib/parameters.ts';
import { securityParameters } from '../lib/security-parameters.ts';
import { bots } from '../functions/bots.ts';

/**
 * The CDK app: DataStack (the table, files, secrets, alarm topic) -> ApiStack (routes) and BotsStack (schedules),
 * both given the table. Parameters from context (lib/parameters.ts); the cdk-nag findings accepted, with their
 * reasons, in lib/nag.ts (checked by test/infra/nag.test.ts).
 */
export function buildApp(app = new App()) {
  const { stage, throttle, botSchedules, alarmEmail, api5xxThreshold } = parameters(app.node, bots.map((b) => b.name));
  const security = securityParameters(app.node);
  const data = new DataStack(app, `Agora-${stage}-Data`, { alarmEmail });
  const api = new ApiStack(app, `Agora-${stage}-Api`, {
    table: data.table, files: data.files, docserviceKey: data.docserviceKey, participationKey: data.participationKey, throttle, api5xxThreshold, alarmTopic: data.alarmTopic, security,
  });
  const botsStack = new BotsStack(app, `Agora-${stage}-Bots`, {
    table: data.table, participationKey: data.participationKey, schedules: botSchedules, alarmTopic: data.alarmTopic, botConcurrency: security.botConcurrency,
  });
  acknowledgeNagFindings({ data, api, bots: botsStack });
  if (String(app.node.tryGetContext('nag')) === 'true') addNagChecks(app);
  return { app, data, api, bots: botsStack };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) buildApp().app.synth();
