import type { JsonObject } from './objects.ts';
import type { Micros } from './time.ts';

/**
 * An aggregate as the domain sees it: the root object (what GET shows), its owner token's hash, the revision
 * the store uses for optimistic concurrency, and its children (documents, bids, ...).
 */
export interface Child {
  /** Sort key inside the aggregate, e.g. `DOC#<id>#0002`. */
  key: string;
  entity: string;
  data: JsonObject;
  /** Server-only state of the child that views never show (e.g. a bid token's hash). */
  internal?: JsonObject;
}

export interface Aggregate<T> {
  id: string;
  root: T;
  tokenHash: string;
  rev: number;
  children: Child[];
  /** Server-only state that GET never shows (e.g. a transfer token's hash). */
  internal?: JsonObject;
}

/** Where an aggregate appears besides its own key: the listing feed and the bot-work index. */
export interface Indexing {
  feed?: { name: string; test: boolean };
  work?: { bot: string; due: Micros };
}

/** What one command writes: the new root (always, to move `rev`) and any children to put or remove. */
export interface Change<T> {
  root: T;
  internal?: JsonObject;
  /** A new owner token's hash (an ownership transfer); absent: the token stays. */
  tokenHash?: string;
  put?: Child[];
  /** Keys of children to delete. */
  remove?: string[];
  /**
   * The root is unchanged and the revision stays: the write only checks that `rev` did not move, so writers of
   * independent children (two bidders registering) never conflict with each other, yet lose to a root change.
   */
  keepRevision?: boolean;
}

/** The port a registry's commands use; `functions/store` implements it over DynamoDB. */
export interface AggregateRepository<T> {
  get(id: string): Promise<Aggregate<T> | undefined>;
  create(aggregate: Omit<Aggregate<T>, 'rev'>): Promise<void>;
  /**
   * Loads, applies `change` and writes with a condition on `rev`; on a lost race it reloads and applies again,
   * so concurrent writers never lose an acknowledged change. `change` returns undefined when nothing changes.
   */
  modify(id: string, change: (current: Aggregate<T>) => Change<T> | undefined): Promise<Aggregate<T>>;
}

/** A page of a listing feed, newest position last. */
export interface FeedPage {
  items: { id: string; dateModified: string; root: JsonObject }[];
}

export interface FeedQuery {
  feed: string;
  test: boolean;
  /** Exclusive start: a sortable UTC text produced by `sortableUtc`. */
  after?: string;
  descending: boolean;
  limit: number;
}

export interface FeedReader {
  page(query: FeedQuery): Promise<FeedPage>;
}

export interface SequenceSource {
  /** The next number of a per-day counter (atomic). */
  next(prefix: string, day: string): Promise<number>;
}
