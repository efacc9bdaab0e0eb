import { Ajv, type Options } from 'ajv';
import { formats } from './json-schema-runtime.ts';
import type { JsonRecord } from './objects.ts';
import { closed, schemaCheck, type Check } from './validation.ts';

/**
 * The JSON Schema compiler (ajv), for build time and tools only: the generator of the body validators
 * (bin/build-schema-validators.ts) and the CLIs (bin/organizations.ts). Lambda code never imports this module: its
 * bodies are checked by the validators compiled ahead of time (schemas/generated/request-validators.js), which is
 * what keeps about 120 KB of compiler out of every bundle.
 */
export const AJV_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true } as const satisfies Options;

export function newAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...options });
  ajv.addVocabulary(['x-messages']);
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
  return ajv;
}

let shared: Ajv | undefined;

/**
 * A check compiled now, at run time, of the schema closed as the request schemas are (tools; a Lambda uses
 * `schemaCheck` with a generated validator).
 */
export function compileCheck(schema: JsonRecord): Check {
  shared ??= newAjv();
  const served = closed(schema);
  return schemaCheck(served, shared.compile(served));
}
