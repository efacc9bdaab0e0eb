import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Append,
  type Appended,
  appendChanges,
  consecutive,
  consecutiveDown,
  type JournalChange,
  type JournalEntry,
  type JournalPort,
  type LaneHead,
  type Mark,
  objectKey,
} from '#domain/journal/journal.ts';
import type { JsonRecord } from '#domain/kernel/objects.ts';
import { type Micros, sortableUtc } from '#domain/kernel/time.ts';
import { changeOfItem, type ObjectKind } from '#domain/webhooks/events.ts';
import { batchGet } from './batch-items.ts';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { FEED_VIEW, journalPosition, keys, revisionSortKey, SCHEMA_VERSION } from './table-design.ts';

/**
 * The journal's items (domain/journal/journal.ts says why they hold order): each lane's head and entries in the lane's
 * partition, each object's mark in its own. Everything is read strongly consistent: a reader never trusts an index.
 */

const JOURNAL_ENTRY = 'journalEntry';
const JOURNAL_HEAD = 'journalHead';
const JOURNAL_MARK = 'journalMark';
const LISTING_ROW = 'listingRow';

/** The change-log partition of an object (`REV#<KIND>#<id>`: the kinds are upper case there). */
const logKind = (kind: string) => kind.toUpperCase();

/**
 * A revision item as a journal change: the lane is the feed key it was listed under (`lane`; items written before
 * the journal carry the change feed's `GSI1PK`, `<feed key>#CHANGES`), its view the `feed` copy.
 */
export function journalChangeOfRevision(item: Record<string, any>): JournalChange | undefined {
  const change = changeOfItem(item);
  if (!change) return undefined;
  const lane =
    typeof item.lane === 'string'
      ? item.lane
      : typeof item.GSI1PK === 'string'
        ? item.GSI1PK.replace(/#CHANGES$/, '')
        : undefined;
  return { ...change, ...(lane && { lane }), ...(item[FEED_VIEW] && { view: item[FEED_VIEW] }) };
}

const entryItem = (e: JournalEntry) => ({
  ...keys.journalEntry(e.lane, e.pos),
  entity: JOURNAL_ENTRY,
  schemaVersion: SCHEMA_VERSION,
  pos: e.pos,
  stamp: e.stamp,
  objectKind: e.change.kind,
  objectId: e.change.id,
  seq: e.change.seq,
  dateModified: e.change.dateModified,
  ...(e.change.status !== undefined && { status: e.change.status }),
  ...(e.change.hash !== undefined && { hash: e.change.hash }),
  ...(e.change.draftOf !== undefined && { draftOf: e.change.draftOf }),
  ...(e.takenOver && { takenOver: true }),
  ...(e.change.view && { [FEED_VIEW]: e.change.view }),
});

/** An object's row in its lane's listing: its listing view at its last entry, by that entry's stamp. */
const rowItem = (e: JournalEntry) => ({
  ...keys.listingRow(e.lane, sortableUtc(e.stamp)),
  entity: LISTING_ROW,
  schemaVersion: SCHEMA_VERSION,
  stamp: e.stamp,
  pos: e.pos,
  objectId: e.change.id,
  dateModified: e.change.dateModified,
  [FEED_VIEW]: e.change.view ?? { id: e.change.id, dateModified: e.change.dateModified },
});

/** The entry an item holds, as readers see it. */
function entryOf(lane: string, i: Record<string, any>): JournalEntry {
  return {
    lane,
    pos: Number(i.pos),
    stamp: Number(i.stamp),
    ...(i.takenOver === true && { takenOver: true }),
    change: {
      kind: i.objectKind as ObjectKind,
      id: String(i.objectId),
      seq: Number(i.seq),
      dateModified: String(i.dateModified),
      ...(typeof i.status === 'string' && { status: i.status }),
      ...(typeof i.hash === 'string' && { hash: i.hash }),
      ...(typeof i.draftOf === 'string' && { draftOf: i.draftOf }),
      lane,
      ...(i[FEED_VIEW] && { view: i[FEED_VIEW] as JsonRecord }),
    },
  };
}

/**
 * The lanes' heads as this process's last commits left them, per table: a first read takes them from here (a commit
 * holds on the head it read, so one another process moved fails and reads again: `again`).
 */
const knownHeads = new Map<string, LaneHead>();

export const journalPort: JournalPort = {
  async read(objects, lanes, again) {
    const table = tableName();
    const known = again ? [] : lanes.filter((l) => knownHeads.has(`${table}|${l}`));
    const items = await batchGet([
      ...objects.map((o) => keys.journalMark(o.kind, o.id)),
      ...lanes.filter((l) => !known.includes(l)).map((l) => keys.journalHead(l)),
    ]);
    const marks = new Map<string, Mark>();
    const heads = new Map<string, LaneHead>(known.map((l) => [l, knownHeads.get(`${table}|${l}`)!]));
    for (const i of items) {
      if (i.entity === JOURNAL_MARK)
        marks.set(objectKey({ kind: i.objectKind, id: i.objectId }), {
          seq: Number(i.seq),
          ...(i.listed && { listed: { lane: String(i.listed.lane), stamp: Number(i.listed.stamp) } }),
        });
      if (i.entity === JOURNAL_HEAD) heads.set(String(i.lane), { next: Number(i.next), stamp: Number(i.stamp) });
    }
    return { marks, heads };
  },

  async history(kind, id, after, before) {
    const out: JournalChange[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': keys.revisions(logKind(kind), id),
            ':from': revisionSortKey(after + 1),
            ':to': revisionSortKey(before - 1),
          },
          // What a change needs, never the revision's `changes` (up to 300 KB each): an old object's whole log reads small.
          ProjectionExpression:
            'PK, entity, objectKind, objectId, seq, dateModified, #status, draftOf, lane, GSI1PK, #feed, revision.#date, revision.#hash',
          ExpressionAttributeNames: { '#status': 'status', '#feed': FEED_VIEW, '#date': 'date', '#hash': 'hash' },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      for (const i of page.Items ?? []) {
        const change = journalChangeOfRevision(i);
        if (change) out.push(change);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return out;
  },

  async commit(append: Append) {
    const TableName = tableName();
    const heads = append.heads.map(({ lane, read, next }) => ({
      Update: {
        TableName,
        Key: keys.journalHead(lane),
        UpdateExpression: 'SET entity = :e, schemaVersion = :v, lane = :lane, #next = :next, stamp = :stamp',
        ConditionExpression: read ? '#next = :read' : 'attribute_not_exists(PK)',
        ExpressionAttributeNames: { '#next': 'next' },
        ExpressionAttributeValues: {
          ':e': JOURNAL_HEAD,
          ':v': SCHEMA_VERSION,
          ':lane': lane,
          ':next': next.next,
          ':stamp': next.stamp,
          ...(read && { ':read': read.next }),
        },
      },
    }));
    const entries = append.entries.map((e) => ({ Put: { TableName, Item: entryItem(e) } }));
    const marks = append.marks.map(({ kind, id, read, next }) => ({
      Put: {
        TableName,
        Item: {
          ...keys.journalMark(kind, id),
          entity: JOURNAL_MARK,
          schemaVersion: SCHEMA_VERSION,
          objectKind: kind,
          objectId: id,
          seq: next.seq,
          ...(next.listed && { listed: next.listed }),
        },
        ConditionExpression: read === undefined ? 'attribute_not_exists(PK)' : 'seq = :read',
        ...(read !== undefined && { ExpressionAttributeValues: { ':read': read } }),
      },
    }));
    const rows = [
      ...append.rows.put.map((e) => ({ Put: { TableName, Item: rowItem(e) } })),
      ...append.rows.remove.map((r) => ({ Delete: { TableName, Key: keys.listingRow(r.lane, sortableUtc(r.stamp)) } })),
    ];
    try {
      // One transaction; the SDK sends a retry of it with the same ClientRequestToken (applied once). An answer that
      // never comes fails the batch, which comes back and finds what was committed by the marks.
      await documentClient().send(
        new TransactWriteCommand({ TransactItems: [...heads, ...entries, ...marks, ...rows] }),
      );
      remember(TableName, append.entries);
      for (const h of append.heads) knownHeads.set(`${TableName}|${h.lane}`, h.next);
      return 'done';
    } catch (error) {
      if (isConditionFailure(error)) return 'moved';
      throw error;
    }
  },

  pause: (attempt) => new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 5 * 2 ** attempt))),
};

/**
 * Appends the changes of concurrent callers of one process together (group commit): while an append is under way the
 * batches that come wait, and the next append takes them all, so one process's appends never race each other for a
 * head and each commit carries more changes (a Lambda handles one batch at a time; the local pipe runs 16 calls in one
 * process, whose appends raced for the `lots` head). Each caller gets what the append made of its own objects; a
 * failure fails every caller of that append (their batches come back).
 */
export function appendTogether(handed: readonly JournalChange[]): Promise<Appended> {
  return new Promise((resolve, reject) => {
    waiting.push({ handed, resolve, reject });
    appending ??= appendWaiting().finally(() => (appending = undefined));
  });
}
const waiting: { handed: readonly JournalChange[]; resolve: (a: Appended) => void; reject: (e: unknown) => void }[] =
  [];
let appending: Promise<void> | undefined;
/** Batches taken into one append at most (a transaction takes about 25 changes: the rest go in the next). */
const GROUP = 8;

async function appendWaiting(): Promise<void> {
  while (waiting.length) {
    const group = waiting.splice(0, GROUP);
    try {
      const appended = await appendChanges(
        journalPort,
        group.flatMap((g) => g.handed),
      );
      for (const g of group) {
        const mine = new Set(g.handed.map(objectKey));
        const of = (cs: JournalChange[]) => cs.filter((c) => mine.has(objectKey(c)));
        g.resolve({ fresh: of(appended.fresh), seen: of(appended.seen), takenOver: of(appended.takenOver) });
      }
    } catch (error) {
      for (const g of group) g.reject(error);
    }
  }
}

/** A page of a lane: entries after (or, descending, before) a position, consecutive, strongly consistent. */
export async function lanePage(
  lane: string,
  { after, descending, limit }: { after?: number; descending: boolean; limit: number },
): Promise<{ entries: JournalEntry[]; unknownCursor?: boolean }> {
  const query = (condition: string, values: JsonRecord, forward: boolean, Limit: number) =>
    documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: `PK = :pk AND ${condition}`,
        ExpressionAttributeValues: { ':pk': keys.journal(lane), ...values },
        ScanIndexForward: forward,
        ConsistentRead: true,
        Limit,
      }),
    );
  // Entries' keys are digits; the head's `#HEAD` sorts below them all, so the ranges below never take it.
  const first = journalPosition(0);
  if (after === undefined) {
    const read = descending
      ? await query('SK > :first', { ':first': first }, false, limit)
      : await query('SK > :first', { ':first': first }, true, limit);
    const entries = (read.Items ?? []).map((i) => entryOf(lane, i));
    return { entries: descending ? consecutiveDown(entries) : consecutive(0, entries) };
  }
  // The page starts at the cursor's own entry, so the same Query tells a cursor the lane never gave.
  const at = journalPosition(after);
  const read = descending
    ? await query('SK BETWEEN :first AND :at', { ':first': first, ':at': at }, false, limit + 1)
    : await query('SK >= :at', { ':at': at }, true, limit + 1);
  const entries = (read.Items ?? []).map((i) => entryOf(lane, i));
  if (entries[0]?.pos !== after) return { entries: [], unknownCursor: true };
  return { entries: descending ? consecutiveDown(entries).slice(1) : consecutive(after, entries.slice(1)) };
}

/**
 * The entries this process appended lately, per table and lane, in position order (the last `REMEMBERED`): a cursor
 * right behind them reads them here instead of Querying (each is committed: put here after its transaction answered).
 * Another process's appends leave gaps, and a read that finds none of its next position here Queries.
 */
const REMEMBERED = 1_000;
const recent = new Map<string, JournalEntry[]>();
function remember(table: string, entries: readonly JournalEntry[]) {
  for (const e of entries) {
    const key = `${table}|${e.lane}`;
    const list = recent.get(key) ?? [];
    list.push(e);
    if (list.length > REMEMBERED) list.splice(0, list.length - REMEMBERED);
    recent.set(key, list);
  }
}
/** Whether this process's own commits took a lane past a position (a sender that caught up reads on, unreleased). */
export const appendedPast = (lane: string, at: number) =>
  (knownHeads.get(`${tableName()}|${lane}`)?.next ?? 0) > at + 1;

/** The consecutive run of remembered entries right after `from`, up to `limit`; none when `from + 1` is not held. */
function remembered(lane: string, from: number, limit: number): JournalEntry[] {
  const list = recent.get(`${tableName()}|${lane}`) ?? [];
  const start = list.findIndex((e) => e.pos === from + 1);
  return start < 0 ? [] : consecutive(from, list.slice(start, start + limit));
}

/**
 * Consecutive entries of a lane after a position (none: from its first), or, `descending`, up to one (its own
 * included), strongly consistent; unlike `lanePage`, the position need not hold an entry (a subscription's cursor at a
 * lane's start, or at its head). Forward and not `fresh`, what this process committed lately answers without a read.
 */
export async function laneEntries(
  lane: string,
  { from, descending, limit, fresh }: { from: number; descending: boolean; limit: number; fresh?: boolean },
): Promise<JournalEntry[]> {
  if (!descending) {
    const known = remembered(lane, from, limit);
    // Nothing after `from` as far as this process's own commits go: none read (a cursor's sender finds out otherwise
    // when its release's head check fails, and then reads `fresh`: past what this process holds, from the store).
    if (known.length || (!fresh && knownHeads.get(`${tableName()}|${lane}`)?.next === from + 1)) return known;
  }
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: descending ? 'PK = :pk AND SK BETWEEN :first AND :at' : 'PK = :pk AND SK > :at',
      ExpressionAttributeValues: {
        ':pk': keys.journal(lane),
        ':at': journalPosition(from),
        ...(descending && { ':first': journalPosition(1) }),
      },
      ScanIndexForward: !descending,
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  const entries = Items.map((i) => entryOf(lane, i));
  return descending ? consecutiveDown(entries) : consecutive(from, entries);
}

/**
 * A page of a lane's listing (the dateModified feed): the rows after (or, descending, before) a stamp, never past
 * the lane's head as a consistent read of it finds it. The head is read first: a transaction that moved it has
 * committed whole (a GetItem is serializable with transactions), so every row at or below its stamp is there for the
 * Query that follows, and no later append puts a row at or below it (stamps only grow along a lane). Two requests a page.
 */
export async function listingPage(
  lane: string,
  { after, descending, limit }: { after?: string; descending: boolean; limit: number },
): Promise<{ stamp: Micros; view: JsonRecord }[]> {
  const { Item: head } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.journalHead(lane), ConsistentRead: true }),
  );
  if (!head) return [];
  const top = sortableUtc(Number(head.stamp));
  const [condition, values] = descending
    ? after !== undefined && after <= top
      ? ['SK < :after', { ':after': after }]
      : ['SK <= :top', { ':top': top }]
    : after !== undefined
      ? ['SK BETWEEN :from AND :top', { ':from': `${after}~`, ':top': top }]
      : ['SK <= :top', { ':top': top }];
  if (!descending && after !== undefined && after >= top) return [];
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: `PK = :pk AND ${condition}`,
      ExpressionAttributeValues: { ':pk': keys.listing(lane), ...values },
      ScanIndexForward: !descending,
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return Items.map((i) => ({ stamp: Number(i.stamp), view: i[FEED_VIEW] as JsonRecord }));
}
