import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign as edSign,
  timingSafeEqual,
  verify as edVerify,
} from 'node:crypto';

/**
 * Standard Webhooks 1.0 signatures (https://www.standardwebhooks.com) of `<webhook-id>.<webhook-timestamp>.<body>`:
 * - `v1,<base64 HMAC-SHA256>` keyed by the base64-decoded part of a `whsec_` secret (the default);
 * - `v1a,<base64 Ed25519>` by a `whsk_` key (base64 of its 32-byte seed); the receiver holds only the `whpk_` public
 *   key (base64 of its 32 raw bytes), so it can verify but never sign.
 * The secret's prefix says the scheme, so a subscription's stored secrets sign as they were made.
 * Several signatures go space-separated in one `webhook-signature` header (a rotated secret's old and new key).
 */
export const SECRET_PREFIX = 'whsec_';
export const SIGNING_KEY_PREFIX = 'whsk_';
export const PUBLIC_KEY_PREFIX = 'whpk_';

/** A subscription's signature scheme: `v1` (HMAC, shared secret) or `v1a` (Ed25519, public key). */
export const SIGNATURE_SCHEMES = ['v1', 'v1a'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** A new signing secret: `whsec_` and base64 of 32 random bytes, shown to its owner once. */
export const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** A new Ed25519 key pair: the `whsk_` seed (kept like a secret) and its `whpk_` public key (shown). */
export function newSigningKey(): { secret: string; publicKey: string } {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const secret = `${SIGNING_KEY_PREFIX}${Buffer.from(jwk.d ?? '', 'base64url').toString('base64')}`;
  return { secret, publicKey: publicKeyOf(secret) };
}

// DER headers that wrap a raw 32-byte Ed25519 seed (PKCS #8) or public key (SPKI), RFC 8410.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

const privateKeyOf = (secret: string) =>
  createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, Buffer.from(secret.slice(SIGNING_KEY_PREFIX.length), 'base64')]),
    format: 'der',
    type: 'pkcs8',
  });

/** The `whpk_` public key of a `whsk_` signing key. */
export function publicKeyOf(secret: string): string {
  const spki = createPublicKey(privateKeyOf(secret)).export({ format: 'der', type: 'spki' });
  return `${PUBLIC_KEY_PREFIX}${spki.subarray(SPKI_ED25519.length).toString('base64')}`;
}

const keyOf = (secret: string): Buffer => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
const content = (id: string, timestamp: number, body: string): string => `${id}.${timestamp}.${body}`;

/** One signature of a message by one secret: `v1a,` for a `whsk_` key, `v1,` otherwise. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  if (secret.startsWith(SIGNING_KEY_PREFIX)) {
    return `v1a,${edSign(null, Buffer.from(content(id, timestamp, body)), privateKeyOf(secret)).toString('base64')}`;
  }
  return `v1,${createHmac('sha256', keyOf(secret))
    .update(content(id, timestamp, body))
    .digest('base64')}`;
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

/** A receiver's check with a `whpk_` public key: does any `v1a` signature of the header verify? */
export function verifyV1a(publicKey: string, id: string, timestamp: number, body: string, header: string): boolean {
  const key = createPublicKey({
    key: Buffer.concat([SPKI_ED25519, Buffer.from(publicKey.slice(PUBLIC_KEY_PREFIX.length), 'base64')]),
    format: 'der',
    type: 'spki',
  });
  const message = Buffer.from(content(id, timestamp, body));
  return header
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => edVerify(null, message, key, Buffer.from(s.slice(4), 'base64')));
}
