import {
  createHash,
  createPrivateKey,
  createPublicKey,
  sign,
  timingSafeEqual,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { AuctionTypeName } from './catalog.ts';

/**
 * The links into the auction room, as the original auction modules made them, so that a bidder's link reads as it did:
 * - dgfInsider (openprocurement.auctions.insider): `<site>/insider-auctions/<auction>`, and `login?bidder_id=<bid>&
 *   signature=<sig>` where `sig` is the Ed25519 signature of `<auction>_<bid>`, base64, quoted as Python 2's
 *   `urllib.quote` (`/` kept);
 * - landlease (openprocurement.auction.texas): `<site>/texas-auctions/<auction>`, and `login?bidder_id=<bid>&hash=<h>`
 *   where `h` is the SHA-1 hex of the secret followed by the bid id (openprocurement.auction `calculate_hash`).
 * The secret is the deployment's participation secret; the Ed25519 seed is the secret itself when it is 64 hex digits
 * (the original's configuration form), else its SHA-256 (a generated Secrets Manager string). Pure: node:crypto only.
 */
interface LinkScheme {
  /** The room's path of the type's auctions. */
  path: string;
  /** The query parameter the bidder's key travels in. */
  param: 'signature' | 'hash';
  /** The key of a bidder's link, as it appears in the query (already quoted). */
  key(secret: string, auctionId: string, bidId: string): string;
  /** Whether `given` (the query value, decoded) is the key of this bidder of this auction. */
  verify(secret: string, auctionId: string, bidId: string, given: string): boolean;
}

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const keys = new Map<string, { privateKey: KeyObject; publicKey: KeyObject }>();

/** The Ed25519 key pair of a secret, derived once per secret. */
function keyPair(secret: string) {
  let pair = keys.get(secret);
  if (!pair) {
    const seed = /^[0-9a-f]{64}$/i.test(secret)
      ? Buffer.from(secret, 'hex')
      : createHash('sha256').update(secret, 'utf8').digest();
    const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
    pair = { privateKey, publicKey: createPublicKey(privateKey) };
    keys.set(secret, pair);
  }
  return pair;
}

/** The raw Ed25519 public key (32 bytes, hex) of a secret: what a room elsewhere would verify with. */
export const verifyKeyHex = (secret: string): string =>
  keyPair(secret).publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');

/** Python 2 `urllib.quote(text)`: everything but letters, digits, `_.-` and `/` percent-encoded (upper-case hex). */
export const pythonQuote = (text: string): string =>
  Array.from(Buffer.from(text, 'utf8'))
    .map((byte) => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9_.\-/]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

const BASE64 = /^[A-Za-z0-9+/]{86}==$/;
const signed = (auctionId: string, bidId: string) => Buffer.from(`${auctionId}_${bidId}`, 'utf8');

const insiderLinks: LinkScheme = {
  path: 'insider-auctions',
  param: 'signature',
  key: (secret, auctionId, bidId) =>
    pythonQuote(sign(null, signed(auctionId, bidId), keyPair(secret).privateKey).toString('base64')),
  verify: (secret, auctionId, bidId, given) =>
    BASE64.test(given) &&
    verify(null, signed(auctionId, bidId), keyPair(secret).publicKey, Buffer.from(given, 'base64')),
};

const sha1Hex = (secret: string, bidId: string) => createHash('sha1').update(`${secret}${bidId}`, 'utf8').digest('hex');

const texasLinks: LinkScheme = {
  path: 'texas-auctions',
  param: 'hash',
  key: (secret, _auctionId, bidId) => sha1Hex(secret, bidId),
  verify: (secret, _auctionId, bidId, given) =>
    /^[0-9a-f]{40}$/.test(given) && timingSafeEqual(Buffer.from(sha1Hex(secret, bidId)), Buffer.from(given)),
};

/** Each type's links: a new type does not compile until it says how its bidders enter the room. */
export const ROOM_LINKS: Record<AuctionTypeName, LinkScheme> = { dgfInsider: insiderLinks, landlease: texasLinks };

export const linkSchemeOf = (type: string): LinkScheme | undefined => ROOM_LINKS[type as AuctionTypeName];
