import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../kernel/errors.ts';

/**
 * The document service's signatures, as upstream openprocurement.documentservice: Ed25519, `KeyID` = the first 8 hex
 * characters of the verify key, `Signature` = base64 of the signature.
 *
 * - A file's URL (what register/upload return and what the APIs accept) signs `"file\0<key>\0<md5 hex>"`: it binds
 *   the file's key to its hash, so an API accepts the URL only with the hash it was issued for.
 * - A temporary download link signs `"download\0<key>\0<Expires>"` (Unix seconds) and carries `Expires`, at most
 *   TEMPORARY_LINK_SECONDS ahead.
 * - An upload link is `/upload/<key>` with `hash`, signing `"upload\0<key>\0<md5 hex>"`: registration is stateless,
 *   the signed link is the registration.
 * Each kind signs its own purpose tag first, so no signature of one kind passes as another (a file URL registered
 * for `md5:999…9` is no never-expiring download link).
 *
 * Pure: node:crypto only. The keys come from a `Keyring` the caller loads (store/docservice-keys.ts).
 */
export interface Keyring {
  /** KeyID of the signing key. */
  keyId: string;
  privateKey: KeyObject;
  /** Verify keys by KeyID: the current one and any retired ones still honoured. */
  verifyKeys: ReadonlyMap<string, KeyObject>;
}

/** Lifetime of the links `?download=` redirects to (upstream TEMPORARY_DOCUMENT_EXPIRATION_SECONDS). */
export const TEMPORARY_LINK_SECONDS = 300;
/** Slack for clocks of several Lambdas that sign and check download links. */
const CLOCK_SKEW_SECONDS = 60;

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

function keyPair(seed: Buffer): { keyId: string; privateKey: KeyObject; publicKey: KeyObject } {
  if (seed.length !== 32) throw new Error('An Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { keyId: raw.toString('hex').slice(0, 8), privateKey, publicKey };
}

/** A keyring from 32-byte seeds: the first signs, all verify (older seeds = rotated-out keys still accepted). */
export function keyringFromSeeds(current: Buffer, ...retired: Buffer[]): Keyring {
  const signing = keyPair(current);
  const verifyKeys = new Map([signing, ...retired.map(keyPair)].map((k) => [k.keyId, k.publicKey]));
  return { keyId: signing.keyId, privateKey: signing.privateKey, verifyKeys };
}

/** A seed from any secret text (a generated Secrets Manager string): its SHA-256. */
export const seedFromSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

export const newFileKey = (): string => randomBytes(16).toString('hex');
export const md5Hex = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('hex');

const KEY = /^[0-9a-f]{32}$/;
const HASH = /^md5:([0-9a-f]{32})$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

type Purpose = 'file' | 'upload' | 'download';
const message = (purpose: Purpose, key: string, value: string) => `${purpose}\0${key}\0${value}`;

const signature = (keyring: Keyring, message: string) =>
  sign(null, Buffer.from(message, 'utf8'), keyring.privateKey).toString('base64');

function verified(keyring: Keyring, keyId: string, message: string, sig: string): boolean {
  const key = keyring.verifyKeys.get(keyId);
  if (!key || !BASE64.test(sig)) return false;
  const bytes = Buffer.from(sig, 'base64');
  return bytes.length === 64 && verify(null, Buffer.from(message, 'utf8'), key, bytes);
}

const hexOf = (hash: string) => HASH.exec(hash)?.[1];

/** The file's URL: `<docservice>/get/<key>?KeyID=..&Signature=..`, bound to the file's hash. */
export function fileUrl(keyring: Keyring, docservice: string, key: string, hash: string): string {
  const query = new URLSearchParams({
    KeyID: keyring.keyId,
    Signature: signature(keyring, message('file', key, hexOf(hash)!)),
  });
  return `${docservice}/get/${key}?${query}`;
}

/** Where the bytes of a registered file go: `<docservice>/upload/<key>?hash=md5:..&KeyID=..&Signature=..`. */
export function uploadUrl(keyring: Keyring, docservice: string, key: string, hash: string): string {
  const query = new URLSearchParams({
    hash,
    KeyID: keyring.keyId,
    Signature: signature(keyring, message('upload', key, hexOf(hash)!)),
  });
  return `${docservice}/upload/${key}?${query}`;
}

/** A short-lived download link: `<docservice>/get/<key>?KeyID=..&Signature=..&Expires=<unix s>`. */
export function temporaryUrl(keyring: Keyring, docservice: string, key: string, nowSeconds: number): string {
  const expires = String(Math.floor(nowSeconds) + TEMPORARY_LINK_SECONDS);
  const query = new URLSearchParams({
    KeyID: keyring.keyId,
    Signature: signature(keyring, message('download', key, expires)),
    Expires: expires,
  });
  return `${docservice}/get/${key}?${query}`;
}

/** POST /register: a new key for a file of this hash, its URL and where to upload its bytes. */
export function registerFile(keyring: Keyring, docservice: string, data: Record<string, unknown>) {
  const hash = data.hash;
  if (hash === undefined) throw UnprocessableError.field('hash', 'This field is required.');
  if (typeof hash !== 'string' || !HASH.test(hash)) {
    throw UnprocessableError.field(
      'hash',
      "Hash type is not supported or hash value doesn't match the pattern md5:<32 hex characters>.",
    );
  }
  const key = newFileKey();
  return {
    key,
    hash,
    url: fileUrl(keyring, docservice, key, hash),
    upload_url: uploadUrl(keyring, docservice, key, hash),
  };
}

/**
 * PUT /upload/<key>?hash&KeyID&Signature: the link must be one this service signed, and the bytes must have the
 * registered hash. Returns the file's hash.
 */
export function checkUpload(keyring: Keyring, key: string, query: Record<string, string>, bytes: Uint8Array): string {
  const hash = query.hash ?? '';
  const hex = hexOf(hash);
  if (
    !KEY.test(key) ||
    !hex ||
    !verified(keyring, query.KeyID ?? '', message('upload', key, hex), query.Signature ?? '')
  ) {
    throw new ForbiddenError('Upload link invalid.', 'Signature', 'querystring');
  }
  if (md5Hex(bytes) !== hex) throw UnprocessableError.field('file', 'Invalid checksum');
  return hash;
}

/** GET /get/<key>?KeyID&Signature&Expires: a temporary link this service signed, not yet expired. */
export function checkDownload(keyring: Keyring, key: string, query: Record<string, string>, nowSeconds: number): void {
  const expires = query.Expires ?? '';
  if (!KEY.test(key)) throw new NotFoundError('key');
  // Expires is plain Unix seconds no further ahead than this service ever signs: a larger one is no link of ours.
  if (!/^\d{1,12}$/.test(expires) || Number(expires) > nowSeconds + TEMPORARY_LINK_SECONDS + CLOCK_SKEW_SECONDS) {
    throw new ForbiddenError('Signature invalid.', 'Signature', 'querystring');
  }
  if (!verified(keyring, query.KeyID ?? '', message('download', key, expires), query.Signature ?? '')) {
    throw new ForbiddenError('Signature invalid.', 'Signature', 'querystring');
  }
  if (Number(expires) < nowSeconds) throw new ForbiddenError('Request has expired', 'Expires', 'querystring');
}

/** An empty upload is no file. */
export function assertNotEmpty(bytes: Uint8Array): void {
  if (bytes.length === 0) throw new NotFoundError('file', 'body');
}

/**
 * What an API accepts as a document's `url` (upstream `check_ds_document`): a URL of this document service,
 * `<docservice>/get/<key>` with exactly `KeyID` and `Signature`, signed for this `hash`. Returns the file's key.
 */
export function checkDocumentUrl(keyring: Keyring, docservice: string, url: string, hash: string | undefined): string {
  const fromService = () => new ForbiddenError('Can add document only from document service.', 'url');
  if (!url.startsWith(`${docservice}/get/`)) throw fromService();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fromService();
  }
  const key = parsed.pathname.split('/').pop() ?? '';
  const params = [...parsed.searchParams.keys()].sort();
  if (
    `${parsed.origin}${parsed.pathname}` !== `${docservice}/get/${key}` ||
    !KEY.test(key) ||
    params.join() !== 'KeyID,Signature'
  ) {
    throw fromService();
  }
  if (hash === undefined) throw UnprocessableError.field('hash', 'This field is required.');
  const keyId = parsed.searchParams.get('KeyID')!;
  const sig = parsed.searchParams.get('Signature')!;
  const invalid = (description: string) => new UnprocessableError({ location: 'body', name: 'url', description });
  if (!keyring.verifyKeys.has(keyId)) throw invalid('Document url expired.');
  if (!BASE64.test(sig) || Buffer.from(sig, 'base64').length !== 64) throw invalid('Document url signature invalid.');
  if (!verified(keyring, keyId, message('file', key, hexOf(hash) ?? ''), sig)) throw invalid('Document url invalid.');
  return key;
}

/**
 * The request's document context, given by the HTTP kit to a handler whose route touches documents: the keyring,
 * the docservice base URL, and the path of the documents collection the request addresses (the API's own form of a
 * document link is `<collection>/<id>?download=<key>`, stored as a path and made absolute from the configured public
 * base URL when answered, never from a request header). `attached` collects the keys documents took,
 * so the file store can keep them (the bucket expires files nobody attached).
 */
export interface DocumentContext {
  keyring: Keyring;
  docservice: string;
  collection?: string;
  /** The configured public base URL the answer's links start with (a client resends a link in that form). */
  baseUrl?: string;
  nowSeconds: number;
  attached: string[];
}

/** The context a document write or download needs; refuses plainly when a route was not given it. */
export function requireFiles(files: DocumentContext | undefined): DocumentContext {
  if (!files) throw new Error('No document context: routes.ts must give this route docservice access');
  return files;
}
