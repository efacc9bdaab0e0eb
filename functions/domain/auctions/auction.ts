import { isOrUnder, samePlace, type Child, type ChildOwner, type ChildPlace } from '../kernel/aggregate.ts';
import type { JsonObject } from '../kernel/objects.ts';
import type { Micros } from '../kernel/time.ts';
import { parseInstant } from '../kernel/time.ts';

/**
 * Every status an auction of any type can be in (each type's definition uses its subset): a new status must be
 * added here, so a typo in a definition's status list or a status change does not compile.
 */
export const AUCTION_STATUSES = [
  'draft',
  'pending.verification',
  'active.rectification',
  'active.tendering',
  'active.enquiry',
  'active.auction',
  'active.qualification',
  'active.awarded',
  'complete',
  'cancelled',
  'unsuccessful',
  'invalid',
] as const;
export type AuctionStatus = (typeof AUCTION_STATUSES)[number];

/**
 * An auction procedure as stored and shown (interface.md §2.5), whatever its type. The per-type fields are the
 * definition's business (`types/<type>/`); the kernel relies only on these.
 */
export interface Auction extends JsonObject {
  id: string;
  auctionID: string;
  procurementMethodType: string;
  status: AuctionStatus;
  owner: string;
  date: string;
  dateModified: string;
  mode?: 'test';
  procurementMethodDetails?: string;
  /** When the chronograph must look at the auction next (min of the due times of its timed events). */
  next_check?: string;
}

/** The parts of an aggregate the auction blocks work on: the root and its children (bids, documents, ...). */
export interface AuctionParts {
  root: Auction;
  children: Child[];
  /** The owner token's hash, for owner checks inside a change. */
  tokenHash?: string;
}

/**
 * A change being built by one command or one timed event: the auction and its children as they will be, plus
 * what to write. Blocks edit it through `putChild` / `removeChild`, so several blocks compose in one write.
 */
export interface Working extends AuctionParts {
  put: Child[];
  remove: ChildPlace[];
}

export const working = (a: AuctionParts): Working => ({
  root: a.root,
  children: [...a.children],
  tokenHash: a.tokenHash,
  put: [],
  remove: [],
});

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
export function instantOf(auction: JsonObject, period: string, edge: 'startDate' | 'endDate'): Micros | undefined {
  const text = auction[period]?.[edge];
  return typeof text === 'string' ? parseInstant(text) : undefined;
}

/** True when `now` lies within the period (bounds included); false when the period is missing. */
export function within(auction: JsonObject, period: string, now: Micros): boolean {
  const start = instantOf(auction, period, 'startDate');
  const end = instantOf(auction, period, 'endDate');
  return start !== undefined && end !== undefined && start <= now && now <= end;
}

/** Children of one kind (`BID`, `QUESTION`, `AWARD`, `CONTRACT`): their own items, not their documents. */
export function childrenOf(children: Child[], kind: string): Child[] {
  return children.filter((c) => c.place.kind === kind && !c.place.under);
}

export const childPlace = (kind: string, id: string): ChildPlace => ({ kind, id });

/** The documents of a child belong to it (`under` the bid, award or contract). */
export const documentScope = (kind: string, id: string): ChildOwner => ({ kind, id });
