import type { IncomingHttpHeaders } from 'node:http';

/**
 * Who may call the local-only routes (`/_local/*`: run a bot, move the clock, inject faults): a request addressed to
 * this machine's loopback name with the gateway's port (a DNS-rebinding page sends its own host name), and, for
 * anything but a read, with a JSON content type: a page on another site can send a "simple" cross-site request
 * (`text/plain`, a form) without asking, but a JSON one only after a CORS preflight, which this gateway never grants.
 * Returns why a request is refused, or undefined when it may pass.
 */
export function localOnlyRefusal(method: string, headers: IncomingHttpHeaders, port: number): string | undefined {
  const loopback = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!loopback.includes((headers.host ?? '').toLowerCase()))
    return `The local-only routes answer only requests to ${loopback.join(', ')}`;
  const reads = method === 'GET' || method === 'HEAD';
  const json = /^application\/json\s*(;|$)/i.test(headers['content-type'] ?? '');
  if (!reads && !json) return 'The local-only routes take only requests with Content-Type: application/json';
  return undefined;
}
