import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../functions/domain/journal/journal.ts';
import { type Answered, type Cursor, type CursorPort, sendCursor } from '../../../functions/domain/webhooks/cursor.ts';
import { seeded } from '../../../functions/store/faults.ts';

/**
 * A deterministic simulation of a subscription's cursor (domain/webhooks/cursor.ts): the sender's real code
 * (`sendCursor`) over an in-memory model of what it relies on, driven by a seed that picks every interleaving:
 * - the cursor item's conditional writes, atomic (take: no live lease and no retry waiting; move and release: the
 *   lease is the sender's and the cursor is where it read it; release: in one transaction with the lane's head);
 * - a lane appended to while senders read it, each append waking a sender (the fan-out) that may find the cursor
 *   taken; a sweep that wakes the cursor once it is due or its lease ran out;
 * - a receiver that fails now and then, and a sender that may stop dead at any step (a Lambda that crashed),
 *   leaving its lease to run out;
 * - a logical clock that moves with every step.
 * After each schedule: every entry was answered 2xx; each object's entry was sent only once the one before it was
 * answered 2xx (order per object, retries included); none was answered 2xx twice unless a sender crashed; the cursor
 * stands at the lane's end. Each planted bug below must make it fail, with the seed that shows it.
 */

interface Bugs {
  /** The release does not check the lane's head: an append that found the cursor taken is left unsent. */
  releaseIgnoresHead?: boolean;
  /** The take does not check the lease: two senders send one cursor at once. */
  takeIgnoresLease?: boolean;
  /** A failed attempt is taken for delivered: the cursor moves past an entry the receiver never took. */
  failureTakenForDelivered?: boolean;
}

const MS = 1_000;
const LEASE = 5_000 * MS;
const BUDGET = 2_000 * MS;

class Scheduler {
  private waiting: { go: () => void }[] = [];
  tick = 0;
  constructor(readonly random: () => number) {}
  now = () => this.tick * 10 * MS;
  /** Every store or receiver call yields; a sender may be stopped dead there (its promise never settles). */
  yield(mayCrash: boolean): Promise<void> {
    return new Promise<void>((go) => this.waiting.push({ go: () => go() })).then(() => {
      if (mayCrash && this.random() < this.crashRate) throw new Crash();
    });
  }
  crashRate = 0;
  async run(done: () => boolean, step: () => void): Promise<boolean> {
    for (let guard = 0; guard < 50_000; guard++) {
      await new Promise((r) => setImmediate(r));
      step();
      if (!this.waiting.length) {
        if (done()) return true;
        this.tick++;
        continue;
      }
      this.tick++;
      const [next] = this.waiting.splice(Math.floor(this.random() * this.waiting.length), 1);
      next!.go();
    }
    return false;
  }
}
class Crash extends Error {}

interface Stored extends Cursor {
  leaseToken?: string;
  leaseUntil?: number;
}

function simulate(seed: number, bugs: Bugs = {}) {
  const random = seeded(seed);
  const sched = new Scheduler(random);
  const crashes = random() < 0.5;
  sched.crashRate = crashes ? 0.02 : 0;
  const failRate = random() * 0.4;
  const lane: JournalEntry[] = [];
  const objects = ['a', 'b', 'c'];
  const seqs = new Map<string, number>();
  let stored: Stored = { subscriptionId: 's', lane: 'lots', at: 0, done: [], failures: 0 };
  const accepted = new Map<number, number>();
  const acceptedSeq = new Map<string, number>();
  const violations: string[] = [];
  let crashed = 0;
  let healthy = false;
  const total = 10 + Math.floor(random() * 30);

  const due = () =>
    (stored.due !== undefined && stored.due <= sched.now()) ||
    (stored.leaseUntil !== undefined && stored.leaseUntil < sched.now());

  const port = (mayCrash: boolean): CursorPort => ({
    async take(token) {
      await sched.yield(mayCrash);
      const leased = stored.leaseUntil !== undefined && stored.leaseUntil >= sched.now();
      if ((leased && !bugs.takeIgnoresLease) || (stored.due !== undefined && stored.due > sched.now()))
        return undefined;
      const { due: _, ...rest } = stored;
      stored = { ...rest, leaseToken: token, leaseUntil: sched.now() + LEASE };
      return { ...stored };
    },
    async read(after, limit) {
      await sched.yield(mayCrash);
      return lane
        .filter((e) => e.pos > after)
        .slice(0, limit)
        .map((entry) => ({ entry, heard: true }));
    },
    async attempt(e) {
      const { id, seq } = e.change;
      if ((acceptedSeq.get(id) ?? 0) < seq - 1)
        violations.push(`${id} seq ${seq} sent before seq ${seq - 1} was answered`);
      await sched.yield(mayCrash);
      const ok = healthy || random() >= failRate;
      if (!ok && bugs.failureTakenForDelivered)
        return { attempt: { at: '', ms: 1, status: 500 }, verdict: { state: 'delivered' } };
      if (!ok)
        return {
          attempt: { at: '', ms: 1, status: 500 },
          verdict: { state: 'pending', due: sched.now() + 1_000 * MS },
        };
      accepted.set(e.pos, (accepted.get(e.pos) ?? 0) + 1);
      acceptedSeq.set(id, Math.max(acceptedSeq.get(id) ?? 0, seq));
      return { attempt: { at: '', ms: 1, status: 204 }, verdict: { state: 'delivered' } } satisfies Answered;
    },
    async move(next, read, token, then) {
      await sched.yield(mayCrash);
      if (stored.leaseToken !== token || stored.at !== read) return false;
      const { due: _, waitingOn: __, failingSince: ___, ...kept } = stored;
      stored =
        then === 'keep'
          ? { ...kept, ...next, leaseToken: token, leaseUntil: sched.now() + LEASE }
          : { ...next, due: then.due };
      return true;
    },
    async release(next, read, token) {
      await sched.yield(mayCrash);
      if (stored.leaseToken !== token || stored.at !== read) return 'lost';
      if (!bugs.releaseIgnoresHead && lane.length !== next.at) return 'more';
      stored = { ...next };
      return 'released';
    },
    // Whether more came meanwhile: the seed says (a fan-out in this process, or none), never a wait.
    async more() {
      await sched.yield(mayCrash);
      return random() < 0.3;
    },
    async disable() {},
    // A sender here only stops dead (a process gone lets nothing go): its lease runs out and the sweep takes over.
    async abandon() {},
    now: sched.now,
  });

  const senders = new Set<Promise<unknown>>();
  const wake = (mayCrash: boolean) => {
    const until = sched.now() + BUDGET;
    const p = sendCursor(port(mayCrash), `t${sched.tick}-${random()}`, () => sched.now() > until)
      .catch((error) => {
        if (!(error instanceof Crash)) throw error;
        crashed++;
        // The Lambda died with its batch: SQS hands the batch again, and its fan-out wakes the cursor again.
        wake(mayCrash);
      })
      .finally(() => senders.delete(p));
    senders.add(p);
  };

  return (async () => {
    const finished = await sched.run(
      () => lane.length === total && stored.at === total && stored.leaseUntil === undefined && senders.size === 0,
      () => {
        // The writer: appends now and then (each append wakes a sender: the fan-out), until it has written all.
        if (lane.length < total && random() < 0.05) {
          for (let n = 1 + Math.floor(random() * 3); n > 0 && lane.length < total; n--) {
            const id = objects[Math.floor(random() * objects.length)]!;
            const seq = (seqs.get(id) ?? 0) + 1;
            seqs.set(id, seq);
            lane.push({
              lane: 'lots',
              pos: lane.length + 1,
              stamp: lane.length + 1,
              change: { kind: 'lot', id, seq, dateModified: '', lane: 'lots' },
            });
          }
          wake(true);
        }
        // The sweep: a cursor due (a retry, a lease run out) is sent again; once all is written, the receiver heals.
        if (lane.length === total && sched.tick % 50 === 0) healthy = true;
        if (senders.size === 0 && due()) wake(!healthy);
      },
    );
    return { finished, lane, accepted, violations, crashed, stored, total };
  })();
}

/** The invariants of one schedule, as the failures they find (none: it held). */
async function check(seed: number, bugs?: Bugs): Promise<string[]> {
  const { finished, lane, accepted, violations, crashed, stored, total } = await simulate(seed, bugs);
  const found = [...violations];
  if (!finished) found.push(`did not finish: cursor at ${stored.at} of ${total}`);
  for (const e of lane) {
    const n = accepted.get(e.pos) ?? 0;
    if (n === 0) found.push(`entry ${e.pos} never delivered`);
    if (n > 1 && crashed === 0) found.push(`entry ${e.pos} delivered ${n} times with no sender crashed`);
  }
  return found;
}

const SEEDS = 1_000;

describe('the cursor of a subscription, simulated', () => {
  // The harness's limit, not a time asserted: a loaded machine runs the schedules slower.
  it(`holds its invariants over ${SEEDS} seeded schedules of appends, senders, failures and crashes`, {
    timeout: 120_000,
  }, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const found = await check(seed);
      expect(found, `seed ${seed}`).toEqual([]);
    }
  });

  it.each([
    ['a release that does not check the lane head', { releaseIgnoresHead: true }],
    ['a take that does not check the lease', { takeIgnoresLease: true }],
    ['a failure taken for a delivery', { failureTakenForDelivered: true }],
  ] as const)('fails with a seed that shows it on %s', { timeout: 120_000 }, async (_, bugs) => {
    let failing: number | undefined;
    for (let seed = 1; seed <= SEEDS && failing === undefined; seed++)
      if ((await check(seed, bugs)).length) failing = seed;
    expect(failing).toBeDefined();
  });
});
