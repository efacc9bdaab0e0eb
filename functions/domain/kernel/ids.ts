import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 lowercase hex characters: ids of objects and sub-objects, and access tokens (upstream `uuid4().hex`). */
export const newId = (): string => randomBytes(16).toString('hex');
export const newToken = newId;

export const ID_PATTERN = '^[0-9a-f]{32}$';

/** Tokens and API keys are stored only as this hash. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Compares a token sent in clear with a stored hash, in constant time. */
export function tokenMatches(token: string | undefined, storedHash: string | undefined): boolean {
  if (!token || !storedHash) return false;
  const a = Buffer.from(sha256(token), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `UA-LR-DGF-2026-11-22-000042`: a prefix, the Kyiv date and the per-day sequence. */
export const sequenceId = (prefix: string, day: string, n: number): string =>
  `${prefix}-${day}-${String(n).padStart(6, '0')}`;
