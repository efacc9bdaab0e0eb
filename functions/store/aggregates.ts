import { randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { localRuntime } from '#platform/config.ts';
import { isTransient } from '#platform/transient.ts';
import type {
  Aggregate,
  AggregateReader,
  AggregateRepository,
  Change,
  Child,
  ChildBudgets,
  Indexing,
} from '#domain/kernel/aggregate.ts';
import { ConflictError, NotFoundError, ServiceUnavailableError, UnprocessableError } from '#domain/kernel/errors.ts';
import { nextRevision, type ChainHead, type Revision, type RevisionAuthor } from '#domain/kernel/history.ts';
import type { JsonObject, JsonRecord } from '#domain/kernel/objects.ts';
import { listingView } from '#domain/listing/listing.ts';
import { laterThan, type Micros, parseInstant, sortableUtc } from '#domain/kernel/time.ts';
import { documentClient, queryPartition, tableName } from './client.ts';
import { childPlaceOf, childSortKey } from './child-keys.ts';
import {
  AlreadyCreatedError,
  assertWithinTransactionLimits,
  isConditionFailure,
  NotStoredError,
  OutcomeUnknownError,
  storageLimitError,
} from './errors.ts';
import { FEED_VIEW, keys, REVISION_ENTITY, ROOT_SK, SCHEMA_VERSION, type RevisionObjectKind } from './table-design.ts';

export interface AggregateKind<T> {
  /** Partition prefix, e.g. `LOT`. */
  kind: string;
  entity: string;
  /** The 404 name, e.g. `lot_id`. */
  notFound: string;
  /** Sees the server-only state too (e.g. whether a bot already reported an outcome). */
  indexing: (root: T, internal?: JsonObject) => Indexing;
  dateModified: (root: T) => string;
  id: (root: T) => string;
  /** Bounds on its children, kept in a budget item beside them (`BUDGET_SK`). */
  budgets?: ChildBudgets;
  /**
   * Its change log: what its revisions call it, and its public view (what an anonymous GET shows) that they record
   * the changes of. None: the kind keeps no history (transfers).
   */
  history?: {
    objectKind: RevisionObjectKind;
    view: (a: Pick<Aggregate<T>, 'root' | 'children'>) => JsonRecord;
    /** Its type (an auction's procurementMethodType, an asset's assetType): the revisions route serves one type. */
    type?: (root: T) => string;
  };
}

/** The sort key of an aggregate's budget item: the bytes and counts of its children by kind (not a child). */
export const BUDGET_SK = '#BUDGET';

/**
 * Attempts of one optimistic load-apply-write. Every change the public view shows takes the next place in the
 * object's history (its revision chain), so a burst of them on one object contends (an organizer answering its
 * questions at once, bid documents): each round one wins, so the attempts cover a burst of about this many.
 * Hidden bids hold on the auction's status instead (`keepStatus`), write no revision and do not contend.
 */
const MAX_ATTEMPTS = 24;

/** Full-jitter exponential backoff before retry `i` (0-based): a random wait up to 5 ms · 2^i, at most 200 ms. */
const backoff = (i: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 5 * 2 ** i)));

/**
 * The most an aggregate's root object may take as JSON text: what a GET answers of it, escapes included (a control
 * character takes 6 bytes as `\u0001`, 1 as DynamoDB stores it). With the children's budgets, also counted as JSON
 * text, the answer is bounded by construction, not only what is stored.
 */
export const ROOT_JSON_BYTES = 400_000;

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/**
 * A client's root too large as JSON: 422, nothing written. Only a change that grows the root past the bound is refused,
 * and never a server's (`unbudgeted`), so that a root stored larger before the bound still takes its procedure's steps.
 */
function assertRootWithinBound(root: unknown, before?: unknown): void {
  const bytes = jsonBytes(root);
  if (bytes > ROOT_JSON_BYTES && (before === undefined || bytes > jsonBytes(before)))
    throw UnprocessableError.data(`The object is too large: at most ${ROOT_JSON_BYTES / 1000} KB as JSON`);
}

/** The root item: keys, revision, hashes, the public object, and the sparse index keys it belongs to. */
export function rootItem<T>(def: AggregateKind<T>, a: Omit<Aggregate<T>, 'children'>): JsonObject {
  const ix = def.indexing(a.root, a.internal);
  const id = def.id(a.root);
  const modified = sortableUtc(parseInstant(def.dateModified(a.root)) ?? 0);
  return {
    ...keys.root(def.kind, id),
    entity: def.entity,
    schemaVersion: SCHEMA_VERSION,
    rev: a.rev,
    tokenHash: a.tokenHash,
    internal: a.internal,
    ...(a.closed && { closed: true }),
    ...(a.history && { history: a.history }),
    data: a.root,
    // Its lane and listing view: the journal takes a draft's changes too (its owner's webhooks), and lists none of
    // them (the pipe's input template names both on every root: table-design.ts PIPE_MESSAGE_TEMPLATE).
    ...(ix.feed && { lane: keys.feed(ix.feed.name, ix.feed.test), [FEED_VIEW]: listingView(a.root as JsonObject) }),
    ...(ix.feed &&
      !ix.draft && {
        GSI1PK: keys.feed(ix.feed.name, ix.feed.test),
        GSI1SK: `${modified}#${id}`,
      }),
    ...(ix.work && { GSI2PK: keys.work(ix.work.bot), GSI2SK: `${sortableUtc(ix.work.due)}#${id}` }),
  };
}

export function childItem(kind: string, id: string, child: Child): JsonObject {
  return {
    ...keys.child(kind, id, childSortKey(child.place)),
    entity: child.entity,
    schemaVersion: SCHEMA_VERSION,
    data: child.data,
    internal: child.internal,
    ...(child.rev !== undefined && { rev: child.rev }),
    ...(child.created !== undefined && { created: child.created }),
  };
}

let lastStamp = 0;
/**
 * A new child's creation stamp: the clock in microseconds, and never twice the same in one process (one more than the
 * last when the clock has not moved), so children made in one change keep the order they were put in. Across
 * processes equal stamps are possible; such children keep their key order.
 */
export function creationStamp(nowMs = Date.now()): number {
  lastStamp = Math.max(nowMs * 1000, lastStamp + 1);
  return lastStamp;
}

/**
 * Children in the order they were made: stamped ones by their stamp, after those stored before stamps (no `created`),
 * which keep the order the Query read them in, by key (a stable sort): any stored aggregate lists deterministically.
 */
const byCreation = (a: Child, b: Child): number => (a.created ?? -1) - (b.created ?? -1);

export function fromItems<T>(id: string, items: JsonObject[]): Aggregate<T> | undefined {
  const root = items.find((i) => i.SK === ROOT_SK);
  if (!root) return undefined;
  return {
    id,
    root: root.data as T,
    tokenHash: root.tokenHash,
    rev: root.rev,
    internal: root.internal,
    ...(root.closed && { closed: true }),
    ...(root.history && { history: root.history }),
    children: items
      .filter((i) => i !== root && i.SK !== BUDGET_SK)
      .map((i) => ({
        place: childPlaceOf(i.SK),
        entity: i.entity,
        data: i.data,
        ...(i.internal && { internal: i.internal }),
        ...(i.rev !== undefined && { rev: i.rev }),
        ...(typeof i.created === 'number' && { created: i.created }),
      }))
      .sort(byCreation),
  };
}

/**
 * The revision a change writes (kernel/history.ts), with the chain's new head, or undefined when the object's public
 * view stays as it was (or its kind keeps no history). `current` undefined: a create, from `{}`. An object stored
 * before the log (no chain head) gets no revision from a change, which may have read only its root: the migration
 * gives it its first, its whole view then (migrations.ts).
 */
function revisionOf<T>(
  def: AggregateKind<T>,
  current: Pick<Aggregate<T>, 'root' | 'children' | 'history'> | undefined,
  next: Pick<Aggregate<T>, 'root' | 'children'>,
  author: RevisionAuthor,
): { revision: Revision; head: ChainHead } | undefined {
  // The bench alone turns the log off (bench/costs.ts: what a change costs without it); no Lambda runs the local runtime.
  if (!def.history || (current && !current.history) || localRuntime()?.changeLog === false) return undefined;
  return nextRevision({
    before: current ? def.history.view(current) : {},
    after: def.history.view(next),
    head: current?.history,
    date: def.dateModified(next.root),
    author,
  });
}

/**
 * The revision's item: its own partition, plain attributes for its readers (the journal's too: its lane). Nothing
 * in it twice: the object's id is its key's (`REV#<KIND>#<id>`) and its `dateModified` the revision's `date`, so that a
 * small change's revision stays within the 1 KB a write unit takes (items stored before kept both: readers take either).
 */
export function revisionItem<T>(
  def: AggregateKind<T>,
  a: Pick<Aggregate<T>, 'root' | 'internal'>,
  revision: Revision,
  seq: number,
): JsonObject {
  const id = def.id(a.root);
  const ix = def.indexing(a.root, a.internal);
  const status = (a.root as { status?: unknown }).status;
  return {
    ...keys.revision(def.kind, id, seq),
    entity: REVISION_ENTITY,
    schemaVersion: SCHEMA_VERSION,
    objectKind: def.history!.objectKind,
    ...(def.history!.type && { objectType: def.history!.type(a.root) }),
    seq,
    ...(typeof status === 'string' && { status }),
    // A draft is its owner's until published: its revisions say whose, for the webhooks and the change log's readers.
    ...(status === 'draft' && { draftOf: String((a.root as { owner?: unknown }).owner) }),
    revision,
    // The feed it was listed in and its view there: what the journal takes when it reads this revision from the log.
    ...(ix.feed && { lane: keys.feed(ix.feed.name, ix.feed.test) }),
    ...(ix.feed && !ix.draft && { [FEED_VIEW]: listingView(a.root as JsonObject) }),
  };
}

/** A revision is written once: its number is taken by the change that holds the root's `rev`. */
const revisionPut = (Item: JsonObject) => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
});

/** The children after a change, in creation order: a changed one in its place, new ones last. */
function childrenAfter<T>(current: Aggregate<T>, change: Change<T>): Child[] {
  const put = new Map((change.put ?? []).map((p) => [childSortKey(p.place), p]));
  const removed = new Set((change.remove ?? []).map(childSortKey));
  const had = new Set(current.children.map((c) => childSortKey(c.place)));
  return [
    ...current.children
      .filter((c) => !removed.has(childSortKey(c.place)))
      .map((c) => put.get(childSortKey(c.place)) ?? c),
    ...[...put].filter(([key]) => !had.has(key)).map(([, p]) => p),
  ];
}

/**
 * The write of one change as DynamoDB inputs: a conditional Put of the root, plus children in one transaction,
 * plus its revision when the public view changes (a children-only change that does is written as a root change,
 * so that the chain's head moves with `rev`).
 */
export function changeWrites<T>(
  def: AggregateKind<T>,
  current: Aggregate<T>,
  change: Change<T>,
  author: RevisionAuthor,
): NonNullable<TransactWriteCommandInput['TransactItems']> {
  const TableName = tableName();
  if (!change.keepRevision && !change.unbudgeted) assertRootWithinBound(change.root, current.root);
  const next = revisionOf(def, current, { root: change.root, children: childrenAfter(current, change) }, author);
  const condition = { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': current.rev } };
  const internal = change.internal ?? current.internal;
  const rootWrite =
    change.keepRevision && !next
      ? {
          ConditionCheck: {
            TableName,
            Key: keys.root(def.kind, current.id),
            ...(change.keepStatus ? statusCondition(def, current) : condition),
          },
        }
      : {
          Put: {
            TableName,
            Item: rootItem(def, {
              ...current,
              root: change.root,
              internal,
              tokenHash: change.tokenHash ?? current.tokenHash,
              closed: change.close ?? current.closed,
              rev: current.rev + 1,
              history: next?.head ?? current.history,
            }),
            ...condition,
          },
        };
  // Each child put moves its own revision and holds on the one read: `keepStatus` writes are not ordered by the
  // aggregate's revision, so two writers of one child (two PATCHes of a bid) would otherwise lose a change.
  // A child keeps the creation stamp it was made with; a new one gets its own.
  const stored = new Map(current.children.map((c) => [childSortKey(c.place), c]));
  const revs = new Map(current.children.map((c) => [childSortKey(c.place), c.rev ?? 0]));
  const childWrite = (c: Child) => {
    const sortKey = childSortKey(c.place);
    const was = revs.get(sortKey);
    const created = stored.has(sortKey) ? stored.get(sortKey)!.created : creationStamp();
    const Item = childItem(def.kind, current.id, { ...c, rev: (was ?? 0) + 1, created });
    return { Put: { TableName, Item, ...childCondition(was) } };
  };
  const budget = budgetWrite(def, current, change);
  return [
    rootWrite,
    ...(next ? [revisionPut(revisionItem(def, { root: change.root, internal }, next.revision, next.head.seq))] : []),
    ...(budget ? [budget] : []),
    ...(change.put ?? []).map(childWrite),
    // A child is removed only as read: a writer that moved it meanwhile (a document added to a bid being withdrawn)
    // makes the removal read again, and take what that writer added.
    ...(change.remove ?? []).map((place) => {
      const sortKey = childSortKey(place);
      return {
        Delete: { TableName, Key: keys.child(def.kind, current.id, sortKey), ...removeCondition(revs.get(sortKey)) },
      };
    }),
  ];
}

/** The root still has the status it was read with and is open to `keepStatus` writes. */
function statusCondition<T>(def: AggregateKind<T>, current: Aggregate<T>) {
  const status = (current.root as { status?: unknown }).status;
  if (typeof status !== 'string') throw new Error(`${def.entity}: keepStatus needs a root with a status`);
  return {
    ConditionExpression: '#data.#status = :status AND attribute_not_exists(closed)',
    ExpressionAttributeNames: { '#data': 'data', '#status': 'status' },
    ExpressionAttributeValues: { ':status': status },
  };
}

/** The bytes a child takes as stored (its data and server-only state, as JSON text). */
const storedBytes = (c: Child): number => Buffer.byteLength(JSON.stringify([c.data, c.internal ?? null]));

/**
 * The change's effect on the aggregate's budgets, as one update of its budget item: bytes and counts added by kind
 * and by share (ChildBudgets.shares), conditioned (unless the change is the server's) on every term that grows staying
 * within its bound.
 */
function budgetWrite<T>(def: AggregateKind<T>, current: Aggregate<T>, change: Change<T>) {
  const budgets = def.budgets;
  if (!budgets) return undefined;
  const was = new Map(current.children.map((c) => [childSortKey(c.place), c]));
  const sums = new Map<string, { n: number; bound?: number }>();
  const add = (name: string, n: number, bound: number | undefined) => {
    const term = sums.get(name) ?? { n: 0, bound };
    term.n += n;
    sums.set(name, term);
  };
  /** A child entering (+1) or leaving (-1) the budgets, with the bytes it adds; `counted`: it is a new one. */
  const account = (c: Child, bytes: number, counted: -1 | 0 | 1) => {
    const kind = c.place.kind;
    add(`bytes_${kind}`, bytes, budgets.bytes[kind]);
    if (counted && !c.place.under && budgets.count[kind] !== undefined)
      add(`count_${kind}`, counted, budgets.count[kind]);
    for (const share of budgets.shares?.(c) ?? []) {
      if (share.bytes !== undefined) add(`bytes_${share.name}`, bytes, share.bytes);
      if (counted && share.count !== undefined) add(`count_${share.name}`, counted, share.count);
    }
  };
  for (const c of change.put ?? []) {
    const before = was.get(childSortKey(c.place));
    account(c, storedBytes(c) - (before ? storedBytes(before) : 0), before ? 0 : 1);
  }
  for (const place of change.remove ?? []) {
    const before = was.get(childSortKey(place));
    if (before) account(before, -storedBytes(before), -1);
  }
  const terms = [...sums].map(([name, t]) => ({ name, ...t })).filter((t) => t.n !== 0);
  if (!terms.length) return undefined;
  const names = Object.fromEntries(terms.map((t, i) => [`#t${i}`, t.name]));
  const values = Object.fromEntries(terms.map((t, i) => [`:t${i}`, t.n]));
  const limited = change.unbudgeted
    ? []
    : terms.map((t, i) => ({ ...t, i })).filter((t) => t.n > 0 && t.bound !== undefined);
  for (const t of limited) values[`:r${t.i}`] = t.bound! - t.n;
  return {
    Update: {
      TableName: tableName(),
      Key: { PK: keys.aggregate(def.kind, current.id), SK: BUDGET_SK },
      // `rev` counts the item's writes, so that a writer of the whole item (a migration) holds on the one it read.
      UpdateExpression: `ADD ${terms.map((_, i) => `#t${i} :t${i}`).join(', ')}, rev :one`,
      ...(limited.length && {
        ConditionExpression: limited
          .map((t) => `(attribute_not_exists(#t${t.i}) OR #t${t.i} <= :r${t.i})`)
          .join(' AND '),
      }),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...values, ':one': 1 },
    },
  };
}

/**
 * When only the budget item's condition failed, the change is refused for good (a retry would fail again): the
 * refusal of the term it would take beyond its bound, read from the budget item (DynamoDB does not say which term
 * failed); undefined for any other failure.
 */
async function budgetRefusal<T>(def: AggregateKind<T>, writes: TransactItems, error: unknown) {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (!def.budgets || e?.name !== 'TransactionCanceledException' || !e.CancellationReasons) return undefined;
  const at = writes.findIndex((w) => w.Update?.Key?.SK === BUDGET_SK);
  const failed = e.CancellationReasons.map((r, i) => (r.Code && r.Code !== 'None' ? i : -1)).filter((i) => i >= 0);
  if (at < 0 || failed.length !== 1 || failed[0] !== at) return undefined;
  const update = writes[at].Update!;
  // Only to name the bound: when this read fails, the refusal names the first bound the change grows.
  const held: Record<string, unknown> = await documentClient()
    .send(new GetCommand({ TableName: tableName(), Key: update.Key, ConsistentRead: true }))
    .then((r) => r.Item ?? {})
    .catch(() => ({}));
  const limited = Object.entries(update.ExpressionAttributeNames ?? {}).filter(([ref]) =>
    update.ConditionExpression?.includes(`${ref})`),
  );
  const over = limited.find(([ref, name]) => {
    const room = update.ExpressionAttributeValues?.[ref.replace('#t', ':r')];
    return typeof room === 'number' && Number(held[name] ?? 0) > room;
  });
  return def.budgets.refusal((over ?? limited[0])?.[1].replace(/^(bytes|count)_/, '') ?? '');
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** A child is put only over the version read: none (a new child), or the same revision (0: stored without one). */
const childCondition = (was: number | undefined) =>
  was === undefined
    ? { ConditionExpression: 'attribute_not_exists(PK)' }
    : was === 0
      ? { ConditionExpression: 'attribute_not_exists(rev)' }
      : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': was } };

/** A child is removed only at the revision read (gone already: nothing to hold on). */
const removeCondition = (was: number | undefined) =>
  was
    ? { ConditionExpression: 'attribute_not_exists(PK) OR rev = :rev', ExpressionAttributeValues: { ':rev': was } }
    : {};

/**
 * The writes that create an aggregate: its root only if no item has its key yet, and its children. The root carries
 * the id of this create call (`createRequest`), so a create whose answer was lost can tell its own write from
 * another's when the SDK's retry meets `attribute_not_exists`.
 */
export function createWrites<T>(
  def: AggregateKind<T>,
  a: Omit<Aggregate<T>, 'rev'>,
  author: RevisionAuthor,
  createRequest: string = randomUUID(),
): NonNullable<TransactWriteCommandInput['TransactItems']> {
  const TableName = tableName();
  assertRootWithinBound(a.root);
  const first = revisionOf(def, undefined, a, author);
  return [
    {
      Put: {
        TableName,
        Item: { ...rootItem(def, { ...a, rev: 1, history: first?.head }), createRequest },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    ...(first ? [revisionPut(revisionItem(def, a, first.revision, first.head.seq))] : []),
    ...a.children.map((c) => ({
      Put: { TableName, Item: childItem(def.kind, a.id, { ...c, created: creationStamp() }) },
    })),
  ];
}

const ID = /^[0-9a-f]{32}$/;

/** `read`: how each stored item is read (a migration reads them as the current model has them). */
export async function loadAggregate<T>(
  def: AggregateKind<T>,
  id: string,
  read: (item: JsonObject) => JsonObject = (item) => item,
): Promise<Aggregate<T> | undefined> {
  if (!ID.test(id)) return undefined; // not an id the service ever gives: unknown, without asking DynamoDB
  const items: JsonObject[] = [];
  let next: Awaited<ReturnType<typeof queryPartition>>['next'];
  do {
    const page = await queryPartition(keys.aggregate(def.kind, id), next);
    items.push(...page.items.map(read));
    next = page.next;
  } while (next);
  return fromItems<T>(id, items);
}

/** One attribute of an aggregate's root item, read consistently (undefined when there is no root). */
async function rootAttribute<T>(def: AggregateKind<T>, id: string, name: string): Promise<unknown> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.root(def.kind, id),
      ConsistentRead: true,
      ProjectionExpression: '#a',
      ExpressionAttributeNames: { '#a': name },
    }),
  );
  return Item?.[name];
}

/** The root item alone (one consistent read), for changes that read no child. */
async function loadRoot<T>(def: AggregateKind<T>, id: string): Promise<Aggregate<T> | undefined> {
  if (!ID.test(id)) return undefined;
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.root(def.kind, id), ConsistentRead: true }),
  );
  return Item ? fromItems<T>(id, [Item]) : undefined;
}

/** Sends of one write when DynamoDB fails for a passing reason, each after the SDK's own retries. */
const SENDS = 4;

/**
 * Sends the writes of one change, exactly once: a single conditional Put when only the root changes, else one
 * transaction. A send whose answer never came (a timeout, a lost answer, an internal error) is sent again, as it
 * was: a transaction with the same ClientRequestToken, which DynamoDB applies once (for 10 minutes) and answers
 * again as the first time; a Put that meets its own write (its condition fails on the very item it wrote) is done.
 * When no send is answered, a consistent read of the first item it puts tells whether it was stored: if not, the
 * request answers 503 saying nothing was stored.
 */
export async function writeChange(writes: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<void> {
  assertWithinTransactionLimits(writes);
  const put = writes.length === 1 ? writes[0].Put : undefined;
  const ClientRequestToken = randomUUID();
  for (let i = 0; ; i++) {
    try {
      if (put) await documentClient().send(new PutCommand({ ...put, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
      else await documentClient().send(new TransactWriteCommand({ TransactItems: writes, ClientRequestToken }));
      return;
    } catch (error) {
      if (put && isConditionFailure(error) && sameItem(oldItem(error), put.Item)) return; // its own write, sent again
      if (!isTransient(error)) throw storageLimitError(error) ?? error;
      if (i + 1 < SENDS && !(error instanceof ServiceUnavailableError)) {
        await backoff(i);
        continue;
      }
      // No answer, and no more sends (too late, or too many): stored or not, as a consistent read finds it.
      const stored = await wasStored(writes).catch(() => {
        throw new OutcomeUnknownError();
      });
      if (stored) return;
      throw new NotStoredError();
    }
  }
}

/** The item a Put's failed condition found (ReturnValuesOnConditionCheckFailure), as plain values. */
function oldItem(error: unknown): JsonObject | undefined {
  const item = (error as { Item?: Record<string, AttributeValue> }).Item;
  return item && unmarshall(item);
}

/** Same attributes and values, whatever the order of their keys (undefined values are not stored). */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v,
  );
const sameItem = (a: unknown, b: unknown) => a !== undefined && canonical(a) === canonical(b);

/** Whether the first item the writes put is stored as they put it (a write with no Put cannot tell: unknown). */
async function wasStored(writes: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<boolean> {
  const put = writes.find((w) => w.Put)?.Put;
  if (!put?.Item) throw new OutcomeUnknownError();
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: put.TableName,
      Key: { PK: put.Item.PK, SK: put.Item.SK },
      ConsistentRead: true,
    }),
  );
  return sameItem(Item, put.Item);
}

/**
 * The instant of one attempt of a change: the request's instant `at` plus the time spent since `started` (on the
 * monotonic clock, so the local runtime's clock offset holds), and at least 1 µs after the stored `dateModified`:
 * a change never dates the object before a change it overwrites.
 */
export function attemptNow<T>(def: AggregateKind<T>, current: Aggregate<T>, at: Micros, started: number): Micros {
  return laterThan(at + Math.round((performance.now() - started) * 1000), def.dateModified(current.root));
}

/** Runs load-apply-write until the write's revision condition holds (optimistic concurrency). */
export async function retryOnConflict<R>(attempt: () => Promise<R>): Promise<R> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (i + 1 >= MAX_ATTEMPTS) throw new ConflictError();
      await backoff(i);
    }
  }
}

/** The read half of a kind's repository: what a read route's bundle carries. */
export const aggregateReader = <T>(def: AggregateKind<T>): AggregateReader<T> => ({
  get: (id) => loadAggregate(def, id),
});

export function aggregateRepository<T>(def: AggregateKind<T>): AggregateRepository<T> {
  return {
    get: (id) => loadAggregate(def, id),

    async create(a, author) {
      const createRequest = randomUUID();
      try {
        await writeChange(createWrites(def, a, author, createRequest));
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // The root exists: written by this very call (its answer was lost and the SDK sent it again), or by another.
        if ((await rootAttribute(def, a.id, 'createRequest')) !== createRequest) throw new AlreadyCreatedError(a.id);
      }
    },

    modify: (id, change, options) => {
      const started = performance.now();
      return retryOnConflict(async () => {
        const current = await (options.rootOnly ? loadRoot : loadAggregate)(def, id);
        if (!current) throw new NotFoundError(def.notFound);
        const next = change(current, attemptNow(def, current, options.at, started));
        if (!next) return current;
        const writes = changeWrites(def, current, next, options.by);
        try {
          await writeChange(writes);
        } catch (error) {
          throw (await budgetRefusal(def, writes, error)) ?? error;
        }
        const children = childrenAfter(current, next);
        if (writes[0].Put === undefined) return { ...current, children };
        return {
          ...current,
          root: next.root,
          internal: next.internal ?? current.internal,
          tokenHash: next.tokenHash ?? current.tokenHash,
          closed: next.close ?? current.closed,
          rev: current.rev + 1,
          history: (writes[0].Put?.Item as { history?: ChainHead } | undefined)?.history,
          children,
        };
      });
    },
  };
}
