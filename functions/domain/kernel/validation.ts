import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { UnprocessableError } from './errors.ts';
import { parseInstant } from './time.ts';

/**
 * One ajv instance for every body schema of the service. Each schema is compiled once per container, at its
 * first use, never per request. Errors come back in the upstream shape: one entry per top-level
 * field, messages as lists, nested fields as nested objects (schematics style).
 */
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
ajv.addVocabulary(['x-messages']);
ajv.addFormat('date-time', { type: 'string', validate: (s: string) => parseInstant(s) !== undefined });
ajv.addFormat('date', { type: 'string', validate: (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && parseInstant(s) !== undefined });
ajv.addFormat('email', { type: 'string', validate: (s: string) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s) });
ajv.addFormat('uri', { type: 'string', validate: (s: string) => URL.canParse(s) });

function message(e: ErrorObject): string {
  const custom = (e.parentSchema as { 'x-messages'?: Record<string, string> } | undefined)?.['x-messages']?.[e.keyword];
  if (custom) return custom;
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'required':
      return 'This field is required.';
    case 'additionalProperties':
      return 'Rogue field';
    case 'enum':
      return `Value must be one of [${(p.allowedValues as unknown[]).map((v) => `'${v}'`).join(', ')}].`;
    case 'const':
      return `Value must be one of ['${p.allowedValue}'].`;
    case 'type':
      return `Value must be of type ${p.type}.`;
    case 'minLength':
      return 'String value is too short.';
    case 'maxLength':
      return 'String value is too long.';
    case 'minItems':
      return `Please provide at least ${p.limit} item${p.limit === 1 ? '' : 's'}.`;
    case 'maxItems':
      return `Please provide at most ${p.limit} item${p.limit === 1 ? '' : 's'}.`;
    case 'uniqueItems':
      return 'Items should be unique.';
    case 'pattern':
      return 'String value did not match validation regex.';
    case 'format':
      return p.format === 'date-time' || p.format === 'date'
        ? 'Could not parse the value. Should be ISO8601.'
        : `Not a well-formed ${p.format}.`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `Value should be greater than or equal to ${p.limit}.`;
    case 'maximum':
      return `Value should be less than or equal to ${p.limit}.`;
    default:
      return e.message ?? 'Invalid value.';
  }
}

/** The JSON-pointer path of an error as segments, pointing at the field itself (for `required`/rogue fields too). */
function pathOf(e: ErrorObject): string[] {
  const segments = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const p = e.params as Record<string, any>;
  if (e.keyword === 'required') segments.push(p.missingProperty);
  if (e.keyword === 'additionalProperties') segments.push(p.additionalProperty);
  return segments;
}

/**
 * Turns ajv errors into upstream entries: `{location:'body', name:<field>, description:[...] | {nested}}`. A field
 * with errors of its own (e.g. too many tenderers) shows those, not its insides' (each tenderer's missing name):
 * either order of errors gives the same tree.
 */
export function toEntries(errors: ErrorObject[]): { location: 'body'; name: string; description: unknown }[] {
  const tree: Record<string, any> = {};
  const ownMessages = new WeakSet<string[]>();
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const path = pathOf(e);
    if (path.length === 0) path.push('data');
    let node: any = tree;
    for (let i = 0; i < path.length - 1 && node; i++) {
      const segment = path[i];
      const nextIsIndex = /^\d+$/.test(path[i + 1]);
      if (ownMessages.has(node[segment])) node = undefined;
      else {
        node[segment] ??= nextIsIndex ? [] : {};
        if (Array.isArray(node[segment]) && !nextIsIndex) node[segment] = { ...node[segment] };
        node = node[segment];
      }
    }
    if (!node) continue;
    const field = path[path.length - 1];
    if (!ownMessages.has(node[field])) ownMessages.add((node[field] = []));
    if (!node[field].includes(message(e))) node[field].push(message(e));
  }
  return Object.entries(tree).map(([name, description]) => ({
    location: 'body',
    name,
    description: Array.isArray(description) ? Array.from(description, (d) => d ?? {}) : description,
  }));
}

export type Check = (data: unknown) => void;

/** Every schema declared, so a test can compile them all: a lazy compile must not hide a broken schema until use. */
const declared: object[] = [];

/**
 * A check that throws a 422 in the upstream shape. The schema is compiled once per container, at the first check:
 * a Lambda that never validates a body (every read) never pays for the compile (about 100 ms for the asset types).
 */
export function compileCheck(schema: object): Check {
  closeObjects(schema);
  declared.push(schema);
  let validate: ValidateFunction | undefined;
  return (data: unknown): void => {
    validate ??= ajv.compile(schema);
    if (!validate(data)) throw new UnprocessableError(toEntries(validate.errors ?? []));
  };
}

/**
 * Unknown fields are refused at every level, as upstream's schematics models did ("Rogue field"): every object schema
 * with `properties` that the data itself is checked against (the root, its `properties`, `items`) gets
 * `additionalProperties: false` unless it says otherwise. Matchers (`contains`, `if`, `not`, `anyOf`…) only look at
 * some fields of a value and stay open. Done in place when a check is declared, so the OpenAPI document that shows the
 * same schema objects says so too.
 */
export function closeObjects(schema: unknown): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  const s = schema as Record<string, unknown>;
  if (s.properties && typeof s.properties === 'object' && !('additionalProperties' in s)) s.additionalProperties = false;
  for (const child of Object.values((s.properties ?? {}) as Record<string, unknown>)) closeObjects(child);
  for (const child of Array.isArray(s.items) ? s.items : [s.items]) closeObjects(child);
  if (Array.isArray(s.prefixItems)) s.prefixItems.forEach(closeObjects);
  if (typeof s.additionalProperties === 'object') closeObjects(s.additionalProperties);
}

/** Compiles every schema declared so far (modules already imported); throws on the first invalid one. */
export function compileDeclaredChecks(): number {
  for (const schema of declared) ajv.compile(schema);
  return declared.length;
}
