import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  generateRoomValidators,
  generateValidators,
  OUTPUT,
  REQUEST_TYPES_OUTPUT,
  requestTypes,
  ROOM_OUTPUT,
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

describe('generated room message validators', () => {
  it('are up to date with functions/room/protocol.schema.json (else run: npm run generate)', () => {
    const { js, dts } = generateRoomValidators();
    expect(readFileSync(ROOM_OUTPUT.js, 'utf8')).toBe(js);
    expect(readFileSync(ROOM_OUTPUT.dts, 'utf8')).toBe(dts);
  });

  it('do not import ajv or anything else at run time', () => {
    expect(readFileSync(ROOM_OUTPUT.js, 'utf8')).not.toMatch(/\bimport\b|\brequire\(/);
  });
});
