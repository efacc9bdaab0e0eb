import { readFileSync } from 'node:fs';
import { isAlive as alive } from '../lib/local/preflight.ts';

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

/**
 * Points TABLE_NAME (and DYNAMODB_ENDPOINT) at the running `npm start`'s table unless TABLE_NAME is set. Returns an
 * error text when there is no table to work on.
 */
export function useTable(): string | undefined {
  if (process.env.TABLE_NAME) return undefined;
  const local = runningService();
  if (!local) {
    return 'No table: start `npm start` first (it writes .agora/local.json), or set TABLE_NAME (and DYNAMODB_ENDPOINT for a local DynamoDB, AWS_PROFILE/AWS_REGION for a deployed table).';
  }
  process.env.DYNAMODB_ENDPOINT ??= local.endpoint;
  process.env.TABLE_NAME = local.table;
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
