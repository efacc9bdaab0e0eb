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
 * | `apiDomain`      | none (the execute-api host) | the HTTP API's own domain (`api.example.org`): links, the room page, participation links |
 * | `roomDomain`     | none (the execute-api host) | the room's WebSocket domain (`room.example.org`): the page connects to `wss://<roomDomain>` |
 * | `certificateArn` | none                      | the ACM certificate (the stacks' region) of both domains; required with either |
 * | `roomCertificateArn` | `certificateArn`      | another certificate for `roomDomain`                                  |
 * | `hostedZoneId`, `hostedZoneName` | none      | a Route 53 zone holding the domains: alias records made in it (else make the DNS records yourself) |
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
  /** Custom domains of the HTTP API and of the room's WebSocket API (none: their execute-api hosts). */
  domains: { api?: DomainParameters; room?: DomainParameters };
}

/** One API's custom domain: its name, its certificate and, when Route 53 holds it, the zone for its alias record. */
export interface DomainParameters {
  domainName: string;
  certificateArn: string;
  hostedZone?: { id: string; name: string };
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE = /^arn:aws[a-z-]*:acm:([a-z]{2}(-[a-z]+)+-\d):(\d{12}):certificate\/[0-9a-f-]{36}$/;

/** `apiDomain`, `roomDomain`, their certificate(s) and the optional hosted zone, checked together. */
function domainParameters(raw: (key: string) => unknown, region: string | undefined): Parameters['domains'] {
  const text = (key: string) => (raw(key) === undefined || raw(key) === '' ? undefined : String(raw(key)));
  const [api, room] = [text('apiDomain'), text('roomDomain')];
  for (const [key, name] of [
    ['apiDomain', api],
    ['roomDomain', room],
  ] as const)
    if (name !== undefined && !DOMAIN.test(name))
      throw new ParameterError(
        `context ${key}: expected a lower-case host name like ${key === 'apiDomain' ? 'api' : 'room'}.example.org (no scheme, no path), got ${JSON.stringify(name)}`,
      );
  const certificate = text('certificateArn');
  const roomCertificate = text('roomCertificateArn') ?? certificate;
  const [zoneId, zoneName] = [text('hostedZoneId'), text('hostedZoneName')?.replace(/\.$/, '')];
  if (!api && !room) {
    const stray = ['certificateArn', 'roomCertificateArn', 'hostedZoneId', 'hostedZoneName'].find((k) => text(k));
    if (stray) throw new ParameterError(`context ${stray}: given without apiDomain or roomDomain, which it is for`);
    return {};
  }
  for (const [key, name, arn] of [
    ['certificateArn', api, certificate],
    [text('roomCertificateArn') ? 'roomCertificateArn' : 'certificateArn', room, roomCertificate],
  ] as const) {
    if (!name) continue;
    if (!arn)
      throw new ParameterError(
        `context certificateArn: ${name} needs an ACM certificate covering it, in the stacks' region (-c certificateArn=arn:aws:acm:<region>:<account>:certificate/<id>)`,
      );
    const match = CERTIFICATE.exec(arn);
    if (!match)
      throw new ParameterError(
        `context ${key}: expected an ACM certificate ARN (arn:aws:acm:<region>:<account>:certificate/<uuid>), got ${JSON.stringify(arn)}`,
      );
    if (region && match[1] !== region)
      throw new ParameterError(
        `context ${key}: the certificate is in ${match[1]}, the stacks in ${region}: a regional API Gateway domain takes a certificate of its own region`,
      );
  }
  if ((zoneId === undefined) !== (zoneName === undefined))
    throw new ParameterError(
      'context hostedZoneId and hostedZoneName: give both (the Route 53 zone of the domains) or neither',
    );
  if (zoneId !== undefined && !/^Z[A-Z0-9]{1,32}$/.test(zoneId))
    throw new ParameterError(
      `context hostedZoneId: expected a Route 53 zone id like Z0123456789ABC, got ${JSON.stringify(zoneId)}`,
    );
  const hostedZone = zoneId && zoneName ? { id: zoneId, name: zoneName } : undefined;
  for (const name of [api, room])
    if (hostedZone && name && name !== hostedZone.name && !name.endsWith(`.${hostedZone.name}`))
      throw new ParameterError(`context hostedZoneName: ${name} is not in the zone ${hostedZone.name}`);
  if (api && api === room)
    throw new ParameterError('context roomDomain: the room needs a domain of its own (a WebSocket API), not apiDomain');
  const of = (domainName: string, certificateArn: string): DomainParameters => ({
    domainName,
    certificateArn,
    ...(hostedZone && { hostedZone }),
  });
  return { ...(api && { api: of(api, certificate!) }), ...(room && { room: of(room, roomCertificate!) }) };
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
  const domains = domainParameters(raw, region);
  return {
    domains,
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
