import { describe, expect, it } from 'vitest';
import {
  FAR,
  money,
  nextAbove,
  offerIn,
  outsideOffer,
  parseAmount,
  plain,
  timesOf,
  toCents,
  // @ts-expect-error: the page's own browser script, untyped (no allowJs: tsx would resolve packages' .ts sources)
} from '../../../functions/room-page/assets/amounts.js';

describe('a typed amount, read by the page’s language', () => {
  it('takes every form the page itself writes, in cents', () => {
    for (const lang of ['uk', 'en']) expect(parseAmount(plain(10_200_050, lang), lang)).toEqual({ cents: 10_200_050 });
    expect(parseAmount('102 000,50', 'uk')).toEqual({ cents: 10_200_050 });
    expect(parseAmount('102\u00a0000,5', 'uk')).toEqual({ cents: 10_200_050 });
    expect(parseAmount('102\u202f000.50', 'uk')).toEqual({ cents: 10_200_050 });
    expect(parseAmount('102,000.50', 'en')).toEqual({ cents: 10_200_050 });
    expect(parseAmount('102,000', 'en')).toEqual({ cents: 10_200_000 });
    expect(parseAmount('1.234,56', 'en')).toEqual({ cents: 123_456 });
    expect(parseAmount('1,234.56', 'uk')).toEqual({ cents: 123_456 });
    expect(parseAmount('1.234.567', 'uk')).toEqual({ cents: 123_456_700 });
    expect(parseAmount(' 12 ', 'uk')).toEqual({ cents: 1200 });
  });

  it('refuses what could be read two ways, never guessing', () => {
    expect(parseAmount('102,000', 'uk')).toEqual({ error: 'ambiguous' });
    expect(parseAmount('102.000', 'en')).toEqual({ error: 'ambiguous' });
    expect(parseAmount('1.234,567.8', 'en')).toEqual({ error: 'ambiguous' });
    expect(parseAmount('12 34', 'uk')).toEqual({ error: 'ambiguous' });
  });

  it('names what is wrong otherwise', () => {
    expect(parseAmount('  ', 'uk')).toEqual({ error: 'noAmount' });
    expect(parseAmount('12a', 'en')).toEqual({ error: 'badAmount' });
    expect(parseAmount('-5', 'en')).toEqual({ error: 'badAmount' });
    expect(parseAmount('12,345', 'uk')).toEqual({ error: 'ambiguous' });
    expect(parseAmount('1234,567', 'uk')).toEqual({ error: 'decimals' });
    expect(parseAmount('99999999999999999', 'en')).toEqual({ error: 'tooLarge' });
  });
});

describe('the offer', () => {
  const offer = { from: 10_000, upTo: 1_000_000, multipleOf: 500 };

  it('is the document’s for its stage, or a Dutch step’s amount reached by the clock, in cents', () => {
    const doc = { offer: { stage: 'english_1', from: 100, upTo: 10_000, multipleOf: 5 } };
    expect(offerIn(doc, { name: 'english_1', type: 'english' })).toEqual(offer);
    expect(offerIn(doc, { name: 'english_2', type: 'english' })).toBeUndefined();
    expect(offerIn({}, { name: 'dutch_3', type: 'dutch', amount: 97.5 })).toEqual({ from: 9750, upTo: 9750 });
    expect(offerIn({ ended: {} }, { name: 'dutch_3', type: 'dutch', amount: 97.5 })).toBeUndefined();
  });

  it('says why an amount is outside it, with the amounts it names', () => {
    expect(outsideOffer(9_999, offer)).toEqual({ word: 'below', amounts: [10_000] });
    expect(outsideOffer(1_000_001, offer)).toEqual({ word: 'above', amounts: [1_000_000] });
    expect(outsideOffer(12_345, offer)).toEqual({ word: 'notStep', amounts: [500, 12_000, 12_500] });
    expect(outsideOffer(10_001, { from: 10_001, upTo: 20_000, multipleOf: 500 })).toBeUndefined();
    expect(outsideOffer(12_500, offer)).toBeUndefined();
    expect(outsideOffer(1, undefined)).toBeUndefined();
  });

  it('steps up onto the step’s multiples', () => {
    expect(nextAbove(5, offer)).toBe(10_000);
    expect(nextAbove(10_000, offer)).toBe(10_500);
    expect(nextAbove(10_200, offer)).toBe(10_500);
    expect(nextAbove(10_200, { from: 100, upTo: 100_000 })).toBe(10_201);
  });

  it('counts how many times the least amount a bid is, to a tenth rounded down, in the page’s words', () => {
    expect(FAR).toBe(2);
    expect(timesOf(25_700, 10_000, 'en')).toEqual({ text: '2.5', plural: 'other' });
    expect(timesOf(25_700, 10_000, 'uk')).toEqual({ text: '2,5', plural: 'other' });
    expect(timesOf(50_000, 10_000, 'uk')).toEqual({ text: '5', plural: 'many' });
    expect(timesOf(30_000, 10_000, 'uk')).toEqual({ text: '3', plural: 'few' });
  });

  it('writes amounts as the page does', () => {
    expect(toCents(0.29)).toBe(29);
    expect(toCents(1234.565)).toBe(123_457);
    expect(plain(10_200_050, 'en')).toBe('102,000.50');
    expect(plain(10_200_050, 'uk').replace(/\s/g, ' ')).toBe('102 000,50');
    expect(money(102_000.5, 'UAH', 'en')).toBe(
      new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'UAH' }).format(102_000.5),
    );
    expect(money(1, 'UAH', 'uk')).toMatch(/^1,00\s₴$/);
  });
});
