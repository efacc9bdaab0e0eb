import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { linkSchemeOf, ROOM_LINKS } from '#domain/auctions/room-links.ts';
import type { AuctionTypeName } from '#domain/auctions/catalog.ts';
import { LOCAL_OBSERVERS_KEY } from './local-observers-key.ts';

/**
 * What the room page's handlers share: the auction type a path names (`/insider-auctions/<id>` is dgfInsider,
 * `/texas-auctions/<id>` landlease: domain/auctions/room-links.ts), the page's security headers, and small answers.
 * These handlers answer HTML and set cookies themselves: the HTTP kit's page stack (`pageHandler`: correlation id,
 * request line, metrics, error envelope), not its JSON body and `{data}` envelope.
 */
export type Event = APIGatewayProxyEventV2;
export type Result = APIGatewayProxyStructuredResultV2;

const ID = /^[0-9a-f]{32}$/;

export interface PageTarget {
  type: AuctionTypeName;
  /** `/insider-auctions/<id>` as the browser asked for it: the page, the cookie's path, the forms' target. */
  base: string;
  auctionId: string;
  /**
   * What precedes the page's path: `''` at the domain's root, the mapping key (`/agora`) where a custom domain maps
   * the API under one (API Gateway leaves it in `rawPath`): the page's own files are under it too.
   */
  mount: string;
}

/** The auction type and id a room page path names, or undefined (an unknown id is a 404, never a half page). */
export function targetOf(event: Event): PageTarget | undefined {
  const segments = event.rawPath.split('/');
  const types = Object.keys(ROOM_LINKS) as AuctionTypeName[];
  const at = segments.findIndex((s, i) => i > 0 && types.some((t) => ROOM_LINKS[t].path === s));
  const type = types.find((t) => ROOM_LINKS[t].path === segments[at]);
  const auctionId = segments[at + 1];
  if (!type || !auctionId || !ID.test(auctionId)) return undefined;
  const mount = segments.slice(0, at).join('/');
  return { type, base: `${mount}/${segments[at]}/${auctionId}`, auctionId, mount };
}

export const schemeOf = (target: PageTarget) => linkSchemeOf(target.type)!;

/**
 * The observers' broadcast as the page hands it on: locally the key, and the stand-in's endpoint over TLS (`tlsUrl`)
 * for AWS's clients, named only: the page watches on its own host (a browser does not trust the local certificate).
 */
export interface Observers {
  url?: string;
  host?: string;
  apiKey: string;
  tlsUrl?: string;
}

/**
 * The observers' broadcast of the page's configuration (platform/config.ts `observers`, AGORA_ROOM_EVENTS: a ws(s) URL
 * without query, the host its authorization names and the API key, space-separated); unset, the local stand-in's key
 * and TLS endpoint (`localTlsUrl`, the gateway's) under the local runtime, else none. Anything else is a
 * configuration error.
 */
export function observersOf(
  observers: string | undefined,
  local: boolean,
  localTlsUrl?: string,
): Observers | undefined {
  if (!observers)
    return local ? { apiKey: LOCAL_OBSERVERS_KEY, ...(localTlsUrl && { tlsUrl: localTlsUrl }) } : undefined;
  const [url, host, apiKey, ...rest] = observers.split(' ');
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  const ok =
    !rest.length &&
    parsed &&
    /^wss?:$/.test(parsed.protocol) &&
    !parsed.search &&
    !parsed.hash &&
    !parsed.username &&
    /^[\w-]+(\.[\w-]+)*(:\d{1,5})?$/.test(host ?? '') &&
    /^[\w-]{8,128}$/.test(apiKey ?? '');
  if (!ok)
    throw new Error(
      `AGORA_ROOM_EVENTS must be a ws(s):// URL without query, its host and an API key, space-separated; got ${JSON.stringify(observers)}`,
    );
  return { url: parsed!.href, host, apiKey };
}

/**
 * Only the room's own files run and load; the page talks only to its own origin (the WebSocket included: CSP 3
 * `'self'` covers ws/wss of the same host) and, where the room's WebSocket is on another host (AWS: the room stack's
 * stage, platform/config.ts `roomSocket`) and the observers' broadcast (AWS: the Event API's real-time endpoint,
 * `observersOf`), to those origins alone; it posts forms only to itself, and is never framed.
 */
export const cspOf = (...elsewhere: (string | undefined)[]) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    ["connect-src 'self'", ...new Set(elsewhere.flatMap((url) => (url ? [new URL(url).origin] : [])))].join(' '),
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

export const SECURITY_HEADERS = {
  'content-security-policy': cspOf(),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export const html = (statusCode: number, body: string, headers: Record<string, string> = {}): Result => ({
  statusCode,
  headers: { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS, ...headers },
  body,
});

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A whole page around `main`, with the room's stylesheet and, when given, its script (a module: no inline script),
 * both under `mount` (PageTarget).
 */
export const pageOf = (title: string, main: string, script?: string, mount = '') => `<!doctype html>
<html lang="uk">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(mount)}/room-page/room.css">
<link rel="icon" href="${escapeHtml(mount)}/room-page/icon.svg" type="image/svg+xml">
${script ? `<script type="module" src="${escapeHtml(mount)}/room-page/${script}"></script>` : ''}
</head>
<body>
${main}
</body>
</html>
`;

export const notFound = () =>
  html(
    404,
    pageOf('Not Found', '<main class="card"><h1>Not Found</h1><p>Аукціон не знайдено · No such auction</p></main>'),
  );

/** The request's cookies by name (API Gateway v2 hands them in `cookies`). */
export function cookiesOf(event: Event): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of event.cookies ?? []) {
    const at = pair.indexOf('=');
    if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

export const COOKIE = 'agora_room';

/** Secure wherever the request came over HTTPS (API Gateway in AWS); the local gateway speaks plain HTTP. */
export const secureRequest = (event: Event) => event.headers?.['x-forwarded-proto'] === 'https';

/** A form's fields (application/x-www-form-urlencoded, possibly base64 as API Gateway hands bodies). */
export function formOf(event: Event): URLSearchParams {
  const text = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  return new URLSearchParams(text.slice(0, 8192));
}
