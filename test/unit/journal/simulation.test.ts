import { describe, expect, it } from 'vitest';
import {
  type Append,
  appendChanges,
  consecutive,
  type JournalChange,
  type JournalPort,
  type LaneHead,
  type Mark,
  objectKey,
} from '../../../functions/domain/journal/journal.ts';
import { seeded } from '../../../functions/store/faults.ts';

/**
 * A deterministic simulation of the journal (the way FoundationDB and TigerBeetle test theirs): the writer's real code
 * (`appendChanges`) over an in-memory model of what it relies on from DynamoDB, driven by a seed that picks every
 * interleaving. The model:
 * - conditional transactions, atomic, as TransactWriteItems (a head or mark moved since it was read fails the whole);
 *   consistent reads see every committed transaction;
 * - a stream that hands each object's changes in seq order (the records of one item) but interleaves objects
 *   arbitrarily, in batches of 1 to 10, several at once; a batch may be handed again (SQS at least once), after a
 *   crash before or after its commit, and a batch may be lost for good (a dead letter): the object's next change
 *   must bring it from the change log;
 * - a reader's Query that shows a committed transaction's entries one by one, in any order (read-committed:
 *   DynamoDB does not isolate a Query from a transaction).
 * After each schedule: every lane is gapless from 1, every listed change is in it exactly once, one object's changes
 * in seq order, each mark at its object's last change, and a reader that followed the lane while it was written read
 * exactly the lane. Each planted bug below must make it fail, with the seed that shows it.
 */

/** Planted bugs: each one a way the store or a reader could be wrong. */
interface Bugs {
  /** The append does not hold on the head it read: two writers may take the same positions. */
  unconditionedHead?: boolean;
  /** The append does not hold on the mark it read: a change handed twice at once is journaled twice. */
  unconditionedMark?: boolean;
  /** The log read of missing changes returns nothing: a lost record is never journaled. */
  noHistory?: boolean;
  /** The reader takes every entry it sees, not only the consecutive run after its position. */
  readerSkipsGaps?: boolean;
}

interface StoredEntry {
  pos: number;
  change: JournalChange;
  /** The reader's Query shows it from this tick on (a transaction's entries show one by one). */
  visibleAt: number;
}

/** The cooperative scheduler: every store call yields, and the seed picks which waiting call goes on next. */
class Scheduler {
  private waiting: (() => void)[] = [];
  tick = 0;
  constructor(readonly random: () => number) {}
  yield(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  /** Runs until nothing waits: each step lets one waiting call go on, chosen by the seed. */
  async run(done: () => boolean): Promise<void> {
    for (let guard = 0; guard < 200_000; guard++) {
      await new Promise((r) => setImmediate(r)); // every continuation runs until it waits again
      if (!this.waiting.length) {
        if (done()) return;
        continue;
      }
      this.tick++;
      const [next] = this.waiting.splice(Math.floor(this.random() * this.waiting.length), 1);
      next!();
    }
    throw new Error('the simulation did not end');
  }
}

/** The table, in memory: marks, heads, entries per lane, and the objects' change logs. */
class Table {
  marks = new Map<string, Mark>();
  /** The listing: per lane, the rows by stamp (each an object's, at its last entry). */
  rows = new Map<string, Map<number, JournalChange>>();
  heads = new Map<string, LaneHead>();
  lanes = new Map<string, Map<number, StoredEntry>>();
  log = new Map<string, JournalChange[]>();
  constructor(
    readonly sim: Scheduler,
    readonly bugs: Bugs,
  ) {}

  port(crash?: { before?: boolean; after?: boolean }): JournalPort {
    const { sim, bugs } = this;
    return {
      read: async (objects, lanes) => {
        await sim.yield();
        return {
          marks: new Map(
            objects.flatMap((o) =>
              this.marks.has(objectKey(o)) ? [[objectKey(o), this.marks.get(objectKey(o))!]] : [],
            ),
          ),
          heads: new Map(lanes.flatMap((l) => (this.heads.has(l) ? [[l, { ...this.heads.get(l)! }]] : []))),
        };
      },
      history: async (kind, id, after, before) => {
        await sim.yield();
        if (bugs.noHistory) return [];
        return (this.log.get(`${kind}#${id}`) ?? []).filter((c) => c.seq > after && c.seq < before);
      },
      commit: async (append: Append) => {
        await sim.yield();
        if (crash?.before) throw new Error('crashed before the commit');
        const headsHold = append.heads.every(
          (h) => bugs.unconditionedHead || this.heads.get(h.lane)?.next === h.read?.next,
        );
        const marksHold = append.marks.every(
          (m) => bugs.unconditionedMark || this.marks.get(objectKey(m))?.seq === m.read,
        );
        if (!headsHold || !marksHold) return 'moved';
        for (const h of append.heads) this.heads.set(h.lane, { ...h.next });
        for (const e of append.entries) {
          const lane = this.lanes.get(e.lane) ?? new Map();
          lane.set(e.pos, { pos: e.pos, change: e.change, visibleAt: sim.tick + Math.floor(sim.random() * 20) });
          this.lanes.set(e.lane, lane);
        }
        for (const m of append.marks) this.marks.set(objectKey(m), m.next);
        for (const r of append.rows.remove) this.rows.get(r.lane)?.delete(r.stamp);
        for (const e of append.rows.put) {
          const rows = this.rows.get(e.lane) ?? new Map();
          rows.set(e.stamp, e.change);
          this.rows.set(e.lane, rows);
        }
        if (crash?.after) throw new Error('crashed after the commit');
        return 'done';
      },
      pause: () => sim.yield(),
    };
  }

  /** A reader's Query of a lane after a position: what shows now, in position order (a page of 5). */
  async query(lane: string, after: number): Promise<StoredEntry[]> {
    await this.sim.yield();
    const entries = [...(this.lanes.get(lane)?.values() ?? [])];
    return entries
      .filter((e) => e.pos > after && e.visibleAt <= this.sim.tick)
      .sort((a, b) => a.pos - b.pos)
      .slice(0, 5);
  }
}

/** The objects and their changes: some start as drafts (no lane) and are published into a lane; some are test mode. */
function workload(random: () => number) {
  const changes: JournalChange[] = [];
  const objects = 2 + Math.floor(random() * 5);
  for (let o = 0; o < objects; o++) {
    const id = `o${o}`;
    const drafts = Math.floor(random() * 3);
    const lane = random() < 0.3 ? 'lots#test' : 'lots';
    const count = 1 + Math.floor(random() * 8);
    for (let seq = 1; seq <= count; seq++) {
      const draft = seq <= drafts;
      changes.push({
        kind: 'lot',
        id,
        seq,
        dateModified: `t${seq}`,
        ...(draft ? { draftOf: 'broker', status: 'draft' } : { lane, status: 'active' }),
      });
    }
  }
  return changes;
}

/** One schedule: the writers, the stream's batches (duplicated, crashed, lost), a reader per lane; then the checks. */
async function simulate(seed: number, bugs: Bugs = {}): Promise<string | undefined> {
  const random = seeded(seed);
  const sim = new Scheduler(random);
  const table = new Table(sim, bugs);
  const changes = workload(random);
  for (const c of changes) table.log.set(objectKey(c), [...(table.log.get(objectKey(c)) ?? []), c]);
  // The stream: each object's records in order; batches mix objects, in any interleaving.
  const queues = new Map<string, JournalChange[]>();
  for (const c of changes) queues.set(objectKey(c), [...(queues.get(objectKey(c)) ?? []), c]);
  const batches: JournalChange[][] = [];
  while ([...queues.values()].some((q) => q.length)) {
    const batch: JournalChange[] = [];
    const size = 1 + Math.floor(random() * 10);
    while (batch.length < size) {
      const open = [...queues.values()].filter((q) => q.length);
      if (!open.length) break;
      batch.push(open[Math.floor(random() * open.length)]!.shift()!);
    }
    batches.push(batch);
  }
  // Which objects' last change is the one a lost batch held (nothing after it would bring it: left out of the check).
  const lost = new Set<JournalChange>();
  let running = 0;
  const hand = async (batch: JournalChange[], receives = 1): Promise<void> => {
    running++;
    try {
      const fate = random();
      const crash = fate < 0.1 ? { before: true } : fate < 0.2 ? { after: true } : undefined;
      try {
        await appendChanges(table.port(crash), batch);
      } catch {
        // Handed again (SQS), up to 5 receives; then a dead letter, which the object's next change must bring.
        if (receives < 5) await hand(batch, receives + 1);
        else for (const c of batch) lost.add(c);
        return;
      }
      if (random() < 0.1) await hand(batch, receives + 1); // a duplicate, any time later
    } finally {
      running--;
    }
  };
  // Several batches at once (concurrent Lambdas); one object's next batch only once the one before was handled,
  // except for the duplicates above.
  let writing = true;
  let reading = 2;
  const writers = (async () => {
    const inFlight: Promise<void>[] = [];
    for (const batch of batches) {
      inFlight.push(hand(batch));
      if (inFlight.length >= 3)
        await Promise.race(inFlight.map((p, i) => p.then(() => i))).then((i) => inFlight.splice(i, 1));
      await sim.yield();
    }
    await Promise.all(inFlight);
    writing = false;
  })();
  // A reader per lane follows it by position while it is written.
  const read = new Map<string, JournalChange[]>();
  const readers = ['lots', 'lots#test'].map(async (lane) => {
    const got: JournalChange[] = [];
    read.set(lane, got);
    let at = 0;
    while (writing) {
      const page = await table.query(lane, at);
      const take = bugs.readerSkipsGaps ? page : consecutive(at, page);
      if (take.length) {
        got.push(...take.map((e) => e.change));
        at = take.at(-1)!.pos;
      }
    }
    // Caught up: everything has shown by now.
    sim.tick += 1000;
    for (;;) {
      const page = consecutive(at, await table.query(lane, at));
      if (!page.length) break;
      got.push(...page.map((e) => e.change));
      at = page.at(-1)!.pos;
    }
    reading--;
  });
  await sim.run(() => !writing && running === 0 && reading === 0);
  await writers;
  await Promise.all(readers);

  // The checks.
  for (const [lane, entries] of table.lanes) {
    const positions = [...entries.keys()].sort((a, b) => a - b);
    if (positions.some((p, i) => p !== i + 1)) return `lane ${lane} has a gap: ${positions.join(',')}`;
    if (table.heads.get(lane)?.next !== positions.length + 1) return `lane ${lane}'s head is not after its last entry`;
    const journaled = positions.map((p) => entries.get(p)!.change);
    const seen = new Set<string>();
    const lastSeq = new Map<string, number>();
    for (const c of journaled) {
      const key = `${objectKey(c)}@${c.seq}`;
      if (seen.has(key)) return `lane ${lane} holds ${key} twice`;
      seen.add(key);
      if ((lastSeq.get(objectKey(c)) ?? 0) >= c.seq) return `lane ${lane} has ${objectKey(c)}'s changes out of order`;
      lastSeq.set(objectKey(c), c.seq);
    }
    const follower = read.get(lane) ?? [];
    if (follower.length !== journaled.length || follower.some((c, i) => c !== journaled[i]))
      return `the reader of ${lane} read ${follower.length} entries of ${journaled.length}, or others`;
  }
  for (const [lane, rows] of table.rows) {
    const objects = [...rows.values()].map(objectKey);
    if (new Set(objects).size !== objects.length) return `the listing of ${lane} holds an object twice`;
    for (const [stamp, c] of rows) {
      const newest = [...(table.lanes.get(lane)?.values() ?? [])]
        .filter((e) => objectKey(e.change) === objectKey(c))
        .at(-1);
      if (newest?.change !== c) return `the listing of ${lane} shows ${objectKey(c)} at an older change`;
      if (newest.pos === undefined || stamp <= 0) return `the listing of ${lane} has a row with no stamp`;
    }
  }
  const last = new Map<string, JournalChange>();
  for (const c of changes) last.set(objectKey(c), c);
  for (const c of changes) {
    // A change lost for good with nothing after it to bring it: no one could journal it (the alarm's case).
    const broughtBack = !lost.has(c) || last.get(objectKey(c)) !== c;
    const lostTail = changes.filter((o) => objectKey(o) === objectKey(c) && o.seq >= c.seq).every((o) => lost.has(o));
    if (!c.lane || lostTail || !broughtBack) continue;
    const found = [...(table.lanes.get(c.lane)?.values() ?? [])].filter(
      (e) => objectKey(e.change) === objectKey(c) && e.change.seq === c.seq,
    );
    if (found.length !== 1) return `${objectKey(c)}@${c.seq} is in its lane ${found.length} times`;
  }
  for (const [key, c] of last) {
    const lostTail = changes.filter((o) => objectKey(o) === key).every((o) => lost.has(o) || o.seq < c.seq);
    const mark = table.marks.get(key)?.seq;
    if (!lostTail && mark !== c.seq) return `${key}'s mark is ${mark}, not ${c.seq}`;
  }
  return undefined;
}

/** Seeds run per check: the sound journal's, and each planted bug's until one fails. */
const SEEDS = 1500;

async function firstFailure(bugs: Bugs, seeds = SEEDS) {
  for (let seed = 1; seed <= seeds; seed++) {
    const failure = await simulate(seed, bugs);
    if (failure) return { seed, failure };
  }
  return undefined;
}

describe('the journal, simulated', () => {
  it(`holds every invariant over ${SEEDS} seeded schedules`, async () => {
    const started = performance.now();
    const failure = await firstFailure({});
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `journal simulation: ${SEEDS} schedules in ${seconds.toFixed(1)} s (${Math.round(SEEDS / seconds)} a second)`,
    );
    expect(failure).toBeUndefined();
  }, 120_000);

  it.each([
    ['a writer that does not hold on the head it read', { unconditionedHead: true }],
    ['a writer that does not hold on the mark it read', { unconditionedMark: true }],
    ['a writer that does not read missing changes from the log', { noHistory: true }],
    ['a reader that does not stop at the first missing position', { readerSkipsGaps: true }],
  ] as const)(
    'fails, with the seed that shows it, on %s',
    async (_, bugs) => {
      const failure = await firstFailure(bugs);
      console.log(
        `planted bug ${JSON.stringify(bugs)}: ${failure ? `seed ${failure.seed}: ${failure.failure}` : 'not found'}`,
      );
      expect(failure).toBeDefined();
      // The seed reproduces it.
      expect(await simulate(failure!.seed, bugs)).toBe(failure!.failure);
    },
    120_000,
  );
});
