/** Plain JSON object helpers shared by every registry. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/**
 * `any`-valued: the domain and the HTTP kit no longer use it (they take `JsonRecord` and narrow, or a record type);
 * three store modules still do (aggregates.ts, batch.ts and organizations.ts: stored items read back unparsed).
 */
export type JsonObject = { [key: string]: any };
/** A JSON object whose values are not known yet (a body before its check, a stored object read back): narrow first. */
export type JsonRecord = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `value` is one of `choices`, telling the compiler so. */
export const isOneOf = <T extends string>(choices: readonly T[], value: unknown): value is T =>
  choices.some((choice) => choice === value);

/**
 * The keys of a record keyed by a known set (a status graph, a model's fields, a schema's properties). The one cast:
 * `Object.keys` types keys as strings, since a wider object may hide in a record type; these records are literals.
 */
export const keysOf = <K extends string>(record: Readonly<Partial<Record<K, unknown>>>): K[] =>
  Object.keys(record) as K[];

/**
 * PATCH semantics: objects merge key by key, arrays and scalars replace, `null` removes the field
 * (e.g. the concierge's `relatedLot: null`).
 */
export function mergePatch<T extends JsonRecord>(target: T, patch: object): T {
  const out: JsonRecord = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isObject(value) && isObject(out[key])) out[key] = mergePatch(out[key], value);
    else out[key] = value;
  }
  // Typed as the target: every caller checks the merged object (by its schema or its rules) before it keeps it.
  return out as T;
}

/**
 * `object` without one of its optional fields (only those: a required one removed would not leave a `T`): still a
 * `T`. The one cast of such removals: TypeScript types the rest of a destructuring as an `Omit`, which is not a `T`
 * (and loses the members of a union).
 */
export function withoutField<T extends object, K extends keyof T>(object: T, key: K): T {
  const { [key]: _removed, ...rest } = object;
  return rest as T;
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
export function pick(source: JsonRecord, keys: readonly string[]): JsonRecord {
  const out: JsonRecord = {};
  for (const key of keys) if (key in source) out[key] = source[key];
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
