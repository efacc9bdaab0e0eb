/**
 * The CORS policy of the API, one definition for the HTTP API (lib/api-stack.ts) and the local gateway: the request
 * headers clients send (the key, the owner token, a correlation id) and the answer headers a browser may read.
 */
export interface CorsPolicy {
  allowOrigins: string[];
  allowMethods: ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS')[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

export const corsPolicy = (origins: string[]): CorsPolicy => ({
  allowOrigins: origins,
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-access-token', 'x-correlation-id'],
  exposeHeaders: ['location', 'x-correlation-id', 'x-revision', 'x-revision-hash'],
  maxAgeSeconds: 3600,
});

/** The origins setting (`AGORA_CORS_ORIGINS` locally, context `corsOrigins` in AWS): comma-separated, `*` for any. */
export const parseOrigins = (setting: string | undefined): string[] =>
  (setting ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);

/**
 * The CORS headers of an answer to `origin` (API Gateway's behaviour): none when the origin is not allowed. A
 * preflight (`OPTIONS` with `Access-Control-Request-Method`) also gets the methods, headers and max age.
 */
export function corsHeaders(
  policy: CorsPolicy,
  origin: string | undefined,
  preflight: boolean,
): Record<string, string> | undefined {
  if (!origin) return undefined;
  const any = policy.allowOrigins.includes('*');
  if (!any && !policy.allowOrigins.includes(origin)) return undefined;
  const base = { 'access-control-allow-origin': any ? '*' : origin, ...(any ? {} : { vary: 'origin' }) };
  if (!preflight) return { ...base, 'access-control-expose-headers': policy.exposeHeaders.join(',') };
  return {
    ...base,
    'access-control-allow-methods': policy.allowMethods.join(','),
    'access-control-allow-headers': policy.allowHeaders.join(','),
    'access-control-max-age': String(policy.maxAgeSeconds),
  };
}
