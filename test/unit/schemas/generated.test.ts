import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  generateValidators,
  OUTPUT,
  REQUEST_TYPES_OUTPUT,
  requestTypes,
} from '../../../bin/build-schema-validators.ts';

describe('generated standalone validators', () => {
  it('are up to date with the schema JSON files (else run: npx tsx bin/build-schema-validators.ts)', () => {
    const { js, dts } = generateValidators();
    expect(readFileSync(OUTPUT.js, 'utf8')).toBe(js);
    expect(readFileSync(OUTPUT.dts, 'utf8')).toBe(dts);
  });

  it('do not import ajv or anything else at run time', () => {
    expect(readFileSync(OUTPUT.js, 'utf8')).not.toMatch(/\bimport\b|\brequire\(/);
  });
});

describe('generated request types', () => {
  it('are up to date with the request schemas (else run: npm run generate)', () => {
    expect(readFileSync(REQUEST_TYPES_OUTPUT, 'utf8')).toBe(requestTypes());
  });
});
