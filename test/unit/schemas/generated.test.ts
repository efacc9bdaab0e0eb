import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  generateRoomValidators,
  generateValidators,
  OUTPUT,
  REQUEST_TYPES_OUTPUT,
  requestTypes,
  ROOM_OUTPUT,
  ROOM_TYPES_OUTPUT,
  roomTypes,
} from '../../../bin/build-schema-validators.ts';

/** Each generator's committed output: equal to what it generates now, and free of imports at run time. */
describe.each([
  { name: 'standalone validators', source: 'the schema JSON files', generate: generateValidators, output: OUTPUT },
  {
    name: 'room message validators',
    source: 'functions/room/protocol.schema.json',
    generate: generateRoomValidators,
    output: ROOM_OUTPUT,
  },
])('generated $name', ({ source, generate, output }) => {
  it(`are up to date with ${source} (else run: npm run generate)`, () => {
    const { js, dts } = generate();
    expect(readFileSync(output.js, 'utf8')).toBe(js);
    expect(readFileSync(output.dts, 'utf8')).toBe(dts);
  });

  it('do not import ajv or anything else at run time', () => {
    expect(readFileSync(output.js, 'utf8')).not.toMatch(/\bimport\b|\brequire\(/);
  });
});

describe('generated request types', () => {
  it('are up to date with the request schemas (else run: npm run generate)', () => {
    expect(readFileSync(REQUEST_TYPES_OUTPUT, 'utf8')).toBe(requestTypes());
  });
});

describe('generated room message types', () => {
  it('are up to date with functions/room/protocol.schema.json (else run: npm run generate)', () => {
    expect(readFileSync(ROOM_TYPES_OUTPUT, 'utf8')).toBe(roomTypes());
  });
});
