import {
  childrenWhere,
  isOrUnder,
  samePlace,
  type Child,
  type ChildOwner,
  type ChildPlace,
} from '../kernel/aggregate.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import type { Micros } from '../kernel/time.ts';
import { parseInstant } from '../kernel/time.ts';
import type { TypeAuctionRecord } from './catalog.ts';
import type { AuctionPeriods, PeriodName } from './record.ts';

export {
  AUCTION_STATUSES,
  type AuctionPeriod,
  type AuctionPeriods,
  type AuctionServer,
  type AuctionStatus,
  type AwardPeriod,
  type Period,
  type PeriodName,
} from './record.ts';

/**
 * An auction procedure as stored and shown (interface.md §2.5): one record type per auction type, told apart by
 * `procurementMethodType`: the union over the catalog (each descriptor's `records`), so a new type names none here.
 * Blocks shared by the types read the fields every record has.
 */
export type Auction = TypeAuctionRecord;

/** The record of one auction type. */
export type AuctionOf<T extends Auction['procurementMethodType']> = Extract<Auction, { procurementMethodType: T }>;

/** The statuses every type has: the only ones the shared blocks (awarding, cancelling, scheduling) move an auction to. */
export type SharedStatus = CommonStatus<Auction>;
/** The statuses every member of the union `A` has: inferred from a contravariant place, the candidates intersect. */
type CommonStatus<A extends { status: string }> = (A extends unknown ? (status: A['status']) => void : never) extends (
  status: infer S,
) => void
  ? S
  : never;

/** The parts of an aggregate the auction blocks work on: the root and its children (bids, documents, ...). */
export interface AuctionParts<A extends Auction = Auction> {
  root: A;
  children: Child[];
  /** The owner token's hash, for owner checks inside a change. */
  tokenHash?: string;
}

/**
 * A change being built by one command or one timed event: the auction and its children as they will be, plus
 * what to write. Blocks edit it through `putChild` / `removeChild`, so several blocks compose in one write.
 */
export interface Working<A extends Auction = Auction> extends AuctionParts<A> {
  put: Child[];
  remove: ChildPlace[];
  /** A bounded step stopped for want of room (`putWithin`, `removeWithin`): its rest is for the next write. */
  more?: boolean;
  /** The auction is closed to bid writes while a change in several writes is under way (a timed event). */
  closed?: boolean;
  /** The change claims something its siblings must not (a bid's `bidNumber`): it moves the revision. */
  serialize?: boolean;
}

export const working = <A extends Auction>(a: AuctionParts<A> & { closed?: boolean }): Working<A> => ({
  root: a.root,
  children: [...a.children],
  tokenHash: a.tokenHash,
  put: [],
  remove: [],
  ...(a.closed && { closed: true }),
});

/**
 * What one write of an auction may hold besides its root, its budget item and its revision (store/aggregates.ts):
 * DynamoDB takes 100 items and 4 MB a transaction (a revision takes at most 300 KB of changes). Steps
 * that touch many children (dropping draft bids, recording results, awarding) do what fits and leave the rest to the
 * next write, each step idempotent so that an interrupted run resumes where it stopped.
 */
export const WRITE_BOUNDS = { items: 97, bytes: 3_000_000 };

/** Bytes a child takes in a write, approximated by its JSON text (the store counts the same way). */
const childBytes = (c: Child): number => JSON.stringify(c).length + 200;
const written = (w: Working) => ({
  items: w.put.length + w.remove.length,
  bytes: w.put.reduce((sum, c) => sum + childBytes(c), 0) + w.remove.length * 200,
});

/** True when the write has room for `items` more children of `bytes`; else marks the working as having more to do. */
function hasRoom(w: Working, items: number, bytes: number): boolean {
  const now = written(w);
  if (now.items + items <= WRITE_BOUNDS.items && now.bytes + bytes <= WRITE_BOUNDS.bytes) return true;
  w.more = true;
  return false;
}

/** Puts a child if this write has room for it; false (and `w.more`) when it must wait for the next write. */
export function putWithin(w: Working, child: Child): boolean {
  if (!hasRoom(w, 1, childBytes(child))) return false;
  putChild(w, child);
  return true;
}

/** Removes a child with its belongings if this write has room for them all; false (and `w.more`) otherwise. */
export function removeWithin(w: Working, owner: ChildOwner): boolean {
  const count = w.children.filter((c) => isOrUnder(c.place, owner)).length;
  if (!hasRoom(w, count, count * 200)) return false;
  removeWithBelongings(w, owner);
  return true;
}

export function putChild(w: Working, child: Child): void {
  w.children = [...w.children.filter((c) => !samePlace(c.place, child.place)), child];
  w.put = [...w.put.filter((c) => !samePlace(c.place, child.place)), child];
}

export function removeChild(w: Working, place: ChildPlace): void {
  w.children = w.children.filter((c) => !samePlace(c.place, place));
  w.put = w.put.filter((c) => !samePlace(c.place, place));
  w.remove = [...w.remove, place];
}

/** Removes a child (a bid) and everything that belongs to it (its documents). */
export function removeWithBelongings(w: Working, owner: ChildOwner): void {
  for (const c of w.children.filter((c) => isOrUnder(c.place, owner))) removeChild(w, c.place);
}

/** A period field (`tenderPeriod`, ...) boundary as microseconds, or undefined when absent. */
export function instantOf(
  auction: Partial<AuctionPeriods>,
  period: PeriodName,
  edge: 'startDate' | 'endDate',
): Micros | undefined {
  const text = auction[period]?.[edge];
  return typeof text === 'string' ? parseInstant(text) : undefined;
}

/** True when `now` lies within the period (bounds included); false when the period is missing. */
export function within(auction: Partial<AuctionPeriods>, period: PeriodName, now: Micros): boolean {
  const start = instantOf(auction, period, 'startDate');
  const end = instantOf(auction, period, 'endDate');
  return start !== undefined && end !== undefined && start <= now && now <= end;
}

/**
 * Children of one kind (`BID`, `QUESTION`, `AWARD`, `CONTRACT`): their own items, not their documents; `D`, the
 * record the module that writes the kind stores (`childrenOf<Award>(children, AWARD)`).
 */
export function childrenOf<D extends object = JsonRecord>(children: readonly Child[], kind: string): Child<D>[] {
  return childrenWhere<D>(children, (c) => c.place.kind === kind && !c.place.under);
}

export const childPlace = (kind: string, id: string): ChildPlace => ({ kind, id });

/** The documents of a child belong to it (`under` the bid, award or contract). */
export const documentScope = (kind: string, id: string): ChildOwner => ({ kind, id });
