import type { JournalEntry } from '../journal/journal.ts';
import type { Micros } from '../kernel/time.ts';
import type { Verdict } from './schedule.ts';

/**
 * A subscription's cursor over one lane of the journal: how far it has taken the lane. The journal is the log of what
 * a subscription is owed, so a cursor is all a subscription keeps: no item per delivery, no queue. Its states:
 *
 * - `idle`: nothing taken beyond `at` is known to wait; the next append's fan-out takes it (it becomes `sending`);
 * - `sending`: one sender holds its lease and sends what follows `at`, one object's entries one after the other,
 *   different objects' at once; it moves `at` only on the condition that it still holds the lease and `at` is what it
 *   read (a conditional write is atomic), so two senders never both move it;
 * - `waiting`: an entry failed: `at` stopped just before it, entries past it that were delivered are in `done`, and
 *   nothing is sent before `due` (the retry schedule's, by the failures in a row); then its retry sends that entry
 *   alone first (the circuit's probe), and the rest once it is answered;
 * - `held`: its subscription is disabled: it stays where it is, and enabling it resumes from there.
 *
 * This module is the cursor's whole logic, pure: what a pass sends (`toSend`) and where the cursor stands after the
 * answers (`settle`). runtime/webhooks.ts does the I/O, store/cursors.ts keeps the items.
 */
export interface Cursor {
  subscriptionId: string;
  lane: string;
  /** Every entry up to this position is done with: delivered, or not one the subscription hears. */
  at: number;
  /** Where it started (its subscription's creation): it is owed nothing at or before it. */
  from?: number;
  /** Entries past `at` delivered already (a pass that stopped at a failure delivered other objects' beyond it). */
  done: number[];
  /** Failed passes in a row: the retry schedule's count. */
  failures: number;
  /** The first failure since the last success (the 5-day rule). */
  failingSince?: Micros;
  /** When a waiting cursor is tried again. */
  due?: Micros;
  /** The entry it waits on and that entry's attempts (the newest 20): what the deliveries listing shows. */
  waitingOn?: { pos: number; attempts: Attempt[] };
  /** The last attempts answered (the newest `KEPT_RECENT`, by position): what the listing shows of the others. */
  recent?: { pos: number; attempt: Attempt }[];
}

/** One attempt to send an entry (or a ping) to a subscription's receiver. */
export interface Attempt {
  at: string;
  status?: number;
  error?: string;
  /** The first bytes of the answer (at most 1 KB is read). */
  answer?: string;
  ms: number;
  /** This attempt was the one more try at once after an error answered quickly: that error's status or text. */
  quickRetryOf?: number | string;
}

export type CursorState = 'idle' | 'sending' | 'waiting' | 'held';

/** Attempts kept for the entry a cursor waits on (the newest): a receiver down for days keeps a small item. */
export const KEPT_ATTEMPTS = 20;
/** Last attempts a cursor keeps of the entries it sent (about 1 KB: one write unit). */
export const KEPT_RECENT = 10;

/** The state of a cursor: its subscription active or not, a lease held or not, a retry due or not. */
export function cursorState(c: Pick<Cursor, 'due'>, active: boolean, leased: boolean): CursorState {
  if (!active) return 'held';
  if (leased) return 'sending';
  return c.due !== undefined ? 'waiting' : 'idle';
}

/** An entry of the page a pass read, and whether the subscription hears of its change (events, drafts). */
export interface Read {
  entry: JournalEntry;
  heard: boolean;
}

/**
 * What a pass sends of a page (consecutive entries after `at`): the entries the subscription hears and has not had,
 * as chains, one per object in position order (a chain stops at its first failure). A waiting cursor (its retry)
 * sends only its first such entry: the probe.
 */
export function toSend(c: Cursor, page: readonly Read[]): JournalEntry[][] {
  const done = new Set(c.done);
  const owed = page.filter((r) => r.heard && !done.has(r.entry.pos) && r.entry.pos > c.at).map((r) => r.entry);
  if (c.failures > 0) return owed.length ? [[owed[0]!]] : [];
  const chains = new Map<string, JournalEntry[]>();
  for (const e of owed) {
    const object = `${e.change.kind}#${e.change.id}`;
    chains.set(object, [...(chains.get(object) ?? []), e]);
  }
  return [...chains.values()];
}

/** What one attempt of an entry came to. */
export interface Answered {
  attempt: Attempt;
  verdict: Verdict;
}

/**
 * Where a cursor stands after a pass over `page` with these answers (by position; an entry a pass did not send has
 * none): `at` moves over every entry done with, up to the first that is not (failed, or not sent: behind a failure of
 * its object, or behind the probe); those delivered beyond it go into `done`. A failure of that first entry makes the
 * cursor wait (`due`, the verdict's); `disable`: its receiver answered 410, or has failed for 5 days.
 */
export function settle(
  c: Cursor,
  page: readonly Read[],
  answers: ReadonlyMap<number, Answered>,
  now: Micros,
): { cursor: Cursor; disable?: 'gone' | 'failing' } {
  const done = new Set(c.done);
  let at = c.at;
  let stopped: number | undefined;
  for (const { entry, heard } of page) {
    if (entry.pos <= c.at) continue;
    const finished = !heard || done.has(entry.pos) || answers.get(entry.pos)?.verdict.state === 'delivered';
    if (stopped === undefined && finished) {
      at = entry.pos;
      done.delete(entry.pos);
    } else {
      stopped ??= entry.pos;
      if (finished) done.add(entry.pos);
    }
  }
  const answered = [...answers].map(([pos, a]) => ({ pos, attempt: a.attempt })).sort((a, b) => a.pos - b.pos);
  const recent = [...(c.recent ?? []), ...answered].slice(-KEPT_RECENT);
  const base = {
    subscriptionId: c.subscriptionId,
    lane: c.lane,
    at,
    done: [...done].sort((a, b) => a - b),
    ...(recent.length && { recent }),
  };
  const head = stopped === undefined ? undefined : answers.get(stopped);
  if (!head || head.verdict.state === 'delivered')
    // Everything sent was answered, or the rest was not sent yet (behind the probe): no failure, no wait.
    return { cursor: { ...base, failures: 0 } };
  const before = c.waitingOn?.pos === stopped ? c.waitingOn!.attempts : [];
  const attempts = [...before, head.attempt].slice(-KEPT_ATTEMPTS);
  const waiting = {
    ...base,
    failures: c.failures + 1,
    failingSince: c.failingSince ?? now,
    waitingOn: { pos: stopped!, attempts },
  };
  if (head.verdict.state === 'failed') return { cursor: waiting, disable: head.verdict.disable };
  return { cursor: { ...waiting, due: head.verdict.due } };
}

/** What a cursor's sender needs of the world: the store's conditional writes, the lane, the receiver, a clock. */
export interface CursorPort {
  /** Takes the cursor (no other sender holds it, no retry waits); the lease's token is the sender's. */
  take(token: string): Promise<Cursor | undefined>;
  /**
   * Consecutive entries of the cursor's lane after a position, whether the subscription hears of each; `fresh`: from
   * the store itself (a release found the head moved: what this process knows of the lane is behind).
   */
  read(after: number, limit: number, fresh: boolean): Promise<Read[]>;
  /** One attempt of an entry, judged by the cursor's failures in a row (a first one waits less than a retry). */
  attempt(entry: JournalEntry, cursor: Pick<Cursor, 'failures' | 'failingSince'>): Promise<Answered>;
  /** Moves the cursor it holds from `read`: keeping the lease, or letting it go until `due`. False: it lost it. */
  move(next: Cursor, read: number, token: string, then: 'keep' | { due: Micros }): Promise<boolean>;
  /** Lets it go caught up, on the lane's head being right after `next.at` (one transaction). */
  release(next: Cursor, read: number, token: string): Promise<'released' | 'more' | 'lost'>;
  /**
   * Whether more was appended in this process past `at` since the sender's last read, waiting a moment for it (what
   * the fan-out of the next batch tells the sender under way): efficiency only, the release's head check is the safety.
   */
  more(at: number): Promise<boolean>;
  /** The service disables the subscription (410, or 5 days failing). */
  disable(reason: 'gone' | 'failing'): Promise<void>;
  /** Lets the cursor go as it stands, due at once (the sender failed: a store error, not a receiver's). */
  abandon(token: string): Promise<void>;
  now(): Micros;
}

/** Entries a sender reads at once (one Query). */
export const PAGE = 100;
/** A sender reading on records its cursor at least every this many positions (a lost sender resends no more). */
const RECORD_EVERY = PAGE;
/** Chains one sender has in flight at once (keep-alive connections to one receiver). */
const PARALLEL = 64;

/**
 * One sender of one cursor: takes it, reads its lane after it, sends (`toSend`), moves it (`settle`), and reads on
 * until the lane holds nothing more (its release checks the lane's head in the same transaction, so an append that
 * found the cursor taken is never left unsent), the cursor waits for a retry, or its budget is `spent` (then it is
 * left due at once: the next fan-out or sweep goes on). Returns the deliveries made.
 */
export async function sendCursor(port: CursorPort, token: string, spent: () => boolean): Promise<number> {
  const cursor = await port.take(token);
  if (!cursor) return 0;
  try {
    return await sendFrom(port, cursor, token, spent);
  } catch (error) {
    // A store error mid-way: the cursor is let go at once (not held until its lease runs out); what was sent and not
    // recorded goes again (at least once: the same ids).
    await port.abandon(token).catch(() => undefined);
    throw error;
  }
}

async function sendFrom(port: CursorPort, taken: Cursor, token: string, spent: () => boolean): Promise<number> {
  let cursor = taken;
  /** Where the stored cursor stands (every write holds on it); the sender may be ahead of it, not yet recorded. */
  let recorded = taken.at;
  let delivered = 0;
  let raced = false;
  for (;;) {
    const page = await port.read(cursor.at, PAGE, raced);
    raced = false;
    const answers = new Map<number, Answered>();
    const from = cursor;
    const sendChain = async (chain: JournalEntry[]) => {
      for (const e of chain) {
        const answered = await port.attempt(e, from);
        answers.set(e.pos, answered);
        if (answered.verdict.state !== 'delivered') break;
      }
    };
    await inParallel(toSend(cursor, page), PARALLEL, sendChain);
    const { cursor: next, disable } = settle(cursor, page, answers, port.now());
    delivered += [...answers.values()].filter((a) => a.verdict.state === 'delivered').length;
    if (disable) {
      await port.move(next, recorded, token, { due: port.now() });
      await port.disable(disable);
      return delivered;
    }
    if (next.due !== undefined || spent()) {
      // Waits for its retry, or leaves the rest to the next fan-out or sweep at once.
      await port.move(next, recorded, token, { due: next.due ?? port.now() });
      return delivered;
    }
    cursor = next;
    const caughtUp = page.length < PAGE && next.at === (page.at(-1)?.entry.pos ?? from.at);
    // Caught up: more appended in this process meanwhile is read on at once; else it lets go, unless an append came
    // from elsewhere (the release's head check fails), and then it reads on from the store itself.
    if (caughtUp && (await port.more(next.at))) continue;
    if (caughtUp) {
      if ((await port.release(next, recorded, token)) !== 'more') return delivered;
      raced = true;
    }
    // Reading on: the stored cursor stays where it was recorded (each write holds on it) until this many more.
    if (next.at - recorded >= RECORD_EVERY) {
      if (!(await port.move(next, recorded, token, 'keep'))) return delivered;
      recorded = next.at;
    }
  }
}

/** Runs `work` on every item, at most `limit` at once. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
