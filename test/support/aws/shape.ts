/**
 * The shape walk of the event-parity checks: every field of an AWS fixture must be in the local stand-in's event with
 * the same JSON type, and the local event may have no field AWS does not send (a consumer could come to rely on it).
 * Maps whose keys are data (headers, query, path parameters, the authorizer's context) are compared by their values'
 * types; DynamoDB JSON images by the attribute encoding of each value.
 */
export interface ShapeRules {
  /** Paths (`a.b`, `*` for any key) of maps whose keys are data: each local value must have a fixture value's type. */
  maps?: readonly string[];
  /** Paths of DynamoDB JSON images (`Keys`, `NewImage`, `OldImage`): each value a well-formed attribute value. */
  images?: readonly string[];
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const matches = (patterns: readonly string[] | undefined, path: string) =>
  (patterns ?? []).some((p) => new RegExp(`^${p.replace(/\./g, '\\.').replace(/\*/g, '[^.]+')}$`).test(path));
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** What differs, one line a field (empty: the same shape). */
export function shapeDiff(aws: unknown, local: unknown, rules: ShapeRules = {}, path = ''): string[] {
  const at = path || '(event)';
  if (local === undefined) return [`missing ${at}`];
  if (kind(aws) !== kind(local)) return [`${at} is ${kind(local)}, AWS sends ${kind(aws)}`];
  if (matches(rules.images, path)) return imageDiff(local as Record<string, unknown>, path);
  if (Array.isArray(aws))
    return aws.length && (local as unknown[]).length
      ? shapeDiff(aws[0], (local as unknown[])[0], rules, `${path}[]`)
      : [];
  if (kind(aws) !== 'object') return [];
  const a = aws as Record<string, unknown>;
  const l = local as Record<string, unknown>;
  if (matches(rules.maps, path)) {
    const types = new Set(Object.values(a).map(kind));
    return Object.entries(l).flatMap(([k, v]) =>
      types.has(kind(v)) ? [] : [`${join(path, k)} is ${kind(v)}, AWS sends ${[...types].join(' or ')}`],
    );
  }
  return [
    ...Object.keys(a)
      .filter((k) => a[k] !== undefined)
      .flatMap((k) => shapeDiff(a[k], l[k], rules, join(path, k))),
    ...Object.keys(l)
      .filter((k) => l[k] !== undefined && a[k] === undefined)
      .map((k) => `extra ${join(path, k)} (AWS does not send it)`),
  ];
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isText = (v: unknown) => typeof v === 'string';
const ATTRIBUTE: Record<string, (v: unknown, path: string) => string[]> = {
  S: (v, p) => (isText(v) ? [] : [`${p}.S is not a string`]),
  N: (v, p) => (isText(v) && v !== '' && Number.isFinite(Number(v)) ? [] : [`${p}.N is not a number in a string`]),
  B: (v, p) => (isText(v) && BASE64.test(v as string) ? [] : [`${p}.B is not base64 text`]),
  BOOL: (v, p) => (typeof v === 'boolean' ? [] : [`${p}.BOOL is not a boolean`]),
  NULL: (v, p) => (v === true ? [] : [`${p}.NULL is not true`]),
  SS: (v, p) => (Array.isArray(v) && v.every(isText) ? [] : [`${p}.SS is not a list of strings`]),
  NS: (v, p) => (Array.isArray(v) && v.every(isText) ? [] : [`${p}.NS is not a list of numbers in strings`]),
  BS: (v, p) => (Array.isArray(v) && v.every((b) => isText(b) && BASE64.test(b)) ? [] : [`${p}.BS is not base64 text`]),
  L: (v, p) =>
    Array.isArray(v) ? v.flatMap((item, i) => attributeDiff(item, `${p}.L[${i}]`)) : [`${p}.L is not a list`],
  M: (v, p) => (kind(v) === 'object' ? imageDiff(v as Record<string, unknown>, `${p}.M`) : [`${p}.M is not a map`]),
};
function attributeDiff(value: unknown, path: string): string[] {
  const keys = kind(value) === 'object' ? Object.keys(value as object) : [];
  if (keys.length !== 1 || !ATTRIBUTE[keys[0]]) return [`${path} is not a DynamoDB JSON attribute value`];
  return ATTRIBUTE[keys[0]]((value as Record<string, unknown>)[keys[0]], path);
}
const imageDiff = (image: Record<string, unknown>, path: string) =>
  Object.entries(image).flatMap(([k, v]) => attributeDiff(v, join(path, k)));
