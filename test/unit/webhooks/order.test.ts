import { describe, expect, it } from 'vitest';
import type { ObjectChange } from '../../../functions/domain/webhooks/events.ts';
import { planObject } from '../../../functions/domain/webhooks/order.ts';

const change = (seq: number): ObjectChange => ({
  kind: 'lot',
  id: 'a'.repeat(32),
  seq,
  dateModified: `2026-12-07T10:00:0${seq}.000000+02:00`,
});
const seqs = (cs: readonly ObjectChange[]) => cs.map((c) => c.seq);

describe('one object in a batch', () => {
  it('takes the changes after the mark in seq order, whatever order they were handed in', () => {
    const plan = planObject([change(5), change(3), change(4)], 2);
    expect(seqs(plan.take)).toEqual([3, 4, 5]);
    expect(plan.missing).toBeUndefined();
  });

  it('drops changes at or below the mark (handled: read from the log by a later one) and repeats', () => {
    expect(planObject([change(2), change(1)], 2)).toEqual({ take: [] });
    expect(seqs(planObject([change(3), change(3), change(2)], 2).take)).toEqual([3]);
  });

  it('names the seqs missing between the mark and the newest handed', () => {
    expect(planObject([change(5)], 2)).toEqual({ take: [change(5)], missing: { after: 2, before: 5 } });
    expect(planObject([change(3), change(5)], 2).missing).toEqual({ after: 2, before: 5 });
  });

  it('with no mark, starts from the create, and names what comes before a later first change', () => {
    expect(planObject([change(2), change(1)], undefined)).toEqual({ take: [change(1), change(2)] });
    expect(planObject([change(3)], undefined).missing).toEqual({ after: 0, before: 3 });
  });
});
