import { describe, expect, it } from 'vitest';
// @ts-expect-error: the page's own browser script, untyped (no allowJs: tsx would resolve packages' .ts sources)
import { languageOf, localeOf, WORDS } from '../../../functions/room-page/assets/words.js';

/** Every key of a words object, nested ones as `parent.key`, with a function's arity. */
const shape = (words: Record<string, unknown>, prefix = ''): string[] =>
  Object.entries(words).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? shape(value as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}${typeof value === 'function' ? `/${value.length}` : ''}`],
  );

describe('the room page words', () => {
  it('says the same things in Ukrainian and English (English falls back to the room for some refusals)', () => {
    const uk = shape(WORDS.uk);
    const en = shape(WORDS.en);
    expect(en.filter((k) => !k.startsWith('refusal.'))).toEqual(uk.filter((k) => !k.startsWith('refusal.')));
    expect(uk).toEqual(expect.arrayContaining(en.filter((k) => k.startsWith('refusal.'))));
  });

  it('agrees the Ukrainian word for "times" with the number', () => {
    const far = (text: string, plural: string) => WORDS.uk.confirmFar('A', { text, plural }, 'B');
    expect(far('2', 'few')).toContain('у 2 рази більше');
    expect(far('5', 'many')).toContain('у 5 разів більше');
    expect(far('2,5', 'other')).toContain('у 2,5 раза більше');
    expect(WORDS.en.confirmFar('A', { text: '2.5', plural: 'other' }, 'B')).toContain('A is 2.5 times');
  });

  it('keeps the language chosen before, else takes the browser’s: Ukrainian for a Ukrainian browser, else English', () => {
    expect(languageOf('en', 'uk-UA')).toBe('en');
    expect(languageOf('uk', 'en-GB')).toBe('uk');
    expect(languageOf(null, 'uk-UA')).toBe('uk');
    expect(languageOf(null, 'UK')).toBe('uk');
    expect(languageOf(null, 'en-US')).toBe('en');
    expect(languageOf(null, 'de')).toBe('en');
    expect(languageOf(null, undefined)).toBe('uk');
    expect([localeOf('uk'), localeOf('en')]).toEqual(['uk-UA', 'en-GB']);
  });
});
