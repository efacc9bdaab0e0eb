import { describe, expect, it } from 'vitest';
// @ts-expect-error: the page's own browser script, untyped (no allowJs: tsx would resolve packages' .ts sources)
import { texts } from '../../../functions/room-page/assets/texts.js';
// @ts-expect-error: the page's own browser script, untyped (no allowJs: tsx would resolve packages' .ts sources)
import { WORDS } from '../../../functions/room-page/assets/words.js';

const say = (lang: 'uk' | 'en', now = 0) =>
  texts({ words: () => WORDS[lang], money: (n: number) => `₴${n}`, when: (at: string) => `@${at}`, now: () => now });

const stages = [
  { index: 0, name: 'dutch_1', type: 'dutch', start: 'd1', amount: 100 },
  { index: 1, name: 'sealedbid', type: 'sealedbid', start: 's' },
  { index: 2, name: 'pre-bestbid', type: 'pre-bestbid', start: 'pb' },
  { index: 3, name: 'bestbid', type: 'bestbid', start: 'b' },
  { index: 4, name: 'announcement', type: 'announcement', start: 'a' },
];
const doc = {
  stages,
  step: 1,
  bidders: [
    { bidderNumber: 1, label: 'Alpha' },
    { bidderNumber: 2, label: 'Beta' },
  ],
  results: [{ bidderNumber: 2, amount: 90, dutchWinner: true }],
  history: [{ stage: 'dutch_1', bidderNumber: 2, amount: 90 }],
} as any;

describe('the room in words', () => {
  it('names stages with their own number, in either language', () => {
    expect(say('en').stageName({ name: 'dutch_40', type: 'dutch' })).toBe('Dutch step 40');
    expect(say('uk').stageName({ name: 'english_2', type: 'english' })).toBe('Раунд 2');
    expect(say('en').stageName({ name: 'sealedbid', type: 'sealedbid' })).toBe('Sealed bids');
    expect(say('en').stageName({ name: 'odd', type: 'odd' })).toBe('odd');
  });

  it('labels bidders by number until their names are revealed', () => {
    expect(say('en').labelOf(doc, 2)).toBe('Bidder #2');
    expect(say('uk').labelOf(doc, 2)).toBe('Учасник №2');
    expect(say('en').labelOf({ ...doc, namesRevealed: true }, 2)).toBe('Beta');
  });

  it('words an amount outside the offer', () => {
    const offer = { from: 10_000, upTo: 20_000, multipleOf: 500 };
    expect(say('en').outsideOffer(100, offer)).toBe('Too low: at least ₴100');
    expect(say('en').outsideOffer(10_100, offer)).toBe(
      'The amount must be a multiple of the step ₴5: e.g. ₴100 or ₴105',
    );
    expect(say('en').outsideOffer(10_500, offer)).toBeUndefined();
  });

  it('states the stage’s rule from the offer, and nothing without one', () => {
    const english = { type: 'english' };
    expect(say('en').ruleOf(doc, english, { from: 10_000, upTo: 20_000, multipleOf: 100 })).toBe(
      'Accept the round\'s amount (₴100) or bid more, a multiple of the step ₴1: e.g. ₴101 ("+ step").',
    );
    expect(say('en').ruleOf(doc, english, undefined)).toBe('');
    expect(say('en').ruleOf(doc, { type: 'pause' }, { from: 1, upTo: 1 })).toBe('');
  });

  it('says why a bidder waits and until when', () => {
    expect(say('en').waitOf(doc, stages[1], { bidderNumber: 2 })).toBe(
      'You won the Dutch part (₴90). The other bidders place sealed bids now; at @b you may raise your bid.',
    );
    expect(say('en').waitOf(doc, stages[3], { bidderNumber: 1 })).toBe(
      'Only the Dutch winner bids now. The results at @a.',
    );
    const pause = { index: 0, name: 'pause', type: 'pause', start: 'p' };
    const english = { index: 1, name: 'english_1', type: 'english', start: 'e' };
    expect(say('en').waitOf({ ...doc, stages: [pause, english] }, pause, { bidderNumber: 1 })).toBe(
      'A pause. Next: Round 1 at @e.',
    );
    expect(say('en').waitOf(doc, stages[4], { bidderNumber: 1 })).toBe('The bidding is over. The results at @a.');
    expect(say('en').waitOf({ ...doc, ended: {} }, stages[4], { bidderNumber: 1 })).toBe('');
  });

  it('tells the end: cancelled, or why it ended, the winner and the results’ post', () => {
    expect(say('en').endLines({ closed: true, document: doc })).toEqual(['The auction was cancelled']);
    expect(say('en').endLines({ document: doc })).toEqual([]);
    expect(say('en').endLines({ results: 'posted', document: { ...doc, ended: { reason: 'finished' } } })).toEqual([
      'The auction has ended: every stage was held.',
      'Winner: Bidder #2 — ₴90',
      'The results were sent.',
    ]);
    expect(say('uk').endLines({ document: { ...doc, results: [], ended: { reason: 'other' } } })).toEqual([
      'Аукціон завершено: other.',
      'Переможця немає',
    ]);
  });

  it('explains a refusal from the document as it is now, else in the room’s own words', () => {
    const english = {
      ...doc,
      stages: [
        { index: 0, name: 'english_1', type: 'english', start: '2026-11-02T10:00:00Z', amount: 100 },
        { index: 1, name: 'english_2', type: 'english', start: '2026-11-02T10:05:00Z', amount: 110 },
      ],
      history: [{ stage: 'english_1', bidderNumber: 2, amount: 100 }],
    };
    const now = Date.parse('2026-11-02T10:01:00Z');
    expect(
      say('en', now).explain({ code: 'stage' }, { type: 'english', stage: 'english_1' }, english, { bidderNumber: 1 }),
    ).toBe('Bidder #2 bid ₴100 first: the round is closed. The next round at @2026-11-02T10:05:00Z, bids from ₴110.');
    expect(say('en').explain({ code: 'stage' }, { type: 'dutch' }, doc, undefined, { from: 9_900, upTo: 9_900 })).toBe(
      'The step ended before your accept arrived. The price now: ₴99.',
    );
    expect(say('en').explain({ code: 'too-low' }, { amount: 50 }, doc, undefined, { from: 10_000, upTo: 20_000 })).toBe(
      'Too low: at least ₴100',
    );
    expect(say('uk').explain({ code: 'busy' }, { amount: 50 }, doc, undefined, undefined)).toBe(
      'Інша ставка саме обробляється: спробуйте ще раз',
    );
    expect(say('en').explain({ code: 'busy', message: 'Busy' }, { amount: 50 }, doc, undefined, undefined)).toBe(
      'Busy',
    );
    expect(say('en').explain({ code: 'busy' }, { amount: 50 }, doc, undefined, undefined)).toBe('busy');
  });
});
