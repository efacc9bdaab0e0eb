import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../functions/domain/journal/journal.ts';
import {
  type Answered,
  type Cursor,
  cursorState,
  type Read,
  settle,
  toSend,
} from '../../../functions/domain/webhooks/cursor.ts';

const S = 1_000_000;
const NOW = 1_800_000_000 * S;
const entry = (pos: number, object: string, seq: number): JournalEntry => ({
  lane: 'lots',
  pos,
  stamp: pos,
  change: { kind: 'lot', id: object, seq, dateModified: '2026-12-07T10:00:00+02:00', lane: 'lots' },
});
const heard = (e: JournalEntry, is = true): Read => ({ entry: e, heard: is });
const cursor = (over: Partial<Cursor> = {}): Cursor => ({
  subscriptionId: 's',
  lane: 'lots',
  at: 0,
  done: [],
  failures: 0,
  ...over,
});
const delivered: Answered = { attempt: { at: 'x', ms: 1, status: 204 }, verdict: { state: 'delivered' } };
const failed = (due: number): Answered => ({
  attempt: { at: 'x', ms: 1, status: 500 },
  verdict: { state: 'pending', due },
});

describe('a subscription cursor', () => {
  it('names its states: held when disabled, sending under a lease, waiting for a retry, else idle', () => {
    expect(cursorState({}, false, true)).toBe('held');
    expect(cursorState({}, true, true)).toBe('sending');
    expect(cursorState({ due: NOW }, true, false)).toBe('waiting');
    expect(cursorState({}, true, false)).toBe('idle');
  });

  it("sends what it hears as one chain per object, in position order, skipping what it had and what it doesn't hear", () => {
    const page = [
      heard(entry(1, 'a', 1)),
      heard(entry(2, 'b', 1)),
      heard(entry(3, 'a', 2)),
      heard(entry(4, 'c', 1), false),
    ];
    const chains = toSend(cursor(), page).map((chain) => chain.map((e) => e.pos));
    expect(chains).toEqual([[1, 3], [2]]);
    expect(toSend(cursor({ done: [2] }), page).map((c) => c.map((e) => e.pos))).toEqual([[1, 3]]);
  });

  it('sends only its first owed entry while it waits on a failure: the probe', () => {
    const page = [heard(entry(5, 'a', 1)), heard(entry(6, 'b', 1))];
    expect(toSend(cursor({ at: 4, failures: 2 }), page).map((c) => c.map((e) => e.pos))).toEqual([[5]]);
  });

  it('moves over everything answered and everything not heard, and is healthy again', () => {
    const page = [heard(entry(1, 'a', 1)), heard(entry(2, 'b', 1), false), heard(entry(3, 'a', 2))];
    const { cursor: next, disable } = settle(
      cursor({ failures: 1, failingSince: NOW - S }),
      page,
      new Map([
        [1, delivered],
        [3, delivered],
      ]),
      NOW,
    );
    expect(disable).toBeUndefined();
    expect(next).toEqual(
      cursor({
        at: 3,
        failures: 0,
        recent: [
          { pos: 1, attempt: delivered.attempt },
          { pos: 3, attempt: delivered.attempt },
        ],
      }),
    );
  });

  it('stops just before a failure, keeps what was delivered beyond it, and waits for the verdict', () => {
    const page = [heard(entry(1, 'a', 1)), heard(entry(2, 'b', 1)), heard(entry(3, 'c', 1)), heard(entry(4, 'b', 2))];
    const answers = new Map([
      [1, delivered],
      [2, failed(NOW + 5 * S)],
      [3, delivered],
    ]);
    const { cursor: next } = settle(cursor(), page, answers, NOW);
    expect(next).toMatchObject({ at: 1, done: [3], failures: 1, failingSince: NOW, due: NOW + 5 * S });
    expect(next.waitingOn).toEqual({ pos: 2, attempts: [failed(0).attempt] });
    // Its retry probes 2 alone; answered, 3 is not sent again and 4 follows.
    expect(toSend(next, page).map((c) => c.map((e) => e.pos))).toEqual([[2]]);
    const after = settle(next, page, new Map([[2, delivered]]), NOW + 6 * S).cursor;
    expect(after).toMatchObject({ at: 3, done: [], failures: 0 });
    expect(after.due).toBeUndefined();
    expect(after.recent?.map((r) => r.pos)).toEqual([1, 2, 3, 2]);
    expect(toSend(after, page).map((c) => c.map((e) => e.pos))).toEqual([[4]]);
  });

  it('keeps the attempts of the entry it waits on, the newest 20, and counts its failures for the schedule', () => {
    const page = [heard(entry(1, 'a', 1))];
    let c = cursor();
    for (let i = 0; i < 25; i++) c = settle(c, page, new Map([[1, failed(NOW + i)]]), NOW + i).cursor;
    expect(c.failures).toBe(25);
    expect(c.failingSince).toBe(NOW);
    expect(c.waitingOn?.attempts).toHaveLength(20);
  });

  it('asks for its subscription to be disabled on a 410, and stays where it is (enabled again, it resumes there)', () => {
    const page = [heard(entry(7, 'a', 1))];
    const gone: Answered = { attempt: { at: 'x', ms: 1, status: 410 }, verdict: { state: 'failed', disable: 'gone' } };
    const { cursor: next, disable } = settle(cursor({ at: 6 }), page, new Map([[7, gone]]), NOW);
    expect(disable).toBe('gone');
    expect(next.at).toBe(6);
  });
});
