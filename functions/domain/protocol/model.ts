import { UnprocessableError } from '../kernel/errors.ts';
import { isObject, keysOf, pick, type JsonRecord } from '../kernel/objects.ts';
import { rogueFieldEntries } from '../kernel/validation.ts';

/**
 * The protocol as data (issue 22): one declaration per object of the original models, each naming the original file
 * it was written from. A declaration lists every field the original model knows, with its type as a JSON Schema, and
 * Agora's own additions apart (`ours`, each with the reason). The request schemas, the fields a role may write on
 * create and edit on PATCH, and the generated request types are all derived from these declarations.
 *
 * The originals' rule (openprocurement.api `validate_data`, `apply_data_patch`): a field the model does not know, at
 * any depth, is 422 "Rogue field"; a field it knows but this role may not write now is dropped without a word.
 */

export type JsonSchema = Record<string, unknown>;

export interface ObjectModel<F extends string = string> {
  /** The original model this declaration was written from: repository, file and class. */
  readonly source: string;
  /** Every field the original model knows (and ours), with its type. */
  readonly fields: Readonly<Record<F, JsonSchema>>;
  /** Fields the original model lacked that Agora adds, each with why. */
  readonly ours?: Partial<Readonly<Record<F, string>>>;
  /** Fields the original model knows that Agora never takes from a client, each with why (the survey's table). */
  readonly refused?: Partial<Readonly<Record<F, string>>>;
  /** Fields an object written whole must carry. */
  readonly required?: readonly F[];
}

/** Declares an object model; the type keeps the field names, so role lists are checked against them. */
export function declare<const T extends Readonly<Record<string, JsonSchema>>>(model: {
  readonly source: string;
  readonly fields: T;
  readonly ours?: Partial<Readonly<Record<keyof T & string, string>>>;
  readonly refused?: Partial<Readonly<Record<keyof T & string, string>>>;
  readonly required?: readonly (keyof T & string)[];
}): ObjectModel<keyof T & string> {
  return model;
}

/** The names of a model's fields. */
export const fieldsOf = <F extends string>(model: ObjectModel<F>): F[] => keysOf(model.fields);

/**
 * The closed JSON Schema of the fields a role writes (all of them by default): unknown fields are refused at every
 * depth (the request schemas are served closed by `closed` too), the model's required fields that are written stay
 * required unless `required` says otherwise.
 */
export function schemaOf<F extends string>(
  model: ObjectModel<F>,
  options: { only?: readonly F[]; required?: readonly F[]; override?: Partial<Record<F, JsonSchema>> } = {},
): JsonSchema {
  const names = options.only ?? fieldsOf(model);
  const required = (options.required ?? model.required ?? []).filter((f) => names.includes(f));
  return {
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 && { required: [...required] }),
    properties: Object.fromEntries(names.map((f) => [f, options.override?.[f] ?? model.fields[f]])),
  };
}

/**
 * The paths of the fields of `value` that `schema` does not know, at any depth: an object schema with `properties`
 * knows no others unless it says so (as `closed` closes the request schemas served); of `anyOf`/`oneOf` branches, the
 * one that knows them all. `__proto__` and `constructor` are unknown like any other name. Linear in the value.
 */
export function unknownFields(schema: unknown, value: unknown, at: readonly string[] = []): string[][] {
  if (!isObject(schema)) return [];
  const found: string[][] = [];
  if (Array.isArray(value) && isObject(schema.items))
    for (const [i, item] of value.entries()) found.push(...unknownFields(schema.items, item, [...at, String(i)]));
  if (isObject(value) && (isObject(schema.properties) || isObject(schema.additionalProperties))) {
    const known = isObject(schema.properties) ? schema.properties : {};
    const patterns = Object.entries(isObject(schema.patternProperties) ? schema.patternProperties : {});
    for (const [key, field] of Object.entries(value)) {
      const sub = Object.hasOwn(known, key)
        ? known[key]
        : (patterns.find(([pattern]) => new RegExp(pattern, 'u').test(key))?.[1] ?? schema.additionalProperties);
      if (sub === undefined ? isObject(schema.properties) : sub === false) found.push([...at, key]);
      else found.push(...unknownFields(sub, field, [...at, key]));
    }
  }
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) found.push(...unknownFields(part, value, at));
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches?.length) {
    const each = branches.map((branch) => unknownFields(branch, value, at));
    if (!each.some((paths) => paths.length === 0)) found.push(...each[0]);
  }
  return found;
}

/**
 * The originals' first step (a strict import of the whole model, whatever the role may write): a field the model
 * does not know, at any depth, is 422 "Rogue field". `keys`: the top-level fields to look into (all by default).
 */
function assertNoUnknown(model: ObjectModel, data: JsonRecord, keys: readonly string[] = Object.keys(data)): void {
  const rogue = keys.flatMap((key) =>
    Object.hasOwn(model.fields, key) ? unknownFields(model.fields[key], data[key], [key]) : [[key]],
  );
  if (rogue.length > 0) throw new UnprocessableError(rogueFieldEntries(rogue));
}

/** A body with no field the model does not know, at any depth (else 422 "Rogue field"), as an object for picking. */
export function assertKnown(model: ObjectModel, data: JsonRecord): JsonRecord {
  assertNoUnknown(model, data);
  return data;
}

/**
 * The fields of `data` the role may write: a known field outside `fields` is dropped without a word, once nothing
 * unknown hides in it (422 "Rogue field", as the originals' strict import refused it before the role's pick); an
 * unknown top-level field is kept, for the closed schema the result is checked with to refuse as "Rogue field"
 * together with every other error of the body, as the originals answered. Only for bodies checked by a schema next
 * (else `assertKnown`).
 */
export function writable<F extends string>(
  model: ObjectModel<F>,
  data: JsonRecord,
  fields: readonly NoInfer<F>[] | readonly string[],
): JsonRecord {
  const allowed = new Set<string>(fields);
  assertNoUnknown(
    model,
    data,
    Object.keys(data).filter((key) => Object.hasOwn(model.fields, key) && !allowed.has(key)),
  );
  const out = pick(data, fields);
  for (const key of Object.keys(data)) if (!Object.hasOwn(model.fields, key)) out[key] = data[key];
  return out;
}

/** Bounds every body stays within (issue 27): no single string or list makes an item larger than DynamoDB keeps. */
export const BOUNDS = {
  /** ids, codes, schemes, short names */
  code: 200,
  /** names, titles, addresses, URLs */
  name: 2_000,
  /** descriptions and other free text */
  text: 20_000,
  /** a list that is not bounded by its own rule */
  items: 100,
} as const;

const SHORT = { type: 'string', maxLength: BOUNDS.code } as const;
const NAME = { type: 'string', maxLength: BOUNDS.name } as const;
const TEXT = { type: 'string', maxLength: BOUNDS.text } as const;

/** A short string (ids, codes, schemes); `min` 1 where the original refused an empty one. */
export const code = (min?: number) => ({ ...SHORT, ...(min !== undefined && { minLength: min }) });
/** A name, title, street or URL. */
export const name = (min?: number) => ({ ...NAME, ...(min !== undefined && { minLength: min }) });
/** Free text: descriptions, reasons, answers. */
export const text = (min?: number) => ({ ...TEXT, ...(min !== undefined && { minLength: min }) });
/** A list of `items`, at most `max`. */
export const list = (items: JsonSchema, max: number = BOUNDS.items, extra: JsonSchema = {}) => ({
  type: 'array',
  maxItems: max,
  items,
  ...extra,
});
/** A field the original model has and the server sets (ids, dates, statuses): known, never taken from a client. */
export const serverSet = {} as const;

/** A field and its translations, typed by name: schemas built with it keep their property names for their types. */
type Multilingual<N extends string, S extends JsonSchema> = { [K in N]: S } & {
  [K in `${N}_en` | `${N}_ru`]: Omit<S, 'minLength'>;
};
/** A text field and its `_en` / `_ru` translations, as the originals' multilingual fields (translations may be empty). */
export function multilingual<const N extends string>(field: N): Multilingual<N, typeof TEXT>;
export function multilingual<const N extends string, const S extends JsonSchema>(
  field: N,
  schema: S,
): Multilingual<N, S>;
export function multilingual(field: string, schema: JsonSchema = TEXT): JsonSchema {
  const { minLength: _optional, ...plain } = schema;
  return { [field]: schema, [`${field}_en`]: plain, [`${field}_ru`]: plain };
}

/**
 * Gives every string without a bound `BOUNDS.text` and every list without one `BOUNDS.items` (in schema positions
 * only): the bound of a field not declared with a tighter one. A copy: the schema given is left as declared
 * (schemas/request-schemas.ts serves the bounded copies).
 */
export function bounded(schema: JsonSchema): JsonSchema {
  const copy: JsonSchema = { ...schema };
  const boundedIf = (part: unknown) => (isObject(part) ? bounded(part) : part);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (
    types.includes('string') &&
    schema.maxLength === undefined &&
    schema.enum === undefined &&
    schema.const === undefined
  )
    copy.maxLength = BOUNDS.text;
  if (types.includes('array') && schema.maxItems === undefined) copy.maxItems = BOUNDS.items;
  for (const key of ['properties', 'patternProperties']) {
    const fields = schema[key];
    if (isObject(fields)) copy[key] = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, boundedIf(v)]));
  }
  for (const key of ['items', 'additionalProperties', 'then', 'else']) {
    const part = schema[key];
    if (isObject(part)) copy[key] = bounded(part);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const parts = schema[key];
    if (Array.isArray(parts)) copy[key] = parts.map(boundedIf);
  }
  return copy;
}

/**
 * Re-checks an object after a PATCH merged `patch` into it, holding the client to what it wrote: errors in fields the
 * PATCH did not write are not its own (an object stored by an earlier release may carry what the model now refuses)
 * and do not refuse it. Errors in the written fields stand.
 */
export function checkEdited<T>(check: (data: T) => void, merged: T, patch: JsonRecord): void {
  try {
    check(merged);
  } catch (error) {
    if (!(error instanceof UnprocessableError)) throw error;
    const own = error.entries.filter((e) => Object.hasOwn(patch, e.name));
    if (own.length > 0) throw new UnprocessableError(own);
  }
}

/** An object without the fields its model knows but Agora drops (`refused`), as the originals' roles dropped them. */
export function withoutRefused(model: ObjectModel, value: unknown): unknown {
  if (!isObject(value) || !model.refused) return value;
  const out = { ...value };
  for (const key of Object.keys(model.refused)) delete out[key];
  return out;
}
