import type { CalendarMode } from '#domain/calendar/working-days.ts';

/**
 * The service's configuration: the one place in functions/ that reads the environment. Read once per process on first
 * use (tests choose TABLE_NAME per file before the first request) and passed down as values; the domain never sees it.
 *
 * The local runtime (the gateway of `npm start` and the tests, never AWS) has its own knobs (clock offset, public and
 * docservice URLs, injected faults), set through `startLocalRuntime`/`setLocal`, not through the environment.
 */
export interface Config {
  /** The DynamoDB table (absent only in processes that never touch the store). */
  tableName?: string;
  /** DynamoDB Local's endpoint; unset in AWS. */
  dynamodbEndpoint?: string;
  /** AWS_REGION as the Lambda runtime gives it (unset locally). */
  awsRegion?: string;
  /** Running inside AWS Lambda. */
  inLambda: boolean;
  /** The local runtime (gateway, tests, `AGORA_LOCAL=1`): dev secrets allowed. */
  local: boolean;
  logLevel: LogLevel;
  /** Publish CloudWatch EMF metrics (in Lambda unless AGORA_METRICS=0; locally with AGORA_METRICS=1). */
  metrics: boolean;
  /** The working-day calendar (AGORA_CALENDAR). */
  calendar: CalendarMode;
  /** Base URL of the auction module (auctionUrl, participation links). */
  auctionSite: string;
  /** Public base URL of links; else the domain API Gateway received the request on. */
  publicUrl?: string;
  /**
   * The auction room's WebSocket URL the room page connects to (AGORA_ROOM_SOCKET: in AWS the room stack's stage,
   * `wss://<id>.execute-api.<region>.amazonaws.com/live`, another host than the page's); unset: the page's own host's
   * `/room`, as the local gateway serves it.
   */
  roomSocket?: string;
  /**
   * The observers' broadcast the room page hands its observers (AGORA_ROOM_EVENTS, set by CDK on the page's Lambda:
   * the Event API's real-time URL, the HTTP domain its authorization names and the API key, space-separated). Checked
   * where the page reads it (room-page/http.ts `observersOf`): one variable, so that no other bundle grows by more.
   */
  observers?: string;
  /** Base URL signed file URLs carry; else `<public base>/api/docservice`. */
  docserviceUrl?: string;
  /** The per-key limit of the authorizer, or none. */
  keyRate?: { rate: number; burst: number };
  /**
   * The limit per source address of callers without a known key: requests with an unknown key (each costs a key
   * lookup), reads without a known key and the public health check. AGORA_ADDRESS_RATE / AGORA_ADDRESS_BURST; on by default in Lambda (1 per
   * second, a burst of 10), off locally unless set; `0` turns it off.
   */
  addressRate?: { rate: number; burst: number };
  /**
   * Reads of public data need a key too (AGORA_READS_NEED_KEY=1; CDK context `readsNeedKey`): by default anyone may
   * read them, as the originals let anyone, a caller without a known key limited per source address (`addressRate`).
   */
  readsNeedKey: boolean;
  participationSecretArn?: string;
  participationSecret?: string;
  /** The auction room's WebSocket API management endpoint (PostToConnection), in AWS. */
  roomCallbackUrl?: string;
  /** The state machine that times the auction rooms (Step Functions), in AWS. */
  roomTimersArn?: string;
  /** The observers' broadcast: the AppSync Events API's HTTP domain (publish: POST /event, SigV4), in AWS. */
  roomEventsHost?: string;
  docserviceSecretArn?: string;
  /** 64 hex: the local document service seed. */
  docserviceSeed?: string;
  filesBucket?: string;
  filesDir: string;
  /** Fault injection (JSON) of the store client, outside Lambda only. */
  faults: string;
  secretsExtensionPort: string;
  awsSessionToken: string;
  xrayDaemonAddress?: string;
  /** How long a webhook receiver has to answer (AGORA_WEBHOOK_TIMEOUT_MS; 15 s, the Standard Webhooks advice). */
  webhookTimeoutMs: number;
  /** How long a first attempt waits at most before its delivery is left to its queue (AGORA_WEBHOOK_FIRST_ATTEMPT_MS; 2 s). */
  webhookFirstAttemptMs: number;
}

export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT' | 'CRITICAL';
const LEVELS: readonly string[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT', 'CRITICAL'];

type Env = Record<string, string | undefined>;

const nonEmpty = (value: string | undefined): string | undefined => (value ? value : undefined);

function rateLimit(rateSetting: string | undefined, burstSetting: string | undefined): Config['keyRate'] {
  const rate = Number(rateSetting);
  if (!Number.isFinite(rate) || rate <= 0) return undefined;
  const burst = Number(burstSetting);
  return { rate, burst: Number.isFinite(burst) && burst >= 1 ? Math.floor(burst) : Math.max(1, Math.ceil(rate * 2)) };
}

const keyRate = (env: Env) => rateLimit(env.AGORA_KEY_RATE, env.AGORA_KEY_BURST);

function addressRate(env: Env, inLambda: boolean): Config['addressRate'] {
  if (env.AGORA_ADDRESS_RATE === undefined || env.AGORA_ADDRESS_RATE === '')
    return inLambda ? { rate: 1, burst: Number(env.AGORA_ADDRESS_BURST) || 10 } : undefined;
  return rateLimit(env.AGORA_ADDRESS_RATE, env.AGORA_ADDRESS_BURST);
}

/** Reads the `AGORA_CALENDAR` setting; unset means `martial-law`, anything unknown is a configuration error. */
export function calendarMode(setting: string | undefined): CalendarMode {
  if (setting === undefined || setting === '' || setting === 'martial-law') return 'martial-law';
  if (setting === 'peacetime') return 'peacetime';
  throw new Error(`AGORA_CALENDAR must be "martial-law" or "peacetime", got ${JSON.stringify(setting)}`);
}

/** Reads `AGORA_ROOM_SOCKET`: a ws(s) URL without query or fragment, or unset; anything else is a configuration error. */
export function roomSocket(setting: string | undefined): string | undefined {
  if (!setting) return undefined;
  const url = URL.canParse(setting) ? new URL(setting) : undefined;
  if (!url || !['ws:', 'wss:'].includes(url.protocol) || url.search || url.hash || url.username || url.password)
    throw new Error(`AGORA_ROOM_SOCKET must be a ws:// or wss:// URL without query, got ${JSON.stringify(setting)}`);
  return url.href;
}

/** Builds and checks a configuration from an environment (pure: the tests build their own). */
export function readConfig(env: Env): Config {
  const inLambda = !!env.AWS_LAMBDA_FUNCTION_NAME;
  // AWS_LAMBDA_LOG_LEVEL: the function's application log level (CDK); Lambda's FATAL is our CRITICAL.
  const level = (env.AGORA_LOG_LEVEL ?? env.AWS_LAMBDA_LOG_LEVEL ?? (env.VITEST ? 'WARN' : 'INFO'))
    .toUpperCase()
    .replace(/^FATAL$/, 'CRITICAL');
  const seed = nonEmpty(env.AGORA_DOCSERVICE_SEED);
  if (seed !== undefined && !/^[0-9a-f]{64}$/i.test(seed))
    throw new Error('AGORA_DOCSERVICE_SEED must be 64 hex digits');
  return {
    tableName: nonEmpty(env.TABLE_NAME),
    dynamodbEndpoint: nonEmpty(env.DYNAMODB_ENDPOINT),
    awsRegion: nonEmpty(env.AWS_REGION),
    inLambda,
    local: env.AGORA_LOCAL === '1',
    logLevel: (LEVELS.includes(level) ? level : 'INFO') as LogLevel,
    metrics: env.AGORA_METRICS === '1' || (env.AGORA_METRICS !== '0' && inLambda),
    calendar: calendarMode(env.AGORA_CALENDAR),
    auctionSite: env.AGORA_AUCTION_SITE ?? 'https://auction.agora.example',
    publicUrl: nonEmpty(env.AGORA_PUBLIC_URL),
    roomSocket: roomSocket(env.AGORA_ROOM_SOCKET),
    observers: nonEmpty(env.AGORA_ROOM_EVENTS),
    docserviceUrl: nonEmpty(env.AGORA_DOCSERVICE_URL),
    keyRate: keyRate(env),
    addressRate: addressRate(env, inLambda),
    readsNeedKey: env.AGORA_READS_NEED_KEY === '1',
    participationSecretArn: nonEmpty(env.PARTICIPATION_SECRET_ARN),
    participationSecret: nonEmpty(env.AGORA_PARTICIPATION_SECRET),
    roomCallbackUrl: nonEmpty(env.ROOM_CALLBACK_URL),
    roomTimersArn: nonEmpty(env.ROOM_TIMERS_ARN),
    roomEventsHost: nonEmpty(env.ROOM_EVENTS_HOST),
    docserviceSecretArn: nonEmpty(env.DOCSERVICE_SECRET_ARN),
    docserviceSeed: seed,
    filesBucket: nonEmpty(env.FILES_BUCKET),
    filesDir: env.AGORA_FILES_DIR ?? '.agora/files',
    faults: env.AGORA_FAULTS ?? '',
    secretsExtensionPort: env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773',
    awsSessionToken: env.AWS_SESSION_TOKEN ?? '',
    xrayDaemonAddress: nonEmpty(env.AWS_XRAY_DAEMON_ADDRESS),
    webhookTimeoutMs: Number(env.AGORA_WEBHOOK_TIMEOUT_MS) || 15_000,
    webhookFirstAttemptMs: Number(env.AGORA_WEBHOOK_FIRST_ATTEMPT_MS) || 2_000,
  };
}

// On globalThis: the bundled local mode runs a bundle per route in one process, each with its own copy of this module;
// they must all see one configuration and one local runtime.
const CONFIG = Symbol.for('agora.config');
const LOCAL = Symbol.for('agora.localRuntime');
const shared = globalThis as unknown as Record<symbol, unknown>;

/** The configuration of this process, read from the environment at first use. */
export function config(): Config {
  shared[CONFIG] ??= readConfig(process.env);
  const base = shared[CONFIG] as Config;
  const local = localRuntime();
  if (!local) return base;
  return {
    ...base,
    local: true,
    publicUrl: local.publicUrl ?? base.publicUrl,
    docserviceUrl: local.docserviceUrl ?? base.docserviceUrl,
    auctionSite: local.auctionSite ?? base.auctionSite,
    faults: local.faults ?? base.faults,
  };
}

/** Forgets the configuration read so far: tests that change the environment between requests call it. */
export function resetConfig(): void {
  delete shared[CONFIG];
}

/** The X-Ray trace header of the current invocation: the Lambda runtime sets it per invocation, so read per call. */
export const traceHeader = (): string | undefined => process.env._X_AMZN_TRACE_ID;

/** What only the local runtime may change while it runs. */
export interface LocalSettings {
  /** Shift of the service clock from real time, so tests and sandbox users can step past a deadline. */
  clockOffsetMs: number;
  publicUrl?: string;
  docserviceUrl?: string;
  /** The auction room's base URL: the gateway's own (it serves the room) unless AGORA_AUCTION_SITE says otherwise. */
  auctionSite?: string;
  /** Fault injection config (JSON), '' for none. */
  faults?: string;
  /** false: changes write no revision (the bench's cost of a change without its log); never off outside it. */
  changeLog?: boolean;
  /**
   * How long the broadcast's stand-in (lib/local/event-api.ts) keeps a connection that sent no `connection_init`, in
   * place of its 30 s (the test of that bound sets it).
   */
  eventsInitTimeoutMs?: number;
  /**
   * The broadcast stand-in's endpoint over TLS (`wss://…/event/realtime`, the gateway's TLS port), which the room page
   * names for AWS's clients (the page itself watches on its own host: a browser does not trust the local certificate).
   */
  eventsTlsUrl?: string;
}

export const localRuntime = (): LocalSettings | undefined => shared[LOCAL] as LocalSettings | undefined;

/** Turns this process into the local runtime (the gateway does, at start). Refused inside Lambda. */
export function startLocalRuntime(settings: Partial<LocalSettings> = {}): LocalSettings {
  if (readConfig(process.env).inLambda) throw new Error('the local runtime never runs in AWS Lambda');
  shared[LOCAL] ??= { clockOffsetMs: 0 };
  const current = shared[LOCAL] as LocalSettings;
  return Object.assign(current, settings);
}

/** Changes a knob of the local runtime; refused unless the local runtime was started. */
export function setLocal(settings: Partial<LocalSettings>): LocalSettings {
  const current = localRuntime();
  if (!current) throw new Error('not the local runtime: start it first (startLocalRuntime)');
  return Object.assign(current, settings);
}
