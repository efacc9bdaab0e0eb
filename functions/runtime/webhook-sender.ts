import { lookup } from 'node:dns/promises';
import type { Agent } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddress, type TargetPolicy } from '#domain/webhooks/address.ts';
import type { AttemptResult } from '#domain/webhooks/schedule.ts';

/** Of an answer at most this much is read (kept for the delivery's listing); the rest is dropped unread. */
export const MAX_ANSWER_BYTES = 1024;

export interface Sent extends AttemptResult {
  answer?: string;
  ms: number;
}

/**
 * Node's HTTP client, loaded at the first webhook sent: node:http is the largest part of a cold import after the SDK
 * (~10 % of its floor), and most Lambdas that load this module (the subscription routes) never send (issue 46).
 * Kept-alive connections per receiver: a socket is opened to an address checked below, and reused only for it.
 */
type Client = { request: typeof import('node:http').request; agent: Agent };
const clients: Partial<Record<'http:' | 'https:', Promise<Client>>> = {};
const clientOf = (scheme: 'http:' | 'https:'): Promise<Client> =>
  (clients[scheme] ??= (scheme === 'https:' ? import('node:https') : import('node:http')).then((m) => ({
    request: m.request,
    agent: new m.Agent({ keepAlive: true }),
  })));

/**
 * POSTs one webhook. The host is resolved here, at every attempt, and every address it has is checked against the
 * policy (a name that resolves to a private address, now or after a DNS change, is refused); the connection then goes
 * to the checked address, never to a second resolution (DNS rebinding). No redirect is followed (Node's client follows
 * none): a 3xx is a failed attempt like any other non-2xx.
 */
export async function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  policy: TargetPolicy,
  /** A receiver has this long to answer, headers and the bytes read included. */
  timeoutMs: number,
): Promise<Sent> {
  const started = performance.now();
  const done = (r: AttemptResult & { answer?: string }): Sent => ({
    ...r,
    ms: Math.round(performance.now() - started),
  });
  const url = new URL(target);
  if (!policy.schemes.includes(url.protocol)) return done({ error: `scheme ${url.protocol} refused` });
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch (error) {
    return done({ error: `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? 'error'}` });
  }
  const refused = addresses.map((a) => refusedAddress(a.address, policy)).find(Boolean);
  if (refused || !addresses.length) return done({ error: refused ?? `no address for ${host}` });
  const pinned = addresses[0]!;
  const pin: LookupFunction = (_name, options, callback) =>
    options.all
      ? (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned])
      : callback(null, pinned.address, pinned.family);
  const { request, agent } = await clientOf(url.protocol === 'https:' ? 'https:' : 'http:');
  /**
   * One request. `fresh`: on a new connection, not a kept-alive one. A request written into a kept-alive socket the
   * receiver had just closed (its idle timeout: Node's servers close after 5 s) fails before any answer, without the
   * receiver having read it (`ECONNRESET`, "socket hang up" on a reused socket, as Node's documentation says): it is
   * sent again at once on a new connection, and only that counts as the attempt.
   */
  const send = (fresh: boolean) =>
    new Promise<Sent | 'stale'>((resolve) => {
      const req = request(url, {
        method: 'POST',
        agent: fresh ? false : agent,
        lookup: pin,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Agora-Webhooks/1.0',
        },
      });
      let finished = false;
      // A timer that fires late (a busy process) lets the loop read what already came first: an answer waiting on the
      // socket is not counted as missing, and so not sent again.
      const timer = setTimeout(
        () =>
          setImmediate(() => {
            if (!finished) req.destroy(new Error(`no answer in ${timeoutMs / 1000} s`));
          }),
        Math.max(0, timeoutMs - (performance.now() - started)),
      );
      const finish = (r: AttemptResult & { answer?: string }) => {
        finished = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (!fresh && req.reusedSocket && !finished && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
          finished = true;
          clearTimeout(timer);
          resolve('stale');
        } else finish({ error: error.message });
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answered = () => {
          const retryAfter = res.headers['retry-after'];
          finish({
            status: res.statusCode,
            ...(retryAfter && { retryAfter }),
            answer: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8'),
          });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_ANSWER_BYTES) {
            res.destroy(); // the rest is never read; the socket is not reused
            answered();
          }
        });
        res.on('end', answered);
        res.on('error', answered);
      });
      req.end(body);
    });
  const first = await send(false);
  return first === 'stale' ? ((await send(true)) as Sent) : first;
}
