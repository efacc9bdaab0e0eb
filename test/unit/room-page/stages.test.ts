import { describe, expect, it } from 'vitest';
import {
  BIDDING,
  clockOf,
  countdown,
  dutchAmount,
  instant,
  mayBidIn,
  nextStage,
  stageAt,
  stageOfType,
  whenOf,
  // @ts-expect-error: the page's own browser script, untyped (no allowJs: tsx would resolve packages' .ts sources)
} from '../../../functions/room-page/assets/stages.js';

const at = (text: string) => Date.parse(text);
const stages = [
  { index: 4, name: 'pause', type: 'pause', start: '2026-11-02T10:00:00+02:00' },
  { index: 5, name: 'dutch_1', type: 'dutch', start: '2026-11-02T10:05:00.123456+02:00', amount: 100 },
  { index: 6, name: 'dutch_2', type: 'dutch', start: '2026-11-02T10:10:00+02:00', amount: 99 },
  { index: 7, name: 'pre-announcement', type: 'pre-announcement', start: '2026-11-02T10:15:00+02:00' },
];
const doc = { currentStage: 4, stagesFrom: 4, stages, history: [{ stage: 'dutch_2', amount: 99 }] } as any;

describe('the room document’s stages, by the server’s clock', () => {
  it('reads the room’s instants, microseconds too', () => {
    expect(instant('2026-11-02T10:05:00.123456+02:00')).toBe(at('2026-11-02T08:05:00.123Z'));
  });

  it('moves on to the stage whose start has passed, never past the end, and not once ended or closed', () => {
    expect(stageAt(doc, at('2026-11-02T08:04:59Z'), false).name).toBe('pause');
    expect(stageAt(doc, at('2026-11-02T08:05:01Z'), false).name).toBe('dutch_1');
    expect(stageAt(doc, at('2026-11-02T09:00:00Z'), false).name).toBe('pre-announcement');
    expect(stageAt(doc, at('2026-11-02T09:00:00Z'), true).name).toBe('pause');
    expect(stageAt({ ...doc, ended: { reason: 'deadline' } }, at('2026-11-02T09:00:00Z'), false).name).toBe('pause');
  });

  it('finds the stage after one, the first of a type, the Dutch winner’s amount', () => {
    expect(nextStage(doc, stages[1]).name).toBe('dutch_2');
    expect(nextStage(doc, stages[3])).toBeUndefined();
    expect(stageOfType(doc, 'dutch').name).toBe('dutch_1');
    expect(dutchAmount(doc)).toBe(99);
    expect(dutchAmount({ history: [] })).toBeUndefined();
    expect(BIDDING).toEqual(['dutch', 'sealedbid', 'bestbid', 'english']);
  });

  it('lets a bidder bid where the document says, in its stage and the next one, never an observer', () => {
    const me = { mayBid: true, mayBidNext: false };
    expect(mayBidIn(doc, stages[0], me)).toBe(true);
    expect(mayBidIn(doc, stages[1], me)).toBe(false);
    expect(mayBidIn(doc, stages[1], { mayBid: false, mayBidNext: true })).toBe(true);
    expect(mayBidIn(doc, stages[2], { mayBid: true, mayBidNext: true })).toBe(false);
    expect(mayBidIn(doc, stages[0], undefined)).toBe(false);
    expect(mayBidIn(doc, undefined, me)).toBe(false);
  });

  it('counts down in minutes and seconds, hours from an hour, never below zero', () => {
    expect(countdown(65)).toEqual({ text: '01:05', dateTime: 'PT65S' });
    expect(countdown(3_725)).toEqual({ text: '1:02:05', dateTime: 'PT3725S' });
    expect(countdown(-3)).toEqual({ text: '00:00', dateTime: 'PT0S' });
  });

  it('shows times in Kyiv, with the date when it is not today’s', () => {
    expect(clockOf('2026-11-02T10:05:00+02:00', 'en')).toBe('10:05:00');
    expect(whenOf('2026-11-02T10:05:00+02:00', at('2026-11-02T12:00:00Z'), 'en')).toBe('10:05:00');
    expect(whenOf('2026-11-02T10:05:00+02:00', at('2026-11-01T12:00:00Z'), 'en')).toBe('02/11/2026 10:05:00');
    expect(whenOf('2026-11-02T10:05:00+02:00', at('2026-11-01T12:00:00Z'), 'uk')).toBe('02.11.2026 10:05:00');
  });
});
