import type { ErrorObject } from 'ajv';
import { UnprocessableError } from './errors.ts';
import { isObject, type JsonRecord } from './objects.ts';

/**
 * Body checks. Each schema's validator is compiled at build time (ajv standalone code in
 * schemas/generated/request-validators.js, from the list in schemas/request-schemas.ts), so no Lambda ships or runs
 * the compiler. Errors come back in the upstream shape: one entry per top-level field, messages as lists, nested
 * fields as nested objects (schematics style).
 */

/** A validator as ajv compiles it (standalone or not). */
export interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The schema object an error's keyword sits in, found from its `schemaPath` (`#/properties/value/enum`). */
function parentSchemaOf(e: ErrorObject, root: object | undefined): JsonRecord | undefined {
  if (isObject(e.parentSchema)) return e.parentSchema;
  if (!root || !e.schemaPath.startsWith('#')) return undefined;
  const segments = e.schemaPath
    .split('/')
    .slice(1, -1)
    .map((s) => decodeURIComponent(s.replace(/~1/g, '/').replace(/~0/g, '~')));
  let node: unknown = root;
  for (const segment of segments)
    node = Array.isArray(node) ? node[Number(segment)] : isObject(node) ? node[segment] : undefined;
  return isObject(node) ? node : undefined;
}

function message(e: ErrorObject, root: object | undefined): string {
  const messages = parentSchemaOf(e, root)?.['x-messages'];
  const custom = isObject(messages) ? messages[e.keyword] : undefined;
  if (typeof custom === 'string' && custom) return custom;
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return 'This field is required.';
    case 'additionalProperties':
      return 'Rogue field';
    case 'enum':
      return `Value must be one of [${p.allowedValues.map((v: unknown) => `'${v}'`).join(', ')}].`;
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
  const segments = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const p = e.params;
  if (e.keyword === 'required') segments.push(p.missingProperty);
  if (e.keyword === 'additionalProperties') segments.push(p.additionalProperty);
  return segments;
}

/**
 * Turns ajv errors into upstream entries: `{location:'body', name:<field>, description:[...] | {nested}}`. A field
 * with errors of its own (e.g. too many tenderers) shows those, not its insides' (each tenderer's missing name):
 * either order of errors gives the same tree.
 */
export function toEntries(
  errors: ErrorObject[],
  schema?: object,
): { location: 'body'; name: string; description: unknown }[] {
  // Without a prototype: a `__proto__` field is then a member like any other, not the node's prototype.
  const tree: Record<string, any> = Object.create(null);
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
        node[segment] ??= nextIsIndex ? [] : Object.create(null);
        if (Array.isArray(node[segment]) && !nextIsIndex)
          node[segment] = Object.assign(Object.create(null), node[segment]);
        node = node[segment];
      }
    }
    if (!node) continue;
    const field = path[path.length - 1];
    if (!ownMessages.has(node[field])) {
      node[field] = [];
      ownMessages.add(node[field]);
    }
    const text = message(e, schema);
    if (!node[field].includes(text)) node[field].push(text);
  }
  return Object.entries(tree).map(([name, description]) => ({
    location: 'body',
    name,
    description: Array.isArray(description) ? Array.from(description, (d) => d ?? {}) : description,
  }));
}

/**
 * 422 entries "Rogue field" for fields found unknown outside a validator (their paths from the body's `data`), in the
 * shape `toEntries` gives ajv's own: one entry per top-level field, deeper ones nested.
 */
export function rogueFieldEntries(paths: readonly (readonly string[])[]) {
  const pointer = (segments: readonly string[]) =>
    segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return toEntries(
    paths.map((path) => ({
      keyword: 'additionalProperties',
      instancePath: pointer(path.slice(0, -1)),
      schemaPath: '#',
      params: { additionalProperty: path[path.length - 1] },
    })),
  );
}

/** A body check: throws a 422 unless `data` is valid. */
export type Check = (data: unknown) => void;
/**
 * A body check that also tells the compiler what a passed check proves: `data` is a `T` (the body's type, generated
 * from the same schema as the validator; see `checkWith`).
 */
export type CheckOf<T> = (data: unknown) => asserts data is T;

type RequestValidators = typeof import('../schemas/generated/request-validators.js');
type RequestTypes = import('../schemas/generated/request-types.ts').RequestTypes;
/** The name of a request body validator (functions/domain/schemas/request-schemas.ts). */
export type ValidatorName = Exclude<keyof RequestValidators, 'landParcels'>;

/** A name `loadValidators` can load: a body validator, or `landParcels` (schemas/validate-schema-properties.ts). */
export type LoadableName = keyof RequestValidators;
/**
 * The validators a built Lambda carries: the names its code checks with and the module beside its bundle that exports
 * just those (lib/build.ts).
 */
export interface ValidatorSource {
  readonly names: readonly LoadableName[];
  readonly load: () => Promise<Partial<RequestValidators>>;
}

const loaded: { -readonly [N in LoadableName]?: RequestValidators[N] } = {};
let loadedAll = false;

/**
 * Loads the request body validators (compiled at build time: schemas/generated/request-validators.js). They load
 * apart from a Lambda's own bundle, on demand, so a read never pays for them: the HTTP kit awaits this before the
 * handler of every route that takes a body, the bots before a run. Checks are synchronous after that. With a
 * `source` (a built Lambda or bot: only the validators its code checks with, for the route's type) just those load;
 * without (run from the sources), all of them.
 */
export async function loadValidators(source?: ValidatorSource): Promise<void> {
  if (!source) {
    if (!loadedAll) Object.assign(loaded, await import('../schemas/generated/request-validators.js'));
    loadedAll = true;
    return;
  }
  if (source.names.every((name) => loaded[name])) return;
  const module = await source.load();
  for (const name of source.names) Object.assign(loaded, { [name]: module[name] });
}

/** A validator once loaded; a name its Lambda was not built with is a packaging mistake, and fails loudly. */
function loadedValidator<N extends LoadableName>(name: N): RequestValidators[N] {
  const validator = loaded[name];
  if (!validator)
    throw new Error(`request validator "${name}" not loaded: await loadValidators() (lib/build.ts ships it)`);
  return validator;
}

/** The land-parcel item validators by schema id (schemas/generated/validators.js), once loaded. */
export function landParcelValidators(): RequestValidators['landParcels'] {
  return loadedValidator('landParcels');
}

/** Throws a 422 in the upstream shape unless `validate` accepts `data` (the validator of `schema`). */
function runCheck(validate: Validator, schema: object, data: unknown): void {
  if (!validate(data)) throw new UnprocessableError(toEntries(validate.errors ?? [], schema));
}

/**
 * Checks `data` by the generated validator `name` (that of `schema`); once it passes, `data` has the body type
 * generated from the same schema (`RequestTypes[name]`). Call sites wrap it in a function
 * (`const checkLot: CheckOf<Lot> = (data) => checkWith('lot', lotSchema, data)`).
 */
export function checkWith<N extends ValidatorName>(
  name: N,
  schema: object,
  data: unknown,
): asserts data is RequestTypes[N] {
  runCheck(loadedValidator(name), schema, data);
}

/** A Check by a validator compiled at run time (kernel/schema-compiler.ts, tools and tests). */
export const schemaCheck =
  (schema: object, validate: Validator): Check =>
  (data) =>
    runCheck(validate, schema, data);

/**
 * Unknown fields are refused at every level, as upstream's schematics models did ("Rogue field"): every object schema
 * with `properties` that the data itself is checked against (the root, its `properties`, `items`) gets
 * `additionalProperties: false` unless it says otherwise. Matchers (`contains`, `if`, `not`, `anyOf`…) only look at
 * some fields of a value and stay open. A copy: the schema given is left as declared (schemas/request-schemas.ts
 * serves the closed copies, to the validators generated from them and to the OpenAPI document alike).
 */
export function closed(schema: JsonRecord): JsonRecord {
  const copy: JsonRecord = { ...schema };
  const closedIf = (part: unknown) => (isObject(part) ? closed(part) : part);
  if (isObject(schema.properties)) {
    if (!('additionalProperties' in schema)) copy.additionalProperties = false;
    copy.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, f]) => [name, closedIf(f)]));
  }
  if (schema.items !== undefined)
    copy.items = Array.isArray(schema.items) ? schema.items.map(closedIf) : closedIf(schema.items);
  if (Array.isArray(schema.prefixItems)) copy.prefixItems = schema.prefixItems.map(closedIf);
  if (isObject(schema.additionalProperties)) copy.additionalProperties = closed(schema.additionalProperties);
  return copy;
}
