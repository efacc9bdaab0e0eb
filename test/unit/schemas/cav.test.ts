import { describe, expect, it } from 'vitest';
import { cavCheckDigit, hasValidCheckDigit, withCheckDigit } from '../../../functions/domain/schemas/cav.ts';

describe('cavCheckDigit', () => {
  it('gives the check digits of the land-parcel families', () => {
    expect(withCheckDigit('06000000')).toBe('06000000-2');
    expect(withCheckDigit('06100000')).toBe('06100000-3');
    expect(withCheckDigit('06110000')).toBe('06110000-6');
    expect(withCheckDigit('06120000')).toBe('06120000-9');
  });

  it('gives the check digits of other CAV families the reference names', () => {
    expect(withCheckDigit('04000000')).toBe('04000000-8');
    expect(withCheckDigit('34100000')).toBe('34100000-8');
    expect(withCheckDigit('34621100')).toBe('34621100-7');
  });

  it('agrees with published CPV codes', () => {
    for (const id of [
      '45000000-7',
      '03000000-1',
      '09000000-3',
      '30000000-9',
      '03111900-1',
      '45234181-8',
      '14212320-9',
    ]) {
      expect(withCheckDigit(id.slice(0, 8))).toBe(id);
    }
  });

  it('follows the algorithm, not the errata of the published 2008 list', () => {
    // Published as 03300000-2 and 03410000-7; the Publications Office acknowledges the mistakes.
    expect(cavCheckDigit('03300000')).toBe(4);
    expect(cavCheckDigit('03410000')).toBe(8);
  });

  it('rejects anything but eight digits', () => {
    expect(() => cavCheckDigit('0600000')).toThrow();
    expect(() => cavCheckDigit('06000000-2')).toThrow();
  });
});

describe('hasValidCheckDigit', () => {
  it('accepts a correct id and rejects a wrong digit or shape', () => {
    expect(hasValidCheckDigit('06000000-2')).toBe(true);
    expect(hasValidCheckDigit('06000000-8')).toBe(false);
    expect(hasValidCheckDigit('06000000')).toBe(false);
  });
});
