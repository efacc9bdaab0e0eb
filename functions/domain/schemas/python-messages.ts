import type { ErrorObject } from 'ajv';
import { isObject } from '../kernel/objects.ts';

/**
 * Turns ajv error objects into the texts Python's `jsonschema` (draft 4) gives for the same
 * failures, which is what the reference service returns: `'region' is a required property`.
 */

/** Python `repr()` of a JSON value. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return pyStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyStr(k)}: ${pyRepr(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

function pyStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp === 0x2028 || cp === 0x2029) out += `\\u${cp.toString(16)}`;
    else out += ch;
  }
  return out + quote;
}

/** Integers print as Python ints; other numbers as Python floats (`1.5e-05`, `1e+16`). */
function pyNumber(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'nan' : n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n)) return BigInt(n).toString();
  const [mantissa, exp] = n.toExponential().split('e');
  const e = Number(exp);
  // Python switches to exponent form outside [1e-4, 1e16); inside it JS already prints fixed digits.
  if (e >= -4 && e < 16) return String(n);
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** The value an error's `instancePath` (a JSON pointer) points at. */
function at(instance: unknown, pointer: string): unknown {
  let value = instance;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    value = Array.isArray(value) ? value[Number(key)] : isObject(value) ? value[key] : undefined;
  }
  return value;
}

const depth = (e: ErrorObject) => (e.instancePath === '' ? 0 : e.instancePath.split('/').length - 1);

/**
 * One message per failure. Errors nearest the root come first (jsonschema's `best_match`
 * prefers them, so the first message is the one the reference would raise); additional
 * properties of one object are reported together, as jsonschema does.
 */
export function jsonschemaMessages(errors: readonly ErrorObject[], instance: unknown): string[] {
  const sorted = [...errors].sort((a, b) => depth(a) - depth(b));
  const out: Array<() => string> = [];
  const extras = new Map<string, string[]>();
  for (const error of sorted) {
    if (error.keyword !== 'additionalProperties') {
      const message = messageFor(error, at(instance, error.instancePath));
      out.push(() => message);
      continue;
    }
    const name = String(error.params.additionalProperty);
    const names = extras.get(error.instancePath);
    if (names) {
      names.push(name);
      continue;
    }
    const first = [name];
    extras.set(error.instancePath, first);
    out.push(
      () =>
        `Additional properties are not allowed (${first.map(pyRepr).join(', ')} ${first.length === 1 ? 'was' : 'were'} unexpected)`,
    );
  }
  return out.map((message) => message());
}

function messageFor(error: ErrorObject, value: unknown): string {
  const p: Record<string, unknown> = error.params;
  const v = pyRepr(value);
  switch (error.keyword) {
    case 'required':
      return `${pyRepr(p.missingProperty)} is a required property`;
    case 'type':
      return `${v} is not of type ${String(p.type)
        .split(',')
        .map((t) => pyRepr(t))
        .join(', ')}`;
    case 'enum':
      return `${v} is not one of ${pyRepr(p.allowedValues)}`;
    case 'minimum':
      return `${v} is less than ${p.comparison === '>' ? 'or equal to ' : ''}the minimum of ${pyRepr(p.limit)}`;
    case 'maximum':
      return `${v} is greater than ${p.comparison === '<' ? 'or equal to ' : ''}the maximum of ${pyRepr(p.limit)}`;
    case 'minLength':
    case 'minItems':
      return `${v} is too short`;
    case 'maxLength':
    case 'maxItems':
      return `${v} is too long`;
    case 'pattern':
      return `${v} does not match ${pyRepr(p.pattern)}`;
    case 'uniqueItems':
      return `${v} has non-unique elements`;
    default:
      return `${v} is not valid under the given schema (${error.keyword})`;
  }
}
