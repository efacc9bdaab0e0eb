import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks 1.0 signatures (https://www.standardwebhooks.com): `v1,<base64 HMAC-SHA256>` over
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the base64-decoded part of the secret after `whsec_`.
 * Several signatures go space-separated in one `webhook-signature` header (a rotated secret's old and new key).
 */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and base64 of 32 random bytes, shown to its owner once. */
export const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

const keyOf = (secret: string): Buffer => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/** One `v1,` signature of a message by one secret. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one signature per live secret, newest first. */
export const signatureHeader = (secrets: readonly string[], id: string, timestamp: number, body: string): string =>
  secrets.map((s) => sign(s, id, timestamp, body)).join(' ');

/** A receiver's check: does any `v1` signature of the header match this secret's (in constant time)? */
export function verify(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(sign(secret, id, timestamp, body));
  return header
    .split(' ')
    .map((s) => Buffer.from(s))
    .some((s) => s.length === expected.length && timingSafeEqual(s, expected));
}
