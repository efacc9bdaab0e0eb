import { describe, expect, it } from 'vitest';
import { itemBytes } from '../../../lib/local/item-size.ts';

/** The bench's revision bytes (lib/local/item-size.ts): DynamoDB's item size rules, worked by hand. */
describe('item size', () => {
  it('counts names and UTF-8 strings, numbers by their significant digits, maps and lists with their overhead', () => {
    expect(itemBytes({ PK: 'REV#LOT#ab' })).toBe(2 + 10);
    expect(itemBytes({ t: 'Лот' })).toBe(1 + 6); // Cyrillic: 2 bytes a letter
    expect(itemBytes({ n: 12345 })).toBe(1 + 4); // 5 significant digits: 3 bytes, + 1
    expect(itemBytes({ n: 1000 })).toBe(1 + 2); // trailing zeros are not significant
    expect(itemBytes({ b: true, z: null })).toBe(1 + 1 + 1 + 1);
    expect(itemBytes({ m: { a: 'xy' } })).toBe(1 + 3 + (1 + 1 + 2)); // map: 3, a member: 1 + its name + its value
    expect(itemBytes({ l: ['xy', 7] })).toBe(1 + 3 + (1 + 2) + (1 + 2));
    expect(itemBytes({ gone: undefined })).toBe(0);
  });
});
