import { AnswerTooLargeError } from '#domain/kernel/errors.ts';
import { isObject, type JsonRecord } from '#domain/kernel/objects.ts';
import { config } from '#platform/config.ts';
import type { RouteRule } from '../route-rules.ts';
import type { Event, HttpResult, KitMiddleware, Response } from '../types.ts';

/**
 * The most a JSON answer's body may take as the function's answer carries it: inside the Lambda result, escaped once
 * more (each `"` and `\` one byte more), under Lambda's 6 MB (6,291,456 bytes) with room for the status and headers.
 */
export const MAX_ANSWER_BYTES = 6_000_000;

/** The bytes a body text takes in the function's answer (a JSON string in the Lambda result). */
export const answeredBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text));

/**
 * A JSON answer in the route's media type (`?opt_pretty=1`: indented, unless indenting would take it over
 * MAX_ANSWER_BYTES: indentation grows with depth, so a pretty answer is bounded only by falling back to compact).
 */
export function respond(
  rule: RouteRule | undefined,
  event: Event,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  const pretty = event.queryStringParameters?.opt_pretty;
  let text = JSON.stringify(body);
  if (pretty && pretty !== '0' && pretty !== 'false') {
    const indented = JSON.stringify(body, null, 2);
    if (answeredBytes(indented) <= MAX_ANSWER_BYTES) text = indented;
  }
  return {
    statusCode: status,
    headers: {
      'content-type': rule?.contentType ?? 'application/json',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
    body: text,
  };
}

/** The public base URL: configured (AGORA_PUBLIC_URL), else the domain API Gateway received the request on. */
export function publicBaseUrl(event: Event): string {
  const configured = config().publicUrl;
  return configured ? configured.replace(/\/+$/, '') : `https://${event.requestContext.domainName}`;
}

const isHttpResult = (response: Response | HttpResult | null | undefined): response is HttpResult =>
  response != null && !('statusCode' in response);

/**
 * The handler's result as the service answers it: `{data, ...extra, access}` with absolute links, `Location` (absolute
 * unless the route answers paths), `Cache-Control: no-store` for anything a token touched; or a file's bytes, or a 302.
 */
export const envelope = (): KitMiddleware => ({
  after: (request) => {
    const { event, context, response: result } = request;
    if (!isHttpResult(result)) return;
    const response = answer(context.rule!, event, result, context.principal?.token !== undefined);
    request.response = event.requestContext.http.method === 'HEAD' ? headOf(response) : response;
  },
});

/** A HEAD is answered as its GET is, without the body: its headers, the length of the body it leaves out among them. */
function headOf(response: Response): Response {
  const body = Buffer.from(response.body ?? '', response.isBase64Encoded ? 'base64' : 'utf8');
  return {
    statusCode: response.statusCode,
    headers: { ...response.headers, 'content-length': String(body.length) },
    body: '',
  };
}

function answer(rule: RouteRule, event: Event, result: HttpResult, tokenShown: boolean): Response {
  if (result.file)
    return {
      statusCode: 200,
      headers: { 'content-type': result.file.contentType, 'x-content-type-options': 'nosniff', ...result.headers },
      body: Buffer.from(result.file.bytes).toString('base64'),
      isBase64Encoded: true,
    };
  if (result.redirect)
    return { statusCode: 302, headers: { location: result.redirect, 'cache-control': 'no-store' }, body: '' };
  const baseUrl = publicBaseUrl(event);
  const headers: Record<string, string> = { ...result.headers };
  // An answer with a token, or to a caller who showed one (owner-only fields), must not be kept by any cache.
  if (result.access || tokenShown) headers['cache-control'] = 'no-store';
  if (result.location) headers.location = rule.location === 'path' ? result.location : baseUrl + result.location;
  const data = result.data === undefined ? undefined : absoluteLinks(result.data, baseUrl);
  const payload = {
    ...(data !== undefined && { data }),
    ...result.extra,
    ...(result.access && { access: result.access }),
  };
  const response = respond(rule, event, result.status ?? 200, payload, headers);
  if (answeredBytes(response.body ?? '') > MAX_ANSWER_BYTES) throw new AnswerTooLargeError(MAX_ANSWER_BYTES);
  return response;
}

/**
 * Document links are stored as paths of this API (`/api/...`): every `url` that is one is answered absolute from the
 * configured base URL. A client's own links are absolute (format `uri`), so a path can only be the service's.
 */
function absoluteLinks(value: unknown, baseUrl: string): unknown {
  if (Array.isArray(value)) return value.map((v) => absoluteLinks(v, baseUrl));
  if (!isObject(value)) return value;
  const out: JsonRecord = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      key === 'url' && typeof v === 'string' && v.startsWith('/') && !v.startsWith('//')
        ? baseUrl + v
        : absoluteLinks(v, baseUrl);
  }
  return out;
}
