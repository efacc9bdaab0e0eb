import { describe, expect, it } from 'vitest';
import { withCheckDigit } from '../../../functions/domain/schemas/cav.ts';
import { schemaDocument } from '../../../functions/domain/schemas/documents.ts';
import { findSchema, listSchemas } from '../../../functions/domain/schemas/registry.ts';

const LAND_PROPERTIES = {
  region: { type: 'string', title: 'Область' },
  district: { type: 'string', title: 'Район' },
  cadastral_number: { type: 'string', title: 'Кадастровий номер' },
  area: { type: 'integer', minimum: 1, exclusiveMinimum: false, title: 'Площа, кв.м/га' },
  forms_of_land_ownership: {
    type: 'array',
    items: { type: 'string', enum: ['державна', 'приватна', 'комунальна'] },
    title: 'Форми власності на землю.',
  },
  co_owners: { type: 'boolean', default: false, title: 'Наявність співвласників' },
  availability_of_utilities: { type: 'boolean', default: true, title: 'Наявність на ділянці інженерних мереж' },
};

describe('listSchemas', () => {
  it('lists the 06 and 061 land-parcel families at version 001', () => {
    expect(listSchemas().map(({ code, version, id }) => ({ code, version, id }))).toEqual([
      { code: '06', version: '001', id: 'urn:cav:06000000-2.001' },
      { code: '061', version: '001', id: 'urn:cav:06100000-3.001' },
    ]);
  });

  it('gives every schema an id made of its zero-filled code, the CAV check digit and its version', () => {
    for (const { code, version, id } of listSchemas()) {
      const schema = schemaDocument({ id }) as Record<string, any>;
      expect(id).toBe(`urn:cav:${withCheckDigit(code.padEnd(8, '0'))}.${version}`);
      expect(schema.id).toBe(id);
      expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
      expect(typeof schema.title).toBe('string');
      expect(schema.additionalProperties).toBe(false);
    }
  });

  it('describes the 06 family with the seven land properties, all required', () => {
    const schema = schemaDocument(findSchema('06000000-2')!) as Record<string, any>;
    expect(schema.properties).toEqual(LAND_PROPERTIES);
    expect(schema.required).toEqual(Object.keys(LAND_PROPERTIES));
  });

  it('describes the 061 family as the 06 one plus a required city', () => {
    const schema = schemaDocument(findSchema('06100000-3')!) as Record<string, any>;
    const city = { type: 'string', title: 'Місто/Населений пункт' };
    expect(schema.properties).toEqual({ ...LAND_PROPERTIES, city });
    expect([...(schema.required as string[])].sort()).toEqual([...Object.keys(LAND_PROPERTIES), 'city'].sort());
  });
});

describe('findSchema', () => {
  it('picks the longest family code that prefixes the classification code', () => {
    expect(findSchema('06110000-6')?.code).toBe('061');
    expect(findSchema('06100000-3')?.code).toBe('061');
    expect(findSchema('06000000-2')?.code).toBe('06');
    expect(findSchema('06200000-4')?.code).toBe('06');
  });

  it('accepts a bare code as well as a classification id', () => {
    expect(findSchema('0611')?.code).toBe('061');
    expect(findSchema('06')?.code).toBe('06');
  });

  it('finds nothing for codes outside the land families', () => {
    expect(findSchema('04000000-8')).toBeUndefined();
    expect(findSchema('0')).toBeUndefined();
  });

  it('uses the latest version unless one is named', () => {
    expect(findSchema('06000000-2')?.version).toBe('001');
    expect(findSchema('06000000-2', 'latest')?.version).toBe('001');
    expect(findSchema('06000000-2', '001')?.version).toBe('001');
    expect(findSchema('06000000-2', '002')).toBeUndefined();
  });
});
