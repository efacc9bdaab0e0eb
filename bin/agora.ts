import { App } from 'aws-cdk-lib';
import { ApiStack } from '../lib/api-stack.ts';
import { BotsStack } from '../lib/bots-stack.ts';
import { DataStack } from '../lib/data-stack.ts';

/** The CDK app: DataStack (the table) -> ApiStack (routes) and BotsStack (schedules), both given the table. */
export function buildApp(app = new App()) {
  const stage = app.node.tryGetContext('stage') ?? 'dev';
  const data = new DataStack(app, `Agora-${stage}-Data`);
  const api = new ApiStack(app, `Agora-${stage}-Api`, { table: data.table, files: data.files, docserviceKey: data.docserviceKey });
  const botsStack = new BotsStack(app, `Agora-${stage}-Bots`, { table: data.table, participationKey: data.participationKey });
  return { app, data, api, bots: botsStack };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) buildApp().app.synth();
