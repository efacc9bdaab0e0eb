/**
 * The item schemas (`schema_properties`), one entry per family code and version: the index alone. The documents
 * themselves (schemas/documents.ts) are imported only where they are served whole, so a Lambda that checks items
 * (with validators compiled from them, loaded apart) does not carry them.
 *
 * Upstream keeps them in a directory tree (`schemas/06/1/schema_001.json` is family `061`,
 * version `001`); the files keep that layout under `land/`.
 */
export interface SchemaEntry {
  /** Family code: the classification-code prefix the schema applies to (`'06'`, `'061'`). */
  code: string;
  /** Three digits (`'001'`); the highest one is `latest`. */
  version: string;
  /** `urn:cav:<8-digit code>-<check digit>.<version>`: the document's `id` (a unit test holds the two together). */
  id: string;
}

const SCHEMAS: readonly SchemaEntry[] = [
  { code: '06', version: '001', id: 'urn:cav:06000000-2.001' },
  { code: '061', version: '001', id: 'urn:cav:06100000-3.001' },
];

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
