import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { findApiKey, type ApiKeyRecord } from '../store/api-keys.ts';

/**
 * The REQUEST authorizer of every route: it identifies the caller and never refuses, so that refusals come back
 * from the handler in the service's error envelope (API Gateway's own 401/403 bodies are not that envelope).
 * Basic auth: the user name is the API key, the password is ignored (clients send `broker:`); `Bearer <key>` too.
 * Unknown or missing keys become the `anonymous` principal; the HTTP kit answers 401 where a key is required.
 */
export interface AuthorizerContext {
  name: string;
  role: string;
  levels: string;
}

const ANONYMOUS: AuthorizerContext = { name: 'anonymous', role: 'anonymous', levels: '' };
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

export const handler = async (event: APIGatewayRequestAuthorizerEventV2) => ({
  isAuthorized: true,
  context: await identify(event.headers?.authorization),
});
