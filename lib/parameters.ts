import type { Node } from 'constructs';

/**
 * The deployment's parameters, read from CDK context (`cdk deploy -c key=value`, or `context` in cdk.json), each with
 * a default that deploys as is. See README "Deploying".
 *
 * | context          | default                   | meaning                                                              |
 * |------------------|---------------------------|----------------------------------------------------------------------|
 * | `stage`          | `dev`                     | stack names `Agora-<stage>-Data|Api|Api-*|Bots`; several stages per account |
 * | `throttleRate`   | `100`                     | API steady-state requests per second (the stage's default route)     |
 * | `throttleBurst`  | `200`                     | API burst (token bucket size)                                        |
 * | `botSchedules`   | bots.ts (`rate(1 minute)`)| per-bot EventBridge Scheduler expression, JSON: `{"convoy":"rate(5 minutes)"}` |
 * | `alarmEmail`     | none                      | an address subscribed to the alarm topic (confirm the mail AWS sends) |
 * | `api5xxThreshold`| `5`                       | API 5xx answers in 5 minutes that raise the 5xx alarm                |
 * | `auctionSite`    | the API's public URL      | the room page's base: `auctionUrl` and participation links (AGORA_AUCTION_SITE) |
 * | `calendar`       | `martial-law`             | working-day calendar: `martial-law` or `peacetime` (AGORA_CALENDAR)   |
 * | `corsOrigins`    | none                      | browser origins allowed by CORS, comma-separated or JSON array; `*` for any |
 * | `budgetUsd`      | none (no budget)          | a monthly cost budget in USD notifying the alarm topic (OpsStack)    |
 * | `account`/`region` | the CLI's (CDK_DEFAULT_*) | where the stacks deploy; `stage=prod` refuses to synthesize without both |
 */
export interface Parameters {
  stage: string;
  throttle: { rateLimit: number; burstLimit: number };
  botSchedules: Record<string, string>;
  alarmEmail?: string;
  api5xxThreshold: number;
  /**
   * The functions' run-time settings: AGORA_AUCTION_SITE, AGORA_CALENDAR. `auctionSite` absent: the HTTP API's public
   * URL (`publicBaseUrl`, else its endpoint), which serves the room page (bin/agora.ts).
   */
  runtime: { auctionSite?: string; calendar: 'martial-law' | 'peacetime' };
  /** CORS origins of the HTTP API; empty: no CORS. */
  corsOrigins: string[];
  /** A monthly cost budget (USD), notifying the alarm topic; none: no budget. */
  budgetUsd?: number;
  /** The account and region the stacks are for: context, else the CLI's credentials (CDK_DEFAULT_*); unknown: undefined. */
  env: { account?: string; region?: string };
  /** Stacks refuse deletion (`stage` is `prod`). */
  terminationProtection: boolean;
}

export const DEFAULTS = {
  stage: 'dev',
  throttleRate: 100,
  throttleBurst: 200,
  api5xxThreshold: 5,
  calendar: 'martial-law',
} as const;

const CALENDARS = ['martial-law', 'peacetime'] as const;

/** `a,b` or `["a","b"]`: each an origin (`https://host[:port]`, no path) or `*`. */
function origins(value: unknown): string[] {
  if (value === undefined || value === '') return [];
  let list: unknown = value;
  if (typeof value === 'string')
    list = value.trim().startsWith('[') ? JSON.parse(value) : value.split(',').map((o) => o.trim());
  if (
    !Array.isArray(list) ||
    !list.every((o) => typeof o === 'string' && (o === '*' || /^https?:\/\/[^/\s]+$/.test(o)))
  ) {
    throw new ParameterError(
      `context corsOrigins: expected origins like https://app.example.org (comma-separated or a JSON array) or *, got ${JSON.stringify(value)}`,
    );
  }
  return list as string[];
}

/** A wrong context value: `cdk synth` prints its message alone (bin/agora.ts), no stack trace. */
export class ParameterError extends Error {
  override name = 'ParameterError';
}

/** Raw context values, and numbers checked against a minimum (a wrong one stops the synth, naming the key). */
export function contextReader(node: Node) {
  const raw = (key: string) => node.tryGetContext(key) as unknown;
  const number = (key: string, fallback: number, min: number): number => {
    const value = raw(key);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n < min)
      throw new ParameterError(`context ${key}: expected a number >= ${min}, got ${JSON.stringify(value)}`);
    return n;
  };
  return { raw, number };
}

const SCHEDULE = /^(rate\(\d+ (minute|minutes|hour|hours|day|days)\)|cron\(.+\)|at\(.+\))$/;

/** Reads and checks the context; a wrong value stops the synth with a message naming the parameter. */
export function parameters(node: Node, botNames: readonly string[]): Parameters {
  const { raw, number } = contextReader(node);
  const stage = String(raw('stage') ?? DEFAULTS.stage);
  if (!/^[A-Za-z][A-Za-z0-9-]{0,30}$/.test(stage))
    throw new ParameterError(
      `context stage: letters, digits and dashes, starting with a letter; got ${JSON.stringify(stage)}`,
    );
  let schedules = raw('botSchedules') ?? {};
  if (typeof schedules === 'string') {
    try {
      schedules = JSON.parse(schedules);
    } catch {
      throw new ParameterError(
        `context botSchedules: expected JSON like {"convoy":"rate(5 minutes)"}, got ${schedules}`,
      );
    }
  }
  if (typeof schedules !== 'object' || schedules === null || Array.isArray(schedules))
    throw new ParameterError('context botSchedules: expected an object of bot name to schedule expression');
  for (const [bot, expression] of Object.entries(schedules)) {
    if (!botNames.includes(bot))
      throw new ParameterError(`context botSchedules: unknown bot ${bot}; known: ${botNames.join(', ')}`);
    if (typeof expression !== 'string' || !SCHEDULE.test(expression))
      throw new ParameterError(
        `context botSchedules.${bot}: not a schedule expression (rate(...), cron(...)): ${JSON.stringify(expression)}`,
      );
  }
  const rateLimit = number('throttleRate', DEFAULTS.throttleRate, 1);
  const burstLimit = number('throttleBurst', DEFAULTS.throttleBurst, 1);
  const alarmEmail = raw('alarmEmail');
  if (alarmEmail !== undefined && (typeof alarmEmail !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(alarmEmail)))
    throw new ParameterError(`context alarmEmail: not an address: ${JSON.stringify(alarmEmail)}`);
  const auctionSite = raw('auctionSite') === undefined ? undefined : String(raw('auctionSite'));
  if (auctionSite !== undefined && !/^https?:\/\/[^\s]+[^/\s]$/.test(auctionSite))
    throw new ParameterError(
      `context auctionSite: expected an http(s) URL without a trailing slash, got ${JSON.stringify(auctionSite)}`,
    );
  const calendar = String(raw('calendar') ?? DEFAULTS.calendar);
  if (!(CALENDARS as readonly string[]).includes(calendar))
    throw new ParameterError(`context calendar: ${CALENDARS.join(' or ')}, got ${JSON.stringify(calendar)}`);
  let corsOrigins: string[];
  try {
    corsOrigins = origins(raw('corsOrigins'));
  } catch (error) {
    throw new ParameterError(
      error instanceof SyntaxError
        ? `context corsOrigins: not JSON: ${String(raw('corsOrigins'))}`
        : (error as Error).message,
    );
  }
  const budgetUsd = raw('budgetUsd') === undefined ? undefined : number('budgetUsd', 0, 1);
  const account = String(raw('account') ?? process.env.CDK_DEFAULT_ACCOUNT ?? '') || undefined;
  const region = String(raw('region') ?? process.env.CDK_DEFAULT_REGION ?? '') || undefined;
  if (account !== undefined && !/^\d{12}$/.test(account))
    throw new ParameterError(`context account: expected a 12-digit AWS account id, got ${JSON.stringify(account)}`);
  if (region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region))
    throw new ParameterError(`context region: expected a region like eu-central-1, got ${JSON.stringify(region)}`);
  const terminationProtection = stage === 'prod';
  if (terminationProtection && (!account || !region))
    throw new ParameterError(
      'stage prod: the account and region must be known (AWS_PROFILE with credentials and a region, or -c account=<12 digits> -c region=<region>)',
    );
  return {
    budgetUsd,
    env: { account, region },
    terminationProtection,
    runtime: { auctionSite, calendar: calendar as Parameters['runtime']['calendar'] },
    corsOrigins,
    stage,
    throttle: { rateLimit, burstLimit: Math.round(burstLimit) },
    botSchedules: schedules as Record<string, string>,
    alarmEmail: alarmEmail as string | undefined,
    api5xxThreshold: number('api5xxThreshold', DEFAULTS.api5xxThreshold, 1),
  };
}
