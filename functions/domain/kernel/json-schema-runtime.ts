import { isObject } from './objects.ts';
import { parseInstant } from './time.ts';

/**
 * The regular expressions of the formats. Each matches in linear time whatever a client sends (no two ways to match
 * one character: test/unit/schemas/linear-patterns.test.ts lints them): an email is a local part, `@`, and dot-separated
 * non-empty labels (`[^@\s]+\.[^@\s]+` would let every dot of a long domain be tried as the last one: quadratic).
 */
export const FORMAT_PATTERNS = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  email: /^[^@\s]+@[^@\s.]+(?:\.[^@\s.]+)+$/,
} as const;

/**
 * What the body validators need at run time besides their own code: the formats the service defines and the two
 * helpers ajv's generated code calls. The validators are compiled at build time (schemas/generated/), so a Lambda
 * ships these few lines instead of ajv's compiler; the compiler (kernel/schema-compiler.ts) uses the same formats.
 */
export const formats = {
  'date-time': { type: 'string', validate: (s: string) => parseInstant(s) !== undefined },
  date: { type: 'string', validate: (s: string) => FORMAT_PATTERNS.date.test(s) && parseInstant(s) !== undefined },
  email: { type: 'string', validate: (s: string) => FORMAT_PATTERNS.email.test(s) },
  uri: { type: 'string', validate: (s: string) => URL.canParse(s) },
} as const;

/** String length in code points, as `maxLength` counts it (ajv's runtime/ucs2length). */
function ucs2length(text: string): number {
  let length = 0;
  for (let pos = 0; pos < text.length; length++) {
    const code = text.charCodeAt(pos++);
    if (code >= 0xd800 && code <= 0xdbff && pos < text.length && (text.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}

/** Deep equality of JSON values, as `uniqueItems` compares them (ajv's runtime/equal). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (!isObject(a) || !isObject(b)) return Number.isNaN(a) && Number.isNaN(b);
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
}

/** By the name ajv's generated code uses (`require("ajv/dist/runtime/<name>").default`). */
export const runtime = { ucs2length, equal } as const;
