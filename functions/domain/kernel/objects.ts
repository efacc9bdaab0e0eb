/** Plain JSON object helpers shared by every registry. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/**
 * `any`-valued: the domain no longer uses it (it takes `JsonRecord` and narrows, or a record type); the HTTP kit, the
 * idempotency records and the migrations still do, outside the domain.
 */
export type JsonObject = { [key: string]: any };
/** A JSON object whose values are not known yet (a body before its check, a stored object read back): narrow first. */
export type JsonRecord = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * PATCH semantics: objects merge key by key, arrays and scalars replace, `null` removes the field
 * (e.g. the concierge's `relatedLot: null`).
 */
export function mergePatch<T extends object>(target: T, patch: object): T {
  const out: JsonRecord = { ...(target as JsonRecord) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isObject(value) && isObject(out[key])) out[key] = mergePatch(out[key], value);
    else out[key] = value;
  }
  return out as T;
}

/** `object` with every field it lacks taken from `defaults`, recursively (what `object` has always wins). */
export function withDefaults(object: object, defaults: object): JsonRecord {
  const out: JsonRecord = { ...object };
  for (const [key, value] of Object.entries(defaults)) {
    if (out[key] === undefined) out[key] = value;
    else if (isObject(out[key]) && isObject(value)) out[key] = withDefaults(out[key], value);
  }
  return out;
}

/** Keeps only the listed top-level keys: fields a role may not change are dropped silently, as upstream. */
export function pick(source: object, keys: readonly string[]): JsonRecord {
  const out: JsonRecord = {};
  for (const key of keys) if (key in source) out[key] = (source as JsonRecord)[key];
  return out;
}

export function omit(source: object, keys: readonly string[]): JsonRecord {
  const out: JsonRecord = { ...source };
  for (const key of keys) delete out[key];
  return out;
}

/** Deep structural equality of JSON values (key order ignored): an unchanged PATCH saves nothing. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}
