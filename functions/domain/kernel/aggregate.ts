import type { DomainError } from './errors.ts';
import type { ChainHead, RevisionAuthor } from './history.ts';
import type { JsonRecord } from './objects.ts';
import type { Micros } from './time.ts';

/**
 * An aggregate as the domain sees it: the root object (what GET shows), its owner token's hash, the revision
 * the store uses for optimistic concurrency, and its children (documents, bids, ...).
 */
/** The child another child belongs to: a bid's (award's, contract's) documents sit under it. */
export interface ChildOwner {
  kind: string;
  id: string;
}

/**
 * Where a child sits in its aggregate: its kind (`BID`, `DOC`, ...) and id, the child it belongs to (none: the
 * aggregate itself), and a document's version. The store turns it into its sort key and back; the domain never
 * sees the key's format.
 */
export interface ChildPlace extends ChildOwner {
  under?: ChildOwner;
  version?: number;
}

const sameOwner = (a: ChildOwner | undefined, b: ChildOwner | undefined): boolean =>
  a?.kind === b?.kind && a?.id === b?.id;

export const samePlace = (a: ChildPlace, b: ChildPlace): boolean =>
  a.kind === b.kind && a.id === b.id && a.version === b.version && sameOwner(a.under, b.under);

/** The child is `owner` itself or belongs to it (a bid and its documents). */
export const isOrUnder = (place: ChildPlace, owner: ChildOwner): boolean =>
  (sameOwner(place, owner) && !place.under) || sameOwner(place.under, owner);

/** Server-only state that views never show, on an aggregate or a child. */
export interface Internal {
  [key: string]: unknown;
  /** A child's own token (a bid's), hashed. */
  tokenHash?: string;
  /** The broker key that asked a question (what it counts in: limits.ts). */
  asker?: string;
  /** The broker key whose bid a document belongs to (what it counts in: limits.ts). */
  bidder?: string;
  /** The object's transfer token, hashed. */
  transferTokenHash?: string;
  /** An award's place in the order of bids. */
  rank?: number;
  /** The convoy told the lot an auction's outcome. */
  lotReported?: boolean;
}

/** A child of an aggregate; `D`: what its kind holds (a bid, an award, ...), as the registry that owns it types it. */
export interface Child<D extends object = JsonRecord> {
  place: ChildPlace;
  entity: string;
  data: D;
  /** Server-only state of the child that views never show (e.g. a bid token's hash). */
  internal?: Internal;
  /** The child's own revision as stored (the store moves it on each write; `keepStatus` writes hold on it). */
  rev?: number;
  /**
   * When the child was made, as the store stamped it (microseconds; never set by the domain): children are listed in
   * this order, as the originals listed them. Children stored before stamps have none and come first, by key.
   */
  created?: number;
}

/**
 * The children `test` picks, as the records `D` that the module writing their kind stores (a bid, an award, a
 * document). The one cast of stored children: the store hands back JSON, typed by the checks its writer made.
 */
export function childrenWhere<D extends object>(
  children: readonly Child[],
  test: (child: Child) => boolean,
): Child<D>[] {
  return children.filter(test) as Child<D>[];
}

export interface Aggregate<T> {
  id: string;
  root: T;
  tokenHash: string;
  rev: number;
  /** In the order they were made (`Child.created`). */
  children: Child[];
  /** Server-only state that GET never shows (e.g. a transfer token's hash). */
  internal?: Internal;
  /** Closed to `keepStatus` writes while a change in several writes is under way (see `Change.close`). */
  closed?: boolean;
  /** The end of its change log as stored (none: no revision yet, an object older than the log). */
  history?: ChainHead;
}

/**
 * Bounds on an aggregate's children by kind (`BID`, `DOC`, `QUESTION`, ...): the bytes they take as stored and how
 * many there are. The store keeps the totals in the same transactions as the children, so that no concurrent
 * writers can take a kind beyond them; a client's change that would is refused with `refusal(kind)`.
 */
export interface ChildBudgets {
  bytes: Readonly<Record<string, number>>;
  count: Readonly<Record<string, number>>;
  /**
   * The shares a child also counts in besides its kind, each with its own bounds: what one group of children may take
   * of the whole (the bids' documents, one broker's bids), so that no bidder or broker crowds out the others.
   */
  shares?(child: Child): readonly BudgetShare[];
  /** The refusal of a change that would take a kind, or a share (by its name), beyond its bounds. */
  refusal(kindOrShare: string): DomainError;
}

export interface BudgetShare {
  name: string;
  bytes?: number;
  count?: number;
}

/** Where an aggregate appears besides its own key: the listing feed and the bot-work index. */
export interface Indexing {
  /** The listing feed it belongs to: its journal lane (a draft's too, for its owner's webhooks), listed unless `draft`. */
  feed?: { name: string; test: boolean };
  /** A draft: its owner's until published, in no listing. */
  draft?: boolean;
  work?: { bot: string; due: Micros };
}

/** What one command writes: the new root (always, to move `rev`) and any children to put or remove. */
export interface Change<T> {
  root: T;
  internal?: Internal;
  /** A new owner token's hash (an ownership transfer); absent: the token stays. */
  tokenHash?: string;
  put?: Child[];
  /** Children to delete. */
  remove?: ChildPlace[];
  /**
   * The root is unchanged and the revision stays: the write only checks that `rev` did not move, so writers of
   * independent children (two bidders registering) never conflict with each other, yet lose to a root change.
   */
  keepRevision?: boolean;
  /**
   * With `keepRevision`: the write holds while the root keeps the status it was read with and the aggregate is not
   * closed, whatever its revision: writers of independent children (bidders) then never refuse each other, nor
   * lose to a root write that keeps the status (a question asked meanwhile).
   */
  keepStatus?: boolean;
  /**
   * A server's change (a timed event, the auction system's results): counted in the aggregate's budgets but never
   * refused by them, so that no procedure stalls on a full auction.
   */
  unbudgeted?: boolean;
  /**
   * Closes the aggregate to `keepStatus` writes (true) or opens it again (false); absent: as it was. A change that
   * reads the children and takes several writes (a timed event dropping draft bids) closes it first, so that no
   * child lands between its reads and its last write.
   */
  close?: boolean;
}

/**
 * The half of the port a read needs: a read route's bundle gets only this, so it carries none of the change log's
 * write path (the revision diff, the transactions).
 */
export type AggregateReader<T> = Pick<AggregateRepository<T>, 'get'>;

/** The port a registry's commands use; `functions/store` implements it over DynamoDB. */
export interface AggregateRepository<T> {
  get(id: string): Promise<Aggregate<T> | undefined>;
  /** Stores a new aggregate, with its first revision by `author`. */
  create(aggregate: Omit<Aggregate<T>, 'rev'>, author: RevisionAuthor): Promise<void>;
  /**
   * Loads, applies `change` and writes with a condition on `rev`; on a lost race it reloads and applies again,
   * so concurrent writers never lose an acknowledged change. `change` returns undefined when nothing changes.
   * `rootOnly`: the change reads no child (a new bid), so only the root is read, whatever the aggregate's size;
   * `current.children` is then empty.
   * `now`: the attempt's own instant (a retry takes a new one): `at` (the request's instant) plus the time spent
   * since, and always after the stored `dateModified`, so that the object's time never goes back. `by`: who makes
   * the change, as its revision names them (the change log: kernel/history.ts).
   */
  modify(
    id: string,
    change: (current: Aggregate<T>, now: Micros) => Change<T> | undefined,
    options: { at: Micros; by: RevisionAuthor; rootOnly?: boolean },
  ): Promise<Aggregate<T>>;
}

/**
 * A page of a listing feed, newest position last. `at`: the row's listing point (its journal stamp, as a date-time:
 * its `dateModified`, or just after the one before when it was journaled after a later-dated change), the offset.
 */
export interface FeedPage {
  items: { id: string; dateModified: string; root: JsonRecord; at: string }[];
}

export interface FeedQuery {
  feed: string;
  test: boolean;
  /** Exclusive start: a sortable UTC text produced by `sortableUtc`. */
  after?: string;
  descending: boolean;
  limit: number;
}

/** A page of a change feed: one row per change, in the order of the changes. */
export interface ChangesPage {
  items: { cursor: string; id: string; seq: number; hash?: string; view: JsonRecord }[];
  /** The cursors of the first and last entries read, shown or not (a draft's is its owner's webhooks' alone). */
  first?: string;
  last?: string;
  /** The query's `after` is no row of this feed: a cursor the service never gave for it. */
  unknownCursor?: boolean;
}

export interface ChangesQuery {
  feed: string;
  test: boolean;
  /** Exclusive start: the `cursor` of a row. */
  after?: string;
  descending: boolean;
  limit: number;
}

export interface FeedReader {
  page(query: FeedQuery): Promise<FeedPage>;
  /** The change feed (`feed=changes`): the feed's journal lane by position, one Query a page. */
  changes(query: ChangesQuery): Promise<ChangesPage>;
}

export interface SequenceSource {
  /** The next number of a per-day counter (atomic). */
  next(prefix: string, day: string): Promise<number>;
}
