import { UnprocessableError } from '../kernel/errors.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import { validateSchemaProperties } from './validate-schema-properties.ts';

/**
 * `schema_properties` as the registries accept them (assets, auctions): validated, normalised to the matched
 * schema's code and version, and refused with a 422 in the upstream shape.
 */

/**
 * `schema_properties` of one item-like object (an item, or a basic asset itself): validated against the land-parcel
 * schemas and normalised to the matched schema's code and version. Returns the messages instead of throwing.
 */
export function schemaPropertiesOf(item: JsonRecord): { item: JsonRecord; errors: string[] } {
  if (item.schema_properties === undefined) return { item, errors: [] };
  const { errors, normalized } = validateSchemaProperties(item);
  if (errors.length) return { item, errors };
  return { item: { ...item, schema_properties: { ...item.schema_properties, ...normalized } }, errors: [] };
}

/** `schema_properties` of an object whose own field it is: a 422 on `schema_properties`. */
export function acceptSchemaProperties(item: JsonRecord): JsonRecord {
  const { item: accepted, errors } = schemaPropertiesOf(item);
  if (errors.length) throw UnprocessableError.field('schema_properties', ...errors);
  return accepted;
}

/** `schema_properties` of each item of `items`: a 422 on `items`, `[{}, {schema_properties: [...]}]` (failing index). */
export function acceptItemsSchemaProperties(fields: JsonRecord): JsonRecord {
  if (!Array.isArray(fields.items)) return fields;
  const results = fields.items.map((item: JsonRecord) => schemaPropertiesOf(item));
  if (results.some((r) => r.errors.length)) {
    throw new UnprocessableError({
      location: 'body',
      name: 'items',
      description: results.map((r) => (r.errors.length ? { schema_properties: r.errors } : {})),
    });
  }
  return { ...fields, items: results.map((r) => r.item) };
}
