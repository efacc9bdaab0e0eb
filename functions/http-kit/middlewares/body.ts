import { PayloadTooLargeError, UnprocessableError, UnsupportedMediaTypeError } from '#domain/kernel/errors.ts';
import { isObject, type JsonRecord } from '#domain/kernel/objects.ts';
import { rogueFieldEntries } from '#domain/kernel/validation.ts';
import type { Event, KitMiddleware } from '../types.ts';

/**
 * The largest JSON body taken: an item DynamoDB stores is at most 400 KB, so a larger body can never be saved and is
 * refused before it is parsed. File uploads (`body: 'binary'`) are bounded by the gateway and the file store.
 */
export const MAX_JSON_BODY_BYTES = 400 * 1024;
/** Arrays and objects nested deeper than this are refused before parsing (DynamoDB stores 32 levels at most). */
export const MAX_JSON_DEPTH = 32;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export const rawBytes = (event: Event): Buffer =>
  Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');

/**
 * The JSON body of a write (POST, PUT, PATCH; not a file upload, nor an unknown path, which answers 404 whatever its
 * body): `application/json` (else 415), at most MAX_JSON_BODY_BYTES (413) and MAX_JSON_DEPTH levels, an object with a
 * `data` object whose numbers DynamoDB keeps exactly (else 422). A route that takes no body (`optional`) may be sent
 * none.
 */
export const body = (): KitMiddleware => ({
  before: ({ event, context }) => {
    const rule = context.rule!;
    if (!BODY_METHODS.has(event.requestContext.http.method) || rule.body === 'binary' || rule.key === '$default')
      return;
    // A route that takes nothing (routes.ts `body: 'optional'`) is called with no body, or an empty one, of any type.
    if (rule.body === 'optional' && !event.body) context.body = { data: {} };
    else context.body = parseBody(event);
  },
});

function parseBody(event: Event): JsonRecord {
  const contentType = (event.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw new UnsupportedMediaTypeError({
      location: 'header',
      name: 'Content-Type',
      description: "Content-Type header should be one of ['application/json']",
    });
  }
  const size =
    event.body === undefined
      ? 0
      : event.isBase64Encoded
        ? Math.floor((event.body.length * 3) / 4)
        : Buffer.byteLength(event.body);
  if (size > MAX_JSON_BODY_BYTES) throw new PayloadTooLargeError(MAX_JSON_BODY_BYTES);
  const raw = rawBytes(event).toString('utf8');
  if (nestingDepth(raw) > MAX_JSON_DEPTH)
    throw UnprocessableError.data(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw UnprocessableError.data(notJson(raw) ?? (error as Error).message);
  }
  if (!isObject(parsed) || !isObject(parsed.data)) throw UnprocessableError.data('Data not available');
  const reserved = reservedMembers(parsed);
  if (reserved.length > 0)
    throw new UnprocessableError(
      rogueFieldEntries(reserved.map((path) => (path[0] === 'data' ? path.slice(1) : path))),
    );
  assertStorableNumbers(parsed.data);
  return parsed;
}

/**
 * The paths of `__proto__` and `constructor` members, at any depth: never a field of any model, so refused as
 * "Rogue field" like every unknown one (JSON.parse makes them own members; merged into an object, `__proto__` would
 * set its prototype, and an own `constructor` makes the DynamoDB marshaller take the object for a class instance).
 */
function reservedMembers(value: unknown, at: string[] = [], found: string[][] = []): string[][] {
  if (Array.isArray(value)) for (const [i, item] of value.entries()) reservedMembers(item, [...at, String(i)], found);
  else if (isObject(value))
    for (const [key, member] of Object.entries(value)) {
      if (key === '__proto__' || key === 'constructor') found.push([...at, key]);
      else reservedMembers(member, [...at, key], found);
    }
  return found;
}

/** The deepest nesting of `[` and `{` in JSON text (outside strings): one pass, no recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * Numbers must survive storage exactly: integers within ±2^53 (what JavaScript and the SDK keep exact) and no
 * magnitude DynamoDB cannot hold (below 1e-130 or above 1e125). Anything else is a 422 on its top-level field.
 */
function assertStorableNumbers(data: JsonRecord): void {
  const storable = (n: number) => {
    const size = Math.abs(n);
    return size === 0 || (size >= 1e-130 && size <= Number.MAX_SAFE_INTEGER);
  };
  const bad = (value: unknown): boolean =>
    typeof value === 'number'
      ? !storable(value)
      : Array.isArray(value)
        ? value.some(bad)
        : isObject(value) && Object.values(value).some(bad);
  for (const [field, value] of Object.entries(data)) {
    if (bad(value)) throw UnprocessableError.field(field, 'Number is out of range.');
  }
}

/**
 * Python's text for a body that does not even start as JSON (`data`, a form): what the originals answered
 * ("Expecting value: line 1 column 1 (char 0)"); other syntax errors keep the parser's own text.
 */
function notJson(raw: string): string | undefined {
  const at = raw.search(/\S/);
  if (at >= 0 && /^[[{"\-0-9tfn]/.test(raw[at]!)) return undefined;
  const offset = at < 0 ? raw.length : at;
  const before = raw.slice(0, offset).split('\n');
  return `Expecting value: line ${before.length} column ${before[before.length - 1]!.length + 1} (char ${offset})`;
}
