import { ForbiddenError, NotFoundError, PermissionError, UnprocessableError } from '../kernel/errors.ts';
import { newId, newToken, sha256, tokenMatches } from '../kernel/ids.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import type { Principal } from '../kernel/principal.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import type {
  Subscription as SubscriptionBody,
  SubscriptionPatch,
  SubscriptionReplay,
} from '../schemas/generated/request-types.ts';
import { refusedUrl, type TargetPolicy } from './address.ts';
import { EVENT_PATTERNS } from './events.ts';
import { newSecret, newSigningKey, SIGNATURE_SCHEMES, type SignatureScheme } from './signature.ts';

/**
 * Webhook subscriptions (`/api/0.1/subscriptions`): a broker (or an admin) asks for the changes of lots, assets and
 * auctions to be sent to a URL, signed with a secret only it and the service know. Like a lot, a subscription belongs
 * to the key that created it while it holds the subscription's token.
 */

/** Each key holds at most this many subscriptions (every change is sent once to each that matches it). */
export const SUBSCRIPTIONS_PER_KEY = 100;
/** A rotated-out secret still signs for this long, so the receiver can switch keys without missing a delivery. */
export const ROTATION_OVERLAP: Micros = 24 * 3_600 * 1_000_000;
/** Secrets kept at once (each rotation within a day adds one): a bounded signature header. */
const MAX_SECRETS = 3;

const STATUSES = ['active', 'disabled'] as const;
const fields = {
  url: { type: 'string', minLength: 1, maxLength: 2048 },
  events: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: { enum: EVENT_PATTERNS } },
  description: { type: 'string', maxLength: 500 },
} as const;
export const subscriptionSchema = {
  type: 'object',
  // `signature`: `v1` (HMAC by a shared secret, the default) or `v1a` (Ed25519: the receiver holds a public key).
  properties: { ...fields, signature: { enum: SIGNATURE_SCHEMES } },
  required: ['url', 'events'],
} as const;
export const subscriptionPatchSchema = {
  type: 'object',
  properties: { ...fields, status: { enum: STATUSES } },
} as const;
/** `POST …/replay`: the cursor of a delivered event (its `data.cursor`); what followed it is sent again. */
export const replaySchema = {
  type: 'object',
  properties: { after: { type: 'string', minLength: 1, maxLength: 200 } },
  required: ['after'],
} as const;
const checkSubscription: CheckOf<SubscriptionBody> = (data) => checkWith('subscription', subscriptionSchema, data);
const checkPatch: CheckOf<SubscriptionPatch> = (data) => checkWith('subscriptionPatch', subscriptionPatchSchema, data);
const checkReplay: CheckOf<SubscriptionReplay> = (data) => checkWith('subscriptionReplay', replaySchema, data);

/** A subscription as shown: never its secret nor its owner's token. */
export interface Subscription extends JsonRecord {
  id: string;
  url: string;
  events: string[];
  description?: string;
  status: (typeof STATUSES)[number];
  /** `v1a`: signed with Ed25519, verified with `publicKey`; absent: `v1` (HMAC by the secret). */
  signature?: 'v1a';
  /** The `whpk_` key that verifies the newest `v1a` signature (public; its private half is never shown). */
  publicKey?: string;
  /** Why the service disabled it (`gone`: the receiver answered 410; `failing`: 5 days of failed deliveries). */
  disabledReason?: 'gone' | 'failing';
  dateCreated: string;
  dateModified: string;
}

/** A signing secret; a rotated-out one `expires`. */
export interface SigningSecret {
  secret: string;
  expires?: Micros;
}

/** A subscription as stored: the view, its owner key and token hash, its secrets. */
export interface StoredSubscription {
  root: Subscription;
  owner: string;
  tokenHash: string;
  secrets: SigningSecret[];
}

/** The store's port (functions/store/subscription-repository.ts). */
export interface SubscriptionStore {
  get(id: string): Promise<StoredSubscription | undefined>;
  /** Refused with `tooMany` when the owner already holds `SUBSCRIPTIONS_PER_KEY`. */
  create(s: StoredSubscription, tooMany: () => Error): Promise<void>;
  /** Load, apply, write under a condition on what was read (retried on a lost race); undefined: nothing changes. */
  modify(id: string, change: (s: StoredSubscription) => StoredSubscription | undefined): Promise<StoredSubscription>;
  remove(s: StoredSubscription): Promise<void>;
}

export interface SubscriptionsContext {
  principal: Principal;
  now: Micros;
  subscriptions: SubscriptionStore;
  /** Where deliveries may go (runtime: AWS or the local runtime). */
  targets: TargetPolicy;
}

/** The secrets that sign at `now`, newest first. */
export const liveSecrets = (s: Pick<StoredSubscription, 'secrets'>, now: Micros): string[] =>
  s.secrets.filter((k) => k.expires === undefined || k.expires > now).map((k) => k.secret);

function assertUrl(url: string | undefined, targets: TargetPolicy): void {
  const refusal = url === undefined ? undefined : refusedUrl(url, targets);
  if (refusal) throw UnprocessableError.field('url', refusal);
}

const mayCreate = (p: Principal) => p.role === 'broker' || p.role === 'admin';

/** The owner (its key and token), or an admin; others are refused as a lot's non-owner is. */
function assertOwner(ctx: SubscriptionsContext, s: StoredSubscription): void {
  if (ctx.principal.role === 'admin') return;
  if (ctx.principal.role !== 'broker' || ctx.principal.name !== s.owner) throw new PermissionError();
  if (!tokenMatches(ctx.principal.token, s.tokenHash)) throw new PermissionError();
}

/** POST: a new subscription, its token and its secret (answered once). */
export async function createSubscription(
  ctx: SubscriptionsContext,
  data: JsonRecord,
  id: string = newId(),
): Promise<{ subscription: Subscription; token: string; secret?: string }> {
  if (!mayCreate(ctx.principal)) throw new PermissionError();
  checkSubscription(data);
  assertUrl(data.url, ctx.targets);
  const at = formatKyiv(ctx.now);
  const root: Subscription = {
    id,
    url: data.url,
    events: data.events,
    ...(data.description !== undefined && { description: data.description }),
    status: 'active',
    dateCreated: at,
    dateModified: at,
  };
  const token = newToken();
  const key = newKey(data.signature ?? 'v1');
  if (key.publicKey) Object.assign(root, { signature: 'v1a', publicKey: key.publicKey });
  await ctx.subscriptions.create(
    { root, owner: ctx.principal.name, tokenHash: sha256(token), secrets: [{ secret: key.secret }] },
    () => new ForbiddenError(`A key holds at most ${SUBSCRIPTIONS_PER_KEY} subscriptions`),
  );
  return { subscription: root, token, ...(!key.publicKey && { secret: key.secret }) };
}

/** A new key of a scheme: a `v1` secret (answered once), or a `v1a` key pair (only the public half is shown). */
const newKey = (scheme: SignatureScheme): { secret: string; publicKey?: string } =>
  scheme === 'v1a' ? newSigningKey() : { secret: newSecret() };

/** The subscription its owner (or an admin) may see. */
export async function ownedSubscription(ctx: SubscriptionsContext, id: string): Promise<StoredSubscription> {
  const found = await ctx.subscriptions.get(id);
  if (!found) throw new NotFoundError('subscription_id');
  assertOwner(ctx, found);
  return found;
}

/**
 * PATCH: `url`, `events`, `description`, `status`. Setting `active` again after the service disabled it starts
 * over (its deliveries stay as they are: replay them).
 */
export async function patchSubscription(
  ctx: SubscriptionsContext,
  id: string,
  data: JsonRecord,
): Promise<Subscription> {
  await ownedSubscription(ctx, id);
  checkPatch(data);
  assertUrl(data.url, ctx.targets);
  const changed = await ctx.subscriptions.modify(id, (s) => {
    assertOwner(ctx, s);
    const { disabledReason: _, ...root } = { ...s.root, ...data, dateModified: formatKyiv(ctx.now) };
    const reason = root.status === 'disabled' && s.root.status === 'disabled' ? s.root.disabledReason : undefined;
    return { ...s, root: { ...root, ...(reason && { disabledReason: reason }) } };
  });
  return changed.root;
}

/**
 * POST …/secret: a new secret (`v1a`: a new key pair, its public key answered); the old ones keep signing for
 * `ROTATION_OVERLAP` (both signatures are sent).
 */
export async function rotateSecret(
  ctx: SubscriptionsContext,
  id: string,
): Promise<{ secret: string } | { publicKey: string }> {
  const found = await ownedSubscription(ctx, id);
  const { secret, publicKey } = newKey(found.root.signature ?? 'v1');
  await ctx.subscriptions.modify(id, (s) => {
    assertOwner(ctx, s);
    const until = ctx.now + ROTATION_OVERLAP;
    const old = s.secrets
      .filter((k) => k.expires === undefined || k.expires > ctx.now)
      .map((k) => ({ secret: k.secret, expires: Math.min(k.expires ?? until, until) }));
    const root = publicKey ? { ...s.root, publicKey, dateModified: formatKyiv(ctx.now) } : s.root;
    return { ...s, root, secrets: [{ secret }, ...old].slice(0, MAX_SECRETS) };
  });
  return publicKey ? { publicKey } : { secret };
}

export async function deleteSubscription(ctx: SubscriptionsContext, id: string): Promise<void> {
  await ctx.subscriptions.remove(await ownedSubscription(ctx, id));
}

/** A journal cursor (an event's `data.cursor`, the change feed's): a lane and a position in it. */
const CURSOR = /^([a-z][a-zA-Z.-]*(?:#test)?):(\d{1,12})$/;

/** Where a replay starts: the lane and position of its body's cursor (one the service gave: an event's `data.cursor`). */
export function replayCursor(data: JsonRecord): { lane: string; pos: number } {
  checkReplay(data);
  const [, lane, pos] = CURSOR.exec(String(data.after)) ?? [];
  if (!lane || !pos) throw notOurCursor();
  return { lane, pos: Number(pos) };
}

/** A replay's cursor that names no place of this subscription's: 422 on `after`. */
export const notOurCursor = () => UnprocessableError.field('after', 'Not a cursor of this service.');
