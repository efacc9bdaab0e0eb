import { describe, expect, it } from 'vitest';
import {
  completeOrganization,
  needsDirectory,
  readDirectory,
} from '../../../functions/domain/kernel/organization-directory.ts';

const FULL = {
  name: 'Державне управління справами',
  identifier: { scheme: 'UA-EDR', id: '00037256', uri: 'http://www.dus.gov.ua/' },
  address: {
    countryName: 'Україна',
    postalCode: '01220',
    region: 'м. Київ',
    locality: 'м. Київ',
    streetAddress: 'вул. Банкова, 11',
  },
  contactPoint: { name: 'ДУС' },
};
const MINIMAL = {
  identifier: { scheme: 'UA-EDR', id: '00037256' },
  address: { countryName: 'Україна' },
  contactPoint: { name: 'ДУС' },
};
const directory = (entries: Record<string, object>) => {
  const asked: string[] = [];
  return {
    asked,
    find: async (scheme: string, id: string) => {
      asked.push(`${scheme} ${id}`);
      return entries[`${scheme} ${id}`];
    },
  };
};

describe('organization directory', () => {
  it('looks up only organizations that name an identifier and lack something the directory fills', () => {
    expect(needsDirectory(MINIMAL)).toBe(true);
    expect(needsDirectory({ ...FULL, identifier: { scheme: 'UA-EDR', id: '1' } })).toBe(true);
    expect(needsDirectory(FULL)).toBe(false);
    expect(needsDirectory({ name: 'x' })).toBe(false);
    expect(needsDirectory(undefined)).toBe(false);
  });

  it('reads each identifier once, and nothing for complete organizations', async () => {
    const dir = directory({});
    await readDirectory(dir, [MINIMAL, MINIMAL, FULL, undefined]);
    expect(dir.asked).toEqual(['UA-EDR 00037256']);
  });

  it('fills what is missing, keeping what was sent', async () => {
    const { contactPoint: _c, ...entry } = FULL;
    const entries = await readDirectory(directory({ 'UA-EDR 00037256': entry }), [MINIMAL]);
    const sent = { ...MINIMAL, address: { countryName: 'Україна', locality: 'Київ' } };
    const { custodian } = completeOrganization({ custodian: sent }, 'custodian', entries);
    expect(custodian).toEqual({ ...FULL, address: { ...FULL.address, locality: 'Київ' } });
  });

  it('refuses a nameless organization the directory was asked about and does not know', async () => {
    const entries = await readDirectory(directory({}), [MINIMAL]);
    expect(() => completeOrganization({ custodian: MINIMAL }, 'custodian', entries)).toThrow(
      /not in the organization directory/,
    );
    expect(completeOrganization({ custodian: { ...MINIMAL, name: 'X' } }, 'custodian', entries)).toEqual({
      custodian: { ...MINIMAL, name: 'X' },
    });
  });

  it('leaves an organization it was not asked about to the schema', () => {
    expect(completeOrganization({ custodian: MINIMAL }, 'custodian', new Map())).toEqual({ custodian: MINIMAL });
  });
});
