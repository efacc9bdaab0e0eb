import { describe, expect, it } from 'vitest';
import {
  validateSchemaProperties,
  type SchemaPropertiesItem,
} from '../../../functions/domain/schemas/validate-schema-properties.ts';

const LAND = {
  region: 'Київська',
  district: 'Броварський',
  cadastral_number: '3221281800:03:001:0001',
  area: 2500,
  forms_of_land_ownership: ['державна', 'комунальна'],
  co_owners: false,
  availability_of_utilities: true,
};

const land = (properties: unknown, version?: string): SchemaPropertiesItem => ({
  classification: { id: '06000000-2' },
  schema_properties: { code: '06000000', version, properties },
});
const city = (properties: unknown): SchemaPropertiesItem => ({
  classification: { id: '06110000-6' },
  schema_properties: { code: '06110000', properties },
});
const errorsOf = (item: SchemaPropertiesItem) => validateSchemaProperties(item).errors;

describe('validateSchemaProperties', () => {
  it('accepts an item without schema_properties', () => {
    expect(validateSchemaProperties({ classification: { id: '06000000-2' } })).toEqual({ errors: [] });
  });

  it('accepts valid land properties and normalises code and version to the matched schema', () => {
    expect(validateSchemaProperties(land(LAND))).toEqual({ errors: [], normalized: { code: '06', version: '001' } });
    expect(validateSchemaProperties(land(LAND, 'latest')).normalized).toEqual({ code: '06', version: '001' });
  });

  it('uses the 061 schema for a 0611 classification, so city becomes required', () => {
    expect(errorsOf(city(LAND))).toEqual(["'city' is a required property"]);
    expect(validateSchemaProperties(city({ ...LAND, city: 'Бровари' }))).toEqual({
      errors: [],
      normalized: { code: '061', version: '001' },
    });
  });

  it('rejects a code that does not prefix the classification id', () => {
    const item = { classification: { id: '06000000-2' }, schema_properties: { code: '061', properties: LAND } };
    expect(errorsOf(item)).toEqual(['classification id mismatch with schema_properties code']);
  });

  it('rejects a code outside the allowed prefixes', () => {
    const item = { classification: { id: '03410000-7' }, schema_properties: { code: '0341', properties: {} } };
    expect(errorsOf(item)).toEqual(["schema_properties code must be one of ['04', '341', '06']."]);
  });

  it('reports an allowed code that has no schema', () => {
    const item = { classification: { id: '04000000-8' }, schema_properties: { code: '04000000', properties: {} } };
    expect(errorsOf(item)).toEqual(["Can't find schema for code 04000000"]);
  });

  it('reports a named version that does not exist', () => {
    expect(errorsOf(land(LAND, '002'))).toEqual(["Can't find schema by version 002"]);
  });

  it('requires a code of at most ten characters', () => {
    expect(errorsOf({ classification: { id: '06000000-2' }, schema_properties: { properties: LAND } })).toEqual([
      'schema_properties code is required',
    ]);
    const long = { classification: { id: '06000000-2' }, schema_properties: { code: '06000000-2x', properties: LAND } };
    expect(errorsOf(long)).toEqual(['String value is too long.']);
  });

  it('names each missing property', () => {
    for (const name of Object.keys(LAND)) {
      const { [name]: _dropped, ...rest } = LAND as Record<string, unknown>;
      expect(errorsOf(land(rest))).toEqual([`'${name}' is a required property`]);
    }
  });

  it('reports wrong types with the value and the expected type', () => {
    expect(errorsOf(land({ ...LAND, region: 5 }))).toEqual(["5 is not of type 'string'"]);
    expect(errorsOf(land({ ...LAND, district: null }))).toEqual(["None is not of type 'string'"]);
    expect(errorsOf(land({ ...LAND, cadastral_number: ['1'] }))).toEqual(["['1'] is not of type 'string'"]);
    expect(errorsOf(land({ ...LAND, area: 'abc' }))).toEqual(["'abc' is not of type 'integer'"]);
    expect(errorsOf(land({ ...LAND, area: 1.5 }))).toEqual(["1.5 is not of type 'integer'"]);
    expect(errorsOf(land({ ...LAND, forms_of_land_ownership: 'державна' }))).toEqual([
      "'державна' is not of type 'array'",
    ]);
    expect(errorsOf(land({ ...LAND, co_owners: 'no' }))).toEqual(["'no' is not of type 'boolean'"]);
    expect(errorsOf(land({ ...LAND, availability_of_utilities: 1 }))).toEqual(["1 is not of type 'boolean'"]);
    expect(errorsOf(land(undefined))).toEqual(["None is not of type 'object'"]);
  });

  it('requires an area of at least 1', () => {
    expect(errorsOf(land({ ...LAND, area: 0 }))).toEqual(['0 is less than the minimum of 1']);
    expect(errorsOf(land({ ...LAND, area: -3 }))).toEqual(['-3 is less than the minimum of 1']);
    expect(errorsOf(land({ ...LAND, area: 1 }))).toEqual([]);
  });

  it('allows only the three forms of land ownership', () => {
    expect(errorsOf(land({ ...LAND, forms_of_land_ownership: ['приватна', 'x'] }))).toEqual([
      "'x' is not one of ['державна', 'приватна', 'комунальна']",
    ]);
    expect(errorsOf(land({ ...LAND, forms_of_land_ownership: [] }))).toEqual([]);
  });

  it('rejects additional properties, naming them together', () => {
    expect(errorsOf(land({ ...LAND, foo: 1 }))).toEqual([
      "Additional properties are not allowed ('foo' was unexpected)",
    ]);
    expect(errorsOf(land({ ...LAND, foo: 1, city: 'Бровари' }))).toEqual([
      "Additional properties are not allowed ('foo', 'city' were unexpected)",
    ]);
  });

  it('lists every failure, the ones about the whole object first', () => {
    expect(errorsOf(land({ ...LAND, region: undefined, area: 0, extra: true }))).toEqual([
      "'region' is a required property",
      "Additional properties are not allowed ('extra' was unexpected)",
      '0 is less than the minimum of 1',
    ]);
  });

  it('does not apply schema defaults nor otherwise change the input', () => {
    const { co_owners: _c, availability_of_utilities: _a, ...withoutFlags } = LAND;
    const item = land(withoutFlags);
    const before = structuredClone(item);
    expect(errorsOf(item)).toEqual([
      "'co_owners' is a required property",
      "'availability_of_utilities' is a required property",
    ]);
    expect(item).toEqual(before);
  });
});
