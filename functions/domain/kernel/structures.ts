import { addressSchema } from './organization.ts';

/** JSON Schemas of the shared structures of interface.md §2.2 other than Organization (see organization.ts). */

/** A text field and its `_en` / `_ru` translations, as upstream's multilingual fields. */
export function multilingual<const N extends string, const S extends object = { readonly type: 'string' }>(
  name: N,
  schema: S = { type: 'string' } as S,
): { [K in N]: S } & { [K in `${N}_en` | `${N}_ru`]: { readonly type: 'string' } } {
  // Typed by name so that schemas built with it keep their property names for json-schema-to-ts.
  return { [name]: schema, [`${name}_en`]: { type: 'string' }, [`${name}_ru`]: { type: 'string' } } as never;
}

/** `classification` of an item: `id` shaped `<8 digits>-<check digit>` (the digit is not recomputed: the CAV list has errata). */
export const itemClassificationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['scheme', 'id', 'description'],
  properties: {
    scheme: { type: 'string', minLength: 1 },
    id: { type: 'string', pattern: '^\\d{8}-\\d$' },
    ...multilingual('description', { type: 'string', minLength: 1 }),
    uri: { type: 'string', format: 'uri' },
  },
};

/** An entry of `additionalClassifications` (schemes such as `UA-EDR`, `kvtspz`, `cadastralNumber`: any id text). */
export const classificationSchema = {
  ...itemClassificationSchema,
  properties: { ...itemClassificationSchema.properties, id: { type: 'string', minLength: 1 } },
};

export const unitSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code'],
  properties: {
    code: { type: 'string', minLength: 1 },
    name: { type: 'string' },
    name_en: { type: 'string' },
    name_ru: { type: 'string' },
  },
};

/** Money. The server fills `currency` (`UAH`) and `valueAddedTaxIncluded` (`true`) when they are not sent. */
export const valueSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['amount'],
  properties: {
    amount: { type: 'number', minimum: 0 },
    currency: { type: 'string', minLength: 3, maxLength: 3 },
    valueAddedTaxIncluded: { type: 'boolean' },
  },
};

export const locationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['latitude', 'longitude'],
  properties: {
    latitude: { type: ['number', 'string'] },
    longitude: { type: ['number', 'string'] },
    elevation: { type: ['number', 'string'] },
  },
};

export { addressSchema };
