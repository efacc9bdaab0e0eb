import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { admitBefore, type RateLimit } from '../domain/kernel/rate-limit.ts';
import { findApiKey, type ApiKeyRecord } from '../store/api-keys.ts';
import { spendRequest } from '../store/rate-limits.ts';
import { AddressBuckets } from '../runtime/address-limits.ts';
import { config } from '../platform/config.ts';
import { log } from '../runtime/observability.ts';
import { ANONYMOUS, type AuthorizerContext } from './authorizer-context.ts';

/**
 * How long a known key is taken on trust: a revoked key stops working within this time (`npm run keys -- revoke`).
 * Short, since each warm authorizer re-reads each key it serves only once per period (one GetItem).
 */
export const KEY_MEMO_MS = 10_000;
const cache = new Map<string, { at: number; context: AuthorizerContext }>();

export function apiKeyOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  if (/^bearer$/i.test(scheme)) return value || undefined;
  if (!/^basic$/i.test(scheme)) return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
  return user || undefined;
}

const cached = (key: string) => {
  const hit = cache.get(key);
  return hit && Date.now() - hit.at < KEY_MEMO_MS ? hit.context : undefined;
};

export async function identify(header: string | undefined): Promise<AuthorizerContext> {
  const key = apiKeyOf(header);
  if (!key) return ANONYMOUS;
  const hit = cached(key);
  if (hit) return hit;
  const record: ApiKeyRecord | undefined = await findApiKey(key);
  if (!record) return ANONYMOUS; // not cached: a key issued a moment ago works at once
  const context = { name: record.name, role: record.role, levels: record.levels };
  cache.set(key, { at: Date.now(), context });
  return context;
}

/** The per-key limit configured for this function (AGORA_KEY_RATE, AGORA_KEY_BURST), or none. */
export const keyRateLimit = (): RateLimit | undefined => config().keyRate;

/** Addresses the table's bucket refused for unknown keys, until their wait is over (this container's memory). */
let refusedAddresses: { limit: RateLimit; buckets: AddressBuckets } | undefined;
function refused(limit: RateLimit): AddressBuckets {
  if (refusedAddresses?.limit !== limit) refusedAddresses = { limit, buckets: new AddressBuckets(limit) };
  return refusedAddresses.buckets;
}

/** Spends one request of the address's unknown-key bucket: undefined when admitted, else the seconds to wait. */
async function spendUnknownKey(address: string, limit: RateLimit): Promise<number | undefined> {
  try {
    const wait = await spendRequest(`address:${address}`, limit);
    if (wait !== undefined) refused(limit).remember(address, admitBefore(limit, Date.now() + wait * 1000));
    return wait;
  } catch (error) {
    log().warn('rate limit check failed', { address, error }); // fails open, as the per-key limit
    return undefined;
  }
}

/**
 * The REQUEST authorizer of every route: it identifies the caller and never refuses, so that refusals come back
 * from the handler in the service's error envelope (API Gateway's own 401/403 bodies are not that envelope).
 * Basic auth: the user name is the API key, the password is ignored (clients send `broker:`); `Bearer <key>` too.
 * Unknown or missing keys become the `anonymous` principal; the HTTP kit answers 401 where a key is required.
 *
 * Per-key fairness: with AGORA_KEY_RATE set (requests per second; AGORA_KEY_BURST, default twice that), each known
 * key spends one request of its token bucket in DynamoDB on every call; an empty bucket puts `retryAfter` (seconds)
 * in the context and the HTTP kit answers 429 with `Retry-After`. The key lookup is cached here in memory (by key,
 * KEY_MEMO_MS); API Gateway's own result cache stays off, since a cached result would skip the bucket (and a request without
 * the header would get API Gateway's bare 401 instead of the envelope).
 *
 * Unknown keys are limited per source address (config `addressRate`): each one costs a key lookup, so an address
 * that sends them spends from its own bucket in the table (`RATE#address:<ip>`), and once refused it is remembered
 * here until its wait is over: its next unknown keys cost no database call at all (a known key this container saw in
 * the last minute is still answered from the cache; one it did not see waits with the address). A request without a key costs nothing and is not limited: it gets its 401 from the HTTP kit.
 */
export async function authorize(header: string | undefined, sourceIp = ''): Promise<AuthorizerContext> {
  const addressLimit = config().addressRate;
  const key = apiKeyOf(header);
  if (addressLimit && key && !cached(key)) {
    const wait = refused(addressLimit).waitFor(sourceIp);
    if (wait !== undefined) return { ...ANONYMOUS, retryAfter: String(wait) };
  }
  let context: AuthorizerContext;
  try {
    context = await identify(header);
  } catch (error) {
    log().warn('api key lookup failed', { error });
    return { ...ANONYMOUS, unavailable: '1' };
  }
  if (addressLimit && key && context.role === 'anonymous') {
    const wait = await spendUnknownKey(sourceIp, addressLimit);
    return wait === undefined ? context : { ...context, retryAfter: String(wait) };
  }
  const limit = keyRateLimit();
  if (!limit || context.role === 'anonymous') return context;
  try {
    const wait = await spendRequest(context.name, limit);
    return wait === undefined ? context : { ...context, retryAfter: String(wait) };
  } catch (error) {
    // The limiter fails open: a database fault in the bucket must not refuse a caller the stage throttle still bounds.
    log().warn('rate limit check failed', { key: context.name, error });
    return context;
  }
}

export const handler = async (event: APIGatewayRequestAuthorizerEventV2) => ({
  isAuthorized: true,
  context: await authorize(event.headers?.authorization, event.requestContext?.http?.sourceIp),
});
