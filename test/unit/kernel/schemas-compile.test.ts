import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateRequestValidators, REQUEST_OUTPUT } from '../../../bin/build-schema-validators.ts';
import * as generated from '../../../functions/domain/schemas/generated/request-validators.js';
import { newAjv } from '../../../functions/domain/kernel/schema-compiler.ts';
import { requestSchemas } from '../../../functions/domain/schemas/request-schemas.ts';
import { checkWith, type Validator, type ValidatorName } from '../../../functions/domain/kernel/validation.ts';
import { UnprocessableError } from '../../../functions/domain/kernel/errors.ts';

/**
 * The request body validators are compiled at build time (npm run generate) and committed; Lambdas and the local
 * gateway run the same generated code, so they cannot disagree, and these tests keep it equal to the schemas.
 */
describe('request body validators', () => {
  it('are up to date with the schemas (else run: npm run generate)', () => {
    const { js, dts } = generateRequestValidators();
    expect(readFileSync(REQUEST_OUTPUT.js, 'utf8')).toBe(js);
    expect(readFileSync(REQUEST_OUTPUT.dts, 'utf8')).toBe(dts);
  });

  it('exist for every request schema, each schema compiling under ajv strict mode', () => {
    const ajv = newAjv();
    for (const [name, schema] of Object.entries(requestSchemas)) {
      expect(typeof (generated as Record<string, unknown>)[name], name).toBe('function');
      expect(() => ajv.compile(schema), name).not.toThrow();
    }
    expect(
      Object.keys(generated)
        .filter((k) => k !== 'landParcels')
        .sort(),
    ).toEqual(Object.keys(requestSchemas).sort());
  });

  it('import nothing but the formats and helpers of kernel/json-schema-runtime.ts and the land-parcel validators (no ajv at run time)', () => {
    const imports = [
      // An import statement up to its module name: a schema's property named `from` (the calendar's) is no import.
      ...readFileSync(REQUEST_OUTPUT.js, 'utf8').matchAll(/\bimport\b[^"';]*?["']([^"']+)["']|\brequire\(/g),
    ].map((m) => m[1] ?? 'require(');
    expect(imports).toEqual(['../../kernel/json-schema-runtime.ts', './validators.js']);
  });

  it('give the same errors as ajv compiling the schema at run time, with subschemas shared', () => {
    const ajv = newAjv();
    const samples: Record<string, unknown[]> = {
      lot: [
        {},
        { title: 1, assets: ['a', 'a'], lotCustodian: { name: '', identifier: {}, address: { countryName: 5 } } },
        { rogue: true },
      ],
      question: [
        {
          title: '',
          author: { name: 'x', identifier: { scheme: 'UA-EDR' }, address: {}, contactPoint: { email: 'no' } },
        },
      ],
      dgfInsiderBid: [{ tenderers: [{}, { name: 'n' }], value: { amount: 'x', currency: 'USD' } }],
      landleaseAuction: [{ value: { amount: -1, currency: 'EUR' }, items: [{ classification: { id: 'bad' } }] }],
      document: [{ hash: 'md5:zz', url: 'no url', title: '' }],
    };
    for (const [name, inputs] of Object.entries(samples)) {
      const runtime = ajv.compile(requestSchemas[name]);
      const precompiled = (generated as unknown as Record<string, Validator>)[name];
      for (const input of inputs) {
        expect(precompiled(input), name).toBe(runtime(input));
        const key = (e: { instancePath: string; keyword: string; params: unknown }) =>
          `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`;
        expect((precompiled.errors ?? []).map(key).sort(), name).toEqual((runtime.errors ?? []).map(key).sort());
      }
    }
  });

  it("keep the schemas' own messages (x-messages), found from the error's place in the schema", () => {
    const entries = (name: string, data: unknown) => {
      try {
        checkWith(name as ValidatorName, requestSchemas[name], data);
      } catch (error) {
        if (error instanceof UnprocessableError) return error.entries;
        throw error;
      }
      return [];
    };
    expect(entries('document', { title: 't', url: 'http://x/y', hash: 'sha1:00' })).toContainEqual({
      location: 'body',
      name: 'hash',
      description: ["Hash type is not supported or hash value doesn't match the pattern md5:<32 hex characters>."],
    });
    expect(entries('lot', { assets: ['a', 'a'] })).toContainEqual({
      location: 'body',
      name: 'assets',
      description: ['Assets should be unique'],
    });
  });
});
