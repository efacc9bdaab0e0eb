import { landParcelValidators } from '../kernel/validation.ts';
import { jsonschemaMessages, pyRepr } from './python-messages.ts';
import { findSchema } from './registry.ts';

/** Code prefixes an asset item may use in `schema_properties` (upstream `ALLOWED_SCHEMA_PROPERIES_CODES`). */
export const ALLOWED_SCHEMA_PROPERTIES_CODES = ['04', '341', '06'] as const;

const CODE_MAX_LENGTH = 10;

export interface SchemaPropertiesItem {
  classification?: { id?: string };
  schema_properties?: { code?: string; version?: string; properties?: unknown };
}

export interface SchemaPropertiesResult {
  /** Empty when valid. Checks on `code` stop at the first failure; schema errors are all listed, root ones first. */
  errors: string[];
  /** On success: the matched schema's family code and version, which replace the item's own. */
  normalized?: { code: string; version: string };
}

/**
 * Validates an item's `schema_properties` against the item schemas. An item without
 * `schema_properties` is valid. Nothing is mutated: schema defaults are not applied, as Python's
 * jsonschema does not apply them either (and every property is required, so a default could only
 * hide a "is a required property" error).
 */
export function validateSchemaProperties(item: SchemaPropertiesItem): SchemaPropertiesResult {
  const sp = item.schema_properties;
  if (sp === undefined || sp === null) return { errors: [] };
  const { code, version } = sp;

  if (typeof code !== 'string' || code === '') return { errors: ['schema_properties code is required'] };
  if (code.length > CODE_MAX_LENGTH) return { errors: ['String value is too long.'] };
  if (!(item.classification?.id ?? '').startsWith(code)) {
    return { errors: ['classification id mismatch with schema_properties code'] };
  }
  if (!ALLOWED_SCHEMA_PROPERTIES_CODES.some((prefix) => code.startsWith(prefix))) {
    return { errors: [`schema_properties code must be one of ${pyRepr(ALLOWED_SCHEMA_PROPERTIES_CODES)}.`] };
  }

  if (findSchema(code) === undefined) return { errors: [`Can't find schema for code ${code}`] };
  const entry = findSchema(code, version);
  if (entry === undefined) return { errors: [`Can't find schema by version ${version}`] };

  const validate = landParcelValidators()[entry.id];
  if (validate(sp.properties)) return { errors: [], normalized: { code: entry.code, version: entry.version } };
  return { errors: jsonschemaMessages(validate.errors ?? [], sp.properties) };
}
