import { describe, expect, it } from 'vitest';
import type { Asset, TransitionRule } from '../../../functions/domain/assets/asset.ts';
import { composeTransitions, rectificationEnded, startRectification } from '../../../functions/domain/assets/rules.ts';
import { withItemIds } from '../../../functions/domain/kernel/items.ts';
import { parseInstant } from '../../../functions/domain/kernel/time.ts';

const NOW = parseInstant('2026-03-28T10:00:00.123456+02:00')!; // the day before the spring DST change in Kyiv
const asset = {} as Asset;

describe('asset rules', () => {
  it('starts a rectification period of 24 hours, across a DST change too', () => {
    const { rectificationPeriod } = startRectification(asset, { now: NOW, documents: [] });
    expect(rectificationPeriod).toEqual({
      startDate: '2026-03-28T10:00:00.123456+02:00',
      endDate: '2026-03-29T11:00:00.123456+03:00',
    });
  });

  it('ends the period strictly after its endDate', () => {
    const pending = startRectification(asset, { now: NOW, documents: [] });
    const end = parseInstant(pending.rectificationPeriod!.endDate)!;
    expect(rectificationEnded(pending, end)).toBe(false);
    expect(rectificationEnded(pending, end + 1)).toBe(true);
    expect(rectificationEnded(asset, end + 1)).toBe(false);
  });

  it('composes rule sets, earlier sets first', () => {
    type Marked = Asset & { marks?: string[] };
    const mark =
      (m: string): TransitionRule =>
      (a) =>
        ({ ...a, marks: [...((a as Marked).marks ?? []), m] }) as Marked;
    const rules = composeTransitions(
      { 'draft->pending': [mark('guard')] },
      { 'draft->pending': [mark('effect')], 'pending->deleted': [mark('x')] },
    );
    const result = rules['draft->pending']!.reduce((a, rule) => rule(a, { now: NOW, documents: [] }), asset);
    expect((result as Marked).marks).toEqual(['guard', 'effect']);
    expect(Object.keys(rules).sort()).toEqual(['draft->pending', 'pending->deleted']);
  });

  it('gives items new ids unless they are ids of the previous items', () => {
    const [kept, fresh] = withItemIds([{ id: 'a'.repeat(32) }, { id: 'b'.repeat(32) }], [{ id: 'a'.repeat(32) }]) as {
      id: string;
    }[];
    expect(kept.id).toBe('a'.repeat(32));
    expect(fresh.id).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.id).not.toBe('b'.repeat(32));
  });
});
