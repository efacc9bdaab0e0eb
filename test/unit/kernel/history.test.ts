import { describe, expect, it } from 'vitest';
import {
  boundChanges,
  canonicalJson,
  nextRevision,
  revisionHash,
  verifyChain,
  type Revision,
} from '#domain/kernel/history.ts';

const author = { role: 'broker', name: 'broker' };

/** A chain of revisions through the given views, from none. */
function chain(...views: Record<string, unknown>[]): Revision[] {
  const out: Revision[] = [];
  let before = {};
  let head: { seq: number; hash: string } | undefined;
  for (const [i, after] of views.entries()) {
    const next = nextRevision({ before, after, head, date: `2026-01-0${i + 1}T00:00:00+02:00`, author });
    if (!next) continue;
    out.push(next.revision);
    head = next.head;
    before = after;
  }
  return out;
}

describe('history', () => {
  it('chains revisions by hash and replays them into the last view', () => {
    const views = [
      { id: 'a', title: 'one' },
      { id: 'a', title: 'two', items: [{ x: 1 }] },
      { id: 'a', items: [] },
    ];
    const revisions = chain(...views);
    expect(revisions).toHaveLength(3);
    expect(revisions[0].previousHash).toBe('');
    expect(revisions[1].previousHash).toBe(revisions[0].hash);
    expect(verifyChain(revisions)).toEqual({ breaks: [], view: views[2] });
  });

  it('writes no revision when the view did not change', () => {
    expect(nextRevision({ before: { a: 1 }, after: { a: 1 }, head: undefined, date: 'd', author })).toBeUndefined();
  });

  it('hashes the RFC 8785 canonical JSON: key order does not matter', () => {
    const a = { date: 'd', author, changes: [], previousHash: '' };
    const b = { previousHash: '', changes: [], author: { name: 'broker', role: 'broker' }, date: 'd' };
    expect(revisionHash(a)).toBe(revisionHash(b));
    expect(revisionHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports a changed revision as a break', () => {
    const revisions = chain({ title: 'one' }, { title: 'two' }, { title: 'three' });
    const forged = revisions.map((r, i) =>
      i === 1 ? { ...r, changes: [{ op: 'replace' as const, path: '/title', value: 'TWO' }] } : r,
    );
    expect(verifyChain(forged).breaks).toEqual([{ seq: 2, reason: 'hash does not match its content' }]);
    const rehashed = forged.map((r, i) => (i === 1 ? { ...r, hash: revisionHash(r) } : r));
    expect(verifyChain(rehashed).breaks).toEqual([{ seq: 3, reason: 'previousHash is not the hash of revision 2' }]);
  });

  it('notes a value too large by its size, never cuts it silently', () => {
    const big = 'x'.repeat(2000);
    const changes = [
      { op: 'add' as const, path: '/a', value: big },
      { op: 'add' as const, path: '/b', value: 1 },
    ];
    expect(boundChanges(changes, { a: big, b: 1 }, 1000)).toEqual([
      { op: 'add', path: '/a', valueBytes: 2002 },
      { op: 'add', path: '/b', value: 1 },
    ]);
    const many = Array.from({ length: 100 }, (_, i) => ({ op: 'add' as const, path: `/l/${i}`, value: i }));
    expect(boundChanges(many, { l: many.map((_, i) => i) }, 500)).toEqual([
      { op: 'replace', path: '/l', valueBytes: JSON.stringify(many.map((_, i) => i)).length },
    ]);
  });
});

describe('canonicalJson (RFC 8785)', () => {
  it('sorts members by UTF-16 code units and writes numbers as ECMAScript does', () => {
    // RFC 8785 §3.2.3's sorting example: the values in the order the RFC lists them.
    const members = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const order = [...canonicalJson(members).matchAll(/:"([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
    expect(canonicalJson({ n: [333333333.3333333, 1e30, 4.5, 0.002, 1e-27, -0] })).toBe(
      '{"n":[333333333.3333333,1e+30,4.5,0.002,1e-27,0]}',
    );
    expect(canonicalJson({ b: [true, null, 'a"\n'], a: {} })).toBe('{"a":{},"b":[true,null,"a\\"\\n"]}');
  });
});
