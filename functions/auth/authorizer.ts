import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import type { RateLimit } from '../domain/kernel/rate-limit.ts';
import { findApiKey, type ApiKeyRecord } from '../store/api-keys.ts';
import { spendRequest } from '../store/rate-limits.ts';
import { config } from '../runtime/config.ts';
import { log } from '../runtime/observability.ts';
import { ANONYMOUS, type AuthorizerContext } from './authorizer-context.ts';

const CACHE_MS = 60_000;
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

export async function identify(header: string | undefined): Promise<AuthorizerContext> {
  const key = apiKeyOf(header);
  if (!key) return ANONYMOUS;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.context;
  const record: ApiKeyRecord | undefined = await findApiKey(key);
  if (!record) return ANONYMOUS; // not cached: a key issued a moment ago works at once
  const context = { name: record.name, role: record.role, levels: record.levels };
  cache.set(key, { at: Date.now(), context });
  return context;
}

/** The per-key limit configured for this function (AGORA_KEY_RATE, AGORA_KEY_BURST), or none. */
export const keyRateLimit = (): RateLimit | undefined => config().keyRate;

/**
 * The REQUEST authorizer of every route: it identifies the caller and never refuses, so that refusals come back
 * from the handler in the service's error envelope (API Gateway's own 401/403 bodies are not that envelope).
 * Basic auth: the user name is the API key, the password is ignored (clients send `broker:`); `Bearer <key>` too.
 * Unknown or missing keys become the `anonymous` principal; the HTTP kit answers 401 where a key is required.
 *
 * Per-key fairness: with AGORA_KEY_RATE set (requests per second; AGORA_KEY_BURST, default twice that), each known
 * key spends one request of its token bucket in DynamoDB on every call; an empty bucket puts `retryAfter` (seconds)
 * in the context and the HTTP kit answers 429 with `Retry-After`. The key lookup is cached here in memory (by key,
 * 60 s); API Gateway's own result cache stays off, since a cached result would skip the bucket (and a request without
 * the header would get API Gateway's bare 401 instead of the envelope). What it answers: AuthorizerContext.
 */
export async function authorize(header: string | undefined): Promise<AuthorizerContext> {
  let context: AuthorizerContext;
  try {
    context = await identify(header);
  } catch (error) {
    log().warn('api key lookup failed', { error });
    return { ...ANONYMOUS, unavailable: '1' };
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
  context: await authorize(event.headers?.authorization),
});
