import land06 from './land/06/schema_001.json' with { type: 'json' };
import land061 from './land/06/1/schema_001.json' with { type: 'json' };

/**
 * The item schemas (`schema_properties`), one entry per family code and version.
 *
 * Upstream keeps them in a directory tree (`schemas/06/1/schema_001.json` is family `061`,
 * version `001`); the files here keep that layout under `land/`, and are imported statically
 * so the bundle needs no file system.
 */
export interface SchemaEntry {
  /** Family code: the classification-code prefix the schema applies to (`'06'`, `'061'`). */
  code: string;
  /** Three digits (`'001'`); the highest one is `latest`. */
  version: string;
  /** `urn:cav:<8-digit code>-<check digit>.<version>` */
  id: string;
  schema: Readonly<Record<string, unknown>>;
}

const entry = (code: string, version: string, schema: { id: string }): SchemaEntry => ({
  code,
  version,
  id: schema.id,
  schema,
});

const SCHEMAS: readonly SchemaEntry[] = [entry('06', '001', land06), entry('061', '001', land061)];

export const listSchemas = (): readonly SchemaEntry[] => SCHEMAS;

/**
 * The schema for a classification id (`'06110000-6'`) or bare code (`'0611'`): the family with the
 * longest code that prefixes the digits before `-`, then `version` within it (absent or `'latest'`
 * = highest). Undefined when no family matches or the family has no such version.
 */
export function findSchema(classificationId: string, version?: string): SchemaEntry | undefined {
  const digits = classificationId.split('-')[0];
  let family: string | undefined;
  for (const { code } of SCHEMAS) {
    if (digits.startsWith(code) && (family === undefined || code.length > family.length)) family = code;
  }
  if (family === undefined) return undefined;
  const versions = SCHEMAS.filter((s) => s.code === family);
  if (version === undefined || version === 'latest') {
    return versions.reduce((a, b) => (b.version > a.version ? b : a));
  }
  return versions.find((s) => s.version === version);
}
