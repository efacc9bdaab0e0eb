import { isObject, type JsonRecord } from '../kernel/objects.ts';
import { type Micros, parseInstant } from '../kernel/time.ts';
import type { ObjectChange } from '../webhooks/events.ts';

/**
 * The journal: one ordered lane of changes per listing feed (`lots`, `lots#test`, ... : the feed's key), which the
 * change feed (`feed=changes`) and every later reader follow by position. Order comes from what DynamoDB documents,
 * never from a clock:
 *
 * - the changes of one object reach the writer in `seq` order (the stream records of one item, its root, are ordered;
 *   the pipe keeps one object's records in one message group), and the writer checks it: a change at or below the
 *   object's mark (the last seq journaled) was journaled already and is dropped, one above the mark + 1 brings the
 *   missing ones from the object's change log first;
 * - positions are gapless: an append is ONE transaction that moves each lane's head from the value it read
 *   (`next = :read`), puts the entries at the positions it took and moves the objects' marks from what it read. Two
 *   writers that read the same head cannot both commit (a conditional write is atomic), so no position is taken twice
 *   and no entry is written at a position nobody took; a crash leaves all of it or none (no hole to fill, no no-op);
 * - a reader reads positions in order and stops at the first one missing (a transaction's items may show one by one
 *   to a Query): it never passes a position that will hold a change later.
 *
 * The price of appending under a condition on the head: one lane's appends are serialized (one commit at a time per
 * lane; a writer that loses the race reads the head again). DynamoDB allows 1,000 write units a second on one
 * partition, an entry takes 2 (transactional), so a lane holds about 500 changes a second; past that, split a lane by
 * object (`<feed>#<n>`, the object's hash mod n: one object's changes stay in one sub-lane) and have readers merge the
 * sub-lanes by stamp.
 */

/** A change as the journal keeps it: the object's change, its lane, its view. */
export interface JournalChange extends ObjectChange {
  /**
   * The feed key of the object (`lots`, `lots#test`...): its lane, a draft's too (an entry no feed shows, for its
   * owner's webhooks); none: a change from before drafts had a lane, which no lane takes.
   */
  lane?: string;
  /** The object's listing view after the change (what the feeds show). */
  view?: JsonRecord;
}

/** Where a lane stands: the position its next entry takes (1 the first) and the stamp of its last entry. */
export interface LaneHead {
  next: number;
  stamp: Micros;
}

/** One entry: a change at a position of its lane, stamped when it was journaled (never earlier than the one before). */
export interface JournalEntry {
  lane: string;
  pos: number;
  stamp: Micros;
  change: JournalChange;
  /** History of an object the journal had never seen, taken over from its log: listed, but no news to a subscriber. */
  takenOver?: boolean;
}

/**
 * Where the journal stands with an object: its last seq journaled and, when it is listed, its row in the listing
 * (the lane and the stamp of its last entry there).
 */
export interface Mark {
  seq: number;
  listed?: { lane: string; stamp: Micros };
}

/**
 * One append, committed whole or not at all: each head and mark moves only from the value read. `rows`: the listing
 * (the dateModified feeds): each object's row moved to its last entry's stamp (`put`), the row it had removed.
 */
export interface Append {
  heads: { lane: string; read: LaneHead | undefined; next: LaneHead }[];
  entries: JournalEntry[];
  marks: { kind: string; id: string; read: number | undefined; next: Mark }[];
  rows: { put: JournalEntry[]; remove: { lane: string; stamp: Micros }[] };
}

/** What the writer needs of the table. Every read is strongly consistent. */
export interface JournalPort {
  /**
   * The marks of these objects (by `kind#id`) and the heads of these lanes. `again`: an append that failed its
   * condition reads again (a store may answer a first read from what it knows, never a second).
   */
  read(
    objects: readonly { kind: string; id: string }[],
    lanes: readonly string[],
    again?: boolean,
  ): Promise<JournalState>;
  /** The object's changes strictly between two seqs, from its change log, oldest first. */
  history(kind: string, id: string, after: number, before: number): Promise<JournalChange[]>;
  /** Commits an append: `moved` when a head or a mark was not the value read (nothing written then). */
  commit(append: Append): Promise<'done' | 'moved'>;
  /** A pause before reading again after losing a race (the simulation's yield, a jittered sleep in the store). */
  pause(attempt: number): Promise<void>;
}

export interface JournalState {
  marks: Map<string, Mark>;
  heads: Map<string, LaneHead>;
}

/** What an append made of a batch. */
export interface Appended {
  /** Changes journaled now, one object's in seq order (the handed ones and any read from the log before them). */
  fresh: JournalChange[];
  /** Handed changes journaled before (a batch handed again, a duplicate record). */
  seen: JournalChange[];
  /**
   * Of `fresh`, the changes of objects the journal had never seen (no mark: older than the journal), read from their
   * change log: they are the history the journal takes over, not news (the webhooks of that time were sent then).
   */
  takenOver: JournalChange[];
}

/** A transaction's most items (DynamoDB's). */
export const MAX_APPEND_ITEMS = 100;
/** Attempts of one append before it fails (the batch then comes back from the queue). */
export const MAX_ATTEMPTS = 50;

export const objectKey = (c: { kind: string; id: string }): string => `${c.kind}#${c.id}`;

/**
 * Appends a batch of changes (as the stream handed them: any objects, each one's in seq order or repeated) to the
 * journal, each exactly once, and returns what it did.
 */
export async function appendChanges(port: JournalPort, handed: readonly JournalChange[]): Promise<Appended> {
  const byObject = new Map<string, JournalChange[]>();
  for (const c of handed) {
    const list = byObject.get(objectKey(c)) ?? [];
    if (!list.some((o) => o.seq === c.seq)) list.push(c);
    byObject.set(objectKey(c), list);
  }
  for (const list of byObject.values()) list.sort((a, b) => a.seq - b.seq);
  const objects = [...byObject.values()].map((l) => ({ kind: l[0]!.kind, id: l[0]!.id }));
  const out: Appended = { fresh: [], seen: [], takenOver: [] };
  let first = true;
  /** Objects the journal had never seen when this batch came: what their log brings is history taken over. */
  const unmarked = new Set<string>();
  for (let attempt = 0; ; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`journal: no append after ${MAX_ATTEMPTS} attempts`);
    const once = async () => {
      const lanes = new Set(handed.flatMap((c) => (c.lane ? [c.lane] : [])));
      // A first read skips the marks of objects whose first change is their create (seq 1): they have none, or the
      // append's condition on "none" fails and the read again takes them (a create handed twice).
      const creates = first ? objects.filter((o) => byObject.get(objectKey(o))![0]!.seq === 1) : [];
      let state = await port.read(
        objects.filter((o) => !creates.includes(o)),
        [...lanes],
        attempt > 0,
      );
      // Each object's changes to journal now: above its mark, with the ones missing before them from its log.
      const pending: Pending[] = [];
      for (const list of byObject.values()) {
        const mark = state.marks.get(objectKey(list[0]!));
        const read = mark?.seq;
        if (first && read === undefined) unmarked.add(objectKey(list[0]!));
        const above = list.filter((c) => c.seq > (read ?? 0));
        if (first) out.seen.push(...list.filter((c) => c.seq <= (read ?? 0)));
        if (!above.length) continue;
        const missing =
          above[0]!.seq > (read ?? 0) + 1
            ? await port.history(above[0]!.kind, above[0]!.id, read ?? 0, above[0]!.seq)
            : [];
        const takenOver = unmarked.has(objectKey(list[0]!));
        const handedAt = above.map((c) => handed.indexOf(c));
        pending.push({ changes: [...missing, ...above], read: mark, fromLog: missing.length, takenOver, handedAt });
      }
      first = false;
      if (!pending.length) return undefined;
      const unread = pending.flatMap((p) =>
        p.changes.flatMap((c) => (c.lane && !state.heads.has(c.lane) ? [c.lane] : [])),
      );
      const newLanes = unread.filter((l) => !lanes.has(l));
      if (newLanes.length) {
        // A change read from the log was listed in a lane the batch's own changes are not (a draft since published).
        const more = await port.read([], newLanes, attempt > 0);
        state = { marks: state.marks, heads: new Map([...state.heads, ...more.heads]) };
      }
      const append = planAppend(pending, state.heads);
      const committed = await port.commit(append.append);
      return { append, committed, pending };
    };
    const done = await once();
    if (!done) return out;
    const { append, committed, pending } = done;
    if (committed === 'moved') {
      await port.pause(attempt);
      continue;
    }
    out.fresh.push(...append.taken);
    out.takenOver.push(...append.takenOver);
    // What did not fit in one transaction goes in the next (re-read: marks moved).
    if (append.taken.length === pending.reduce((n, p) => n + p.changes.length, 0)) return out;
  }
}

/**
 * An object's changes to journal: above its mark as read, the first `fromLog` of them read from its change log;
 * `takenOver`: the object had no mark when the batch came, so those are history, not news.
 */
export interface Pending {
  changes: readonly JournalChange[];
  read: Mark | undefined;
  fromLog: number;
  takenOver: boolean;
  /** Where each handed change (after those from the log) stood in the batch: the order to journal them in. */
  handedAt: readonly number[];
}

/**
 * The one transaction of an append: the changes in the order they were handed (one object's changes read from its
 * log just before its first handed one), each lane's from its head, within a transaction's items: what does not fit
 * waits for the next transaction, and each object's mark moves to its last change taken (a prefix of its changes).
 */
export function planAppend(
  pending: readonly Pending[],
  heads: ReadonlyMap<string, LaneHead>,
): { append: Append; taken: JournalChange[]; takenOver: JournalChange[] } {
  const next = new Map<string, LaneHead>();
  const entries: JournalEntry[] = [];
  const last = new Map<Pending, { change: JournalChange; entry?: JournalEntry }>();
  const taken: JournalChange[] = [];
  const takenOver: JournalChange[] = [];
  // An object costs its mark, its new row and the removal of its old one: 3 items, whatever its changes.
  const size = () => entries.length + 3 * last.size + next.size;
  for (const { p, c, i } of interleaved(pending)) {
    const items = (c.lane ? 1 : 0) + (c.lane !== undefined && !next.has(c.lane) ? 1 : 0) + (last.has(p) ? 0 : 3);
    if (size() + items > MAX_APPEND_ITEMS) break;
    let entry: JournalEntry | undefined;
    const history = p.takenOver && i < p.fromLog;
    if (c.lane) {
      const head = next.get(c.lane) ?? heads.get(c.lane) ?? { next: 1, stamp: 0 };
      entry = { lane: c.lane, pos: head.next, stamp: stampOf(c, head), change: c, ...(history && { takenOver: true }) };
      entries.push(entry);
      next.set(c.lane, { next: head.next + 1, stamp: entry.stamp });
    }
    taken.push(c);
    if (history) takenOver.push(c);
    last.set(p, { change: c, ...(entry && { entry }) });
  }
  const rows: Append['rows'] = { put: [], remove: [] };
  const marks = [...last].map(([p, { change, entry }]) => {
    const had = p.read?.listed;
    // A draft's entry is its owner's webhooks' alone: no listing row.
    const row = entry && entry.change.draftOf === undefined ? entry : undefined;
    if (row) rows.put.push(row);
    if (had && (!row || had.lane !== row.lane || had.stamp !== row.stamp)) rows.remove.push(had);
    const listed = row ? { lane: row.lane, stamp: row.stamp } : undefined;
    return {
      kind: change.kind,
      id: change.id,
      read: p.read?.seq,
      next: { seq: change.seq, ...(listed && { listed }) },
    };
  });
  const moved = [...next].map(([lane, head]) => ({ lane, read: heads.get(lane), next: head }));
  return { append: { heads: moved, entries, marks, rows }, taken, takenOver };
}

/**
 * An entry's stamp: its change's `dateModified`, or 1 µs after the lane's last stamp when that is not earlier (a
 * change journaled after a later-dated one): so stamps only grow along a lane, and a listing page that has shown a
 * stamp never gets a row below it later. The listing's offset is a stamp (docs/api.md).
 */
export const stampOf = (c: JournalChange, head: LaneHead): Micros =>
  Math.max(parseInstant(c.dateModified) ?? 0, head.stamp + 1);

/**
 * The pending changes in the order they came: the objects' by their first handed change (`pending` is in that order),
 * each object's in seq order, objects taking turns by when their changes were handed (`handedAt`, the index in the
 * batch; changes read from the log go just before their object's first handed one).
 */
function* interleaved(pending: readonly Pending[]) {
  const cursors = pending.map(() => 0);
  for (;;) {
    let best = -1;
    for (const [k, p] of pending.entries()) {
      const c = p.changes[cursors[k]!];
      if (!c) continue;
      const at = handedAt(p, cursors[k]!);
      if (best < 0 || at < handedAt(pending[best]!, cursors[best]!)) best = k;
    }
    if (best < 0) return;
    const p = pending[best]!;
    const i = cursors[best]!++;
    yield { p, c: p.changes[i]!, i };
  }
}

/** When the `i`th pending change of an object was handed: its first handed one's place for those read from the log. */
const handedAt = (p: Pending, i: number) => p.handedAt[Math.max(0, i - p.fromLog)]!;

/**
 * What a reader may take of a page of entries read in position order after `after`: the run of consecutive positions
 * that starts right after it, up to the first missing one (a later position may show before an earlier one of the
 * same transaction; it is read again next time).
 */
export function consecutive<E extends { pos: number }>(after: number, entries: readonly E[]): E[] {
  const out: E[] = [];
  for (const e of entries) {
    if (e.pos !== after + out.length + 1) break;
    out.push(e);
  }
  return out;
}

/** The same, read backwards from the newest: positions one below the other (a descending page has no start to hold). */
export function consecutiveDown<E extends { pos: number }>(entries: readonly E[]): E[] {
  const out: E[] = [];
  for (const e of entries) {
    if (out.length && e.pos !== out.at(-1)!.pos - 1) break;
    out.push(e);
  }
  return out;
}

/** The object kinds whose roots the journal takes, by their partition's prefix. */
const KIND_OF_PARTITION: Record<string, ObjectChange['kind']> = { LOT: 'lot', ASSET: 'asset', AUCTION: 'auction' };

/**
 * The change a root item records (as the stream hands its new image, unmarshalled), or undefined: another item, or a
 * root with no change log yet. Its `history.seq` is the change's number; a write that changed nothing public kept it,
 * and the writer finds it journaled. `GSI1PK` is the feed key it is listed under (a draft has none), `feed` its view.
 */
export function changeOfRoot(item: JsonRecord): JournalChange | undefined {
  const [prefix, id] = String(item.PK ?? '').split('#');
  const kind = KIND_OF_PARTITION[prefix ?? ''];
  const seq = isObject(item.history) ? item.history.seq : undefined;
  const hash = isObject(item.history) && typeof item.history.hash === 'string' ? item.history.hash : undefined;
  const data = isObject(item.data) ? item.data : undefined;
  if (!kind || !id || item.SK !== '#ROOT' || typeof seq !== 'number' || !data) return undefined;
  const status = typeof data.status === 'string' ? data.status : undefined;
  return {
    kind,
    id,
    seq,
    dateModified: String(data.dateModified),
    ...(status !== undefined && { status }),
    ...(hash !== undefined && { hash }),
    ...(status === 'draft' && { draftOf: String(data.owner) }),
    // Its lane (a draft's too: roots written before drafts had one carry the listing key alone).
    ...(typeof (item.lane ?? item.GSI1PK) === 'string' && { lane: String(item.lane ?? item.GSI1PK) }),
    ...(isObject(item.feed) && { view: item.feed }),
  };
}
