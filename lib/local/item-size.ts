/**
 * The size DynamoDB bills an item at (a document-client item: plain values), by its documented rules: attribute names
 * and strings by their UTF-8 bytes, a number about one byte per two significant digits plus one, true, false and null
 * one byte, a list or a map 3 bytes plus one a member (a map's member names counted as attribute names). Local only:
 * the bench's "bytes of the revision" (lib/local/gateway.ts `x-agora-revision-bytes`).
 */
export function itemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) if (value !== undefined) bytes += utf8(name) + valueBytes(value);
  return bytes;
}

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

function valueBytes(value: unknown): number {
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberBytes(String(value));
  if (typeof value === 'boolean' || value === null) return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((n: number, v) => n + valueBytes(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + valueBytes(v), 0);
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return 3 + members.reduce((n, [k, v]) => n + 1 + utf8(k) + valueBytes(v), 0);
  }
  return 0;
}

/** Significant digits (no sign, leading or trailing zeros, point or exponent) halved and rounded up, plus one. */
function numberBytes(text: string): number {
  const digits = text.toLowerCase().split('e')[0].replace(/[-+.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}
