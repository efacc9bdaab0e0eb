import { readFileSync } from 'node:fs';
import { isAlive as alive } from '../lib/local/preflight.ts';
import { resetConfig } from '../functions/platform/config.ts';

/**
 * How the CLIs find the service: `npm start` writes `.agora/local.json` (its URL, its DynamoDB Local endpoint and
 * table, its pid); `AGORA_URL` overrides the URL, `TABLE_NAME` (+ `DYNAMODB_ENDPOINT`) the table. One way for all.
 */
export const LOCAL_FILE = '.agora/local.json';
export const DEFAULT_PORT = 6543;

export interface LocalService {
  url: string;
  endpoint: string;
  table: string;
  pid?: number;
}

/** What the running `npm start` wrote, if it still runs. */
export function runningService(file = LOCAL_FILE): LocalService | undefined {
  try {
    const local = JSON.parse(readFileSync(file, 'utf8')) as LocalService;
    if (local.pid !== undefined && !alive(local.pid)) return undefined;
    return local;
  } catch {
    return undefined;
  }
}

/** The service's base URL: AGORA_URL, else the running `npm start`'s, else the default port. */
export function serviceUrl(): string {
  return (process.env.AGORA_URL ?? runningService()?.url ?? `http://127.0.0.1:${DEFAULT_PORT}`).replace(/\/+$/, '');
}

/** `--table <name>` and `--stack <stack>` anywhere among a CLI's arguments: the deployed table to work on. */
export function tableOptions(argv: string[]): { args: string[]; table?: string; stack?: string; problem?: string } {
  const args: string[] = [];
  const options: { table?: string; stack?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const option = /^--(table|stack)$/.exec(argv[i])?.[1] as 'table' | 'stack' | undefined;
    if (!option) {
      args.push(argv[i]);
      continue;
    }
    const value = argv[++i];
    if (!value || value.startsWith('-')) return { args, problem: `--${option} needs a value` };
    options[option] = value;
  }
  if (options.table && options.stack) return { args, problem: 'either --table or --stack, not both' };
  return { args, ...options };
}

/** The `TableName` output of a deployed stack (the data stack's), through CloudFormation. */
export async function stackTable(stack: string): Promise<string | { problem: string }> {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const cloudFormation = new CloudFormationClient({});
  try {
    const out = await cloudFormation.send(new DescribeStacksCommand({ StackName: stack }));
    const table = out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === 'TableName')?.OutputValue;
    return table ?? { problem: `stack ${stack} has no TableName output: name the data stack (Agora-<stage>-Data)` };
  } catch (error) {
    const e = error as Error;
    // A stack is per region: the one asked is named, since a wrong AWS_REGION (or profile region) is the usual cause.
    if (/does not exist/.test(e.message))
      return { problem: `no stack ${stack} in this account in region ${await cloudFormation.config.region()}` };
    if (e.name === 'CredentialsProviderError' || /credential|region/i.test(e.message))
      return { problem: `stack ${stack}: no AWS credentials or region (set AWS_PROFILE and AWS_REGION)` };
    return { problem: `stack ${stack}: ${e.name}: ${e.message}` };
  }
}

/**
 * Points TABLE_NAME (and DYNAMODB_ENDPOINT) at the table to work on: `--table`, else `--stack`'s, else TABLE_NAME,
 * else the running `npm start`'s. A named table is in AWS unless DYNAMODB_ENDPOINT says where a local one is.
 * Returns an error text when there is no table to work on.
 */
export async function useTable(deployed: { table?: string; stack?: string } = {}): Promise<string | undefined> {
  const table = deployed.stack ? await stackTable(deployed.stack) : deployed.table;
  if (typeof table === 'object') return table.problem;
  if (table) {
    process.env.TABLE_NAME = table;
    return pointed();
  }
  if (process.env.TABLE_NAME) return pointed();
  const local = runningService();
  if (!local) {
    return 'No table: start `npm start` first (it writes .agora/local.json), or name one: --stack <data stack> or --table <name> for a deployed table (AWS_PROFILE, AWS_REGION), TABLE_NAME and DYNAMODB_ENDPOINT for a local one.';
  }
  process.env.DYNAMODB_ENDPOINT ??= local.endpoint;
  process.env.TABLE_NAME = local.table;
  return pointed();
}

/**
 * The environment now names the table: the configuration is read again at its next use. A CLI's imports may have
 * read it already (the logger reads its level when its module loads), before the table was chosen.
 */
function pointed(): undefined {
  resetConfig();
  return undefined;
}

/** Where the CLI works, for its messages. */
export const tableDescription = () =>
  process.env.DYNAMODB_ENDPOINT
    ? `local table ${process.env.TABLE_NAME} at ${process.env.DYNAMODB_ENDPOINT}`
    : `table ${process.env.TABLE_NAME}${process.env.AWS_PROFILE ? ` (profile ${process.env.AWS_PROFILE})` : ''}`;

/** One line for a failed table call: the usual causes by name, never a stack. */
export function tableFailure(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  const where = tableDescription();
  if (e.name === 'ResourceNotFoundException')
    return `${where}: no such table (is \`npm start\` running, or is TABLE_NAME the deployed table's name?)`;
  if (/ECONNREFUSED|fetch failed/.test(`${e.message} ${String(e.cause)}`) || e.name === 'TimeoutError') {
    return `${where}: nothing answers (start \`npm start\` first, or set TABLE_NAME to the deployed table)`;
  }
  if (e.name === 'CredentialsProviderError' || /credential/i.test(e.message))
    return `${where}: no AWS credentials (set AWS_PROFILE, or the AWS_* variables)`;
  return `${where}: ${e.name}: ${e.message}`;
}
