import land06 from './land/06/schema_001.json' with { type: 'json' };
import land061 from './land/06/1/schema_001.json' with { type: 'json' };
import type { SchemaEntry } from './registry.ts';

/**
 * The item schemas' documents by id, imported statically (the bundle needs no file system), and only where they are
 * served whole: GET /api/schemas and the validator generator.
 */
const DOCUMENTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = Object.fromEntries(
  [land06, land061].map((schema) => [schema.id, schema]),
);

/** The JSON Schema document of an entry of the index (schemas/registry.ts). */
export function schemaDocument(entry: Pick<SchemaEntry, 'id'>): Readonly<Record<string, unknown>> {
  const schema = DOCUMENTS[entry.id];
  if (!schema) throw new Error(`no schema document ${entry.id}`);
  return schema;
}
