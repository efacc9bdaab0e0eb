import { describe, expect, it } from 'vitest';
import { childPlaceOf, childSortKey } from '../../../functions/store/child-keys.ts';

const id = 'a'.repeat(32);
const doc = 'b'.repeat(32);

describe('child sort keys (the store keeps their format; the domain sees places)', () => {
  it.each([
    [{ kind: 'BID', id }, `BID#${id}`],
    [{ kind: 'DOC', id: doc, version: 2 }, `DOC#${doc}#0002`],
    [{ kind: 'DOC', id: doc, version: 1, under: { kind: 'BID', id } }, `BID#${id}#DOC#${doc}#0001`],
    [{ kind: 'DOC', id: doc, version: 12345, under: { kind: 'CONTRACT', id } }, `CONTRACT#${id}#DOC#${doc}#12345`],
  ])('%j is stored as %s and read back as the same place', (place, key) => {
    expect(childSortKey(place)).toBe(key);
    expect(childPlaceOf(key)).toEqual(place);
  });

  it('sorts document versions of one id in version order (padded)', () => {
    const keys = [10, 2, 1].map((version) => childSortKey({ kind: 'DOC', id: doc, version }));
    expect([...keys].sort().map((k) => childPlaceOf(k).version)).toEqual([1, 2, 10]);
  });

  it('refuses what is no child key', () => {
    expect(() => childPlaceOf('#ROOT')).toThrow();
    expect(() => childPlaceOf('A#b#C#d#0001#x')).toThrow();
  });
});
