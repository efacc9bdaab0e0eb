import { isOrUnder, samePlace, type Child, type ChildOwner, type ChildPlace } from '../kernel/aggregate.ts';
import type { Micros } from '../kernel/time.ts';
import { parseInstant } from '../kernel/time.ts';
import type { TypeAuctionRecord } from './catalog.ts';

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

/** A period the server sets once both its ends are known (rectification, tendering, enquiry). */
export interface Period {
  startDate: string;
  endDate: string;
}

/**
 * The auction period: the planned day (`startDate`, landlease), the time the auction may start after
 * (`shouldStartAfter`), its start once scheduled and its `endDate` once the results are in.
 */
export interface AuctionPeriod {
  startDate?: string;
  shouldStartAfter?: string;
  endDate?: string;
}

/** Qualification: from the first award until one is active (or none is left). */
export interface AwardPeriod {
  startDate: string;
  endDate?: string;
}

/** The periods of an auction, by name: what `within`, `span` and the question rules read. */
export interface AuctionPeriods {
  rectificationPeriod?: Period;
  tenderPeriod?: Period;
  enquiryPeriod?: Period;
  auctionPeriod: AuctionPeriod;
  awardPeriod?: AwardPeriod;
}
export type PeriodName = keyof AuctionPeriods;

/**
 * The server's own fields of an auction of any type (interface.md §2.5): ids, dates, owner, the status (`S`: the
 * type's statuses), the procedure's constants, the periods and what the chronograph and the convoy write. Each
 * type adds its own (types/<type>/record.ts); the client's fields come from the type's request schema.
 */
export interface AuctionServer<T extends string, S extends AuctionStatus> extends AuctionPeriods {
  id: string;
  auctionID: string;
  procurementMethodType: T;
  status: S;
  owner: string;
  date: string;
  dateModified: string;
  procurementMethod: 'open';
  submissionMethod: 'electronicAuction';
  awardCriteria: 'highestCost';
  /** Set when the auction is scheduled (`active.auction`). */
  auctionUrl?: string;
  /** The active bids when the enquiry (insider) or tendering ends. */
  numberOfBids?: number;
  /** Why an auction from a lot was refused (`invalid`). */
  statusReason?: string;
  /** When the chronograph must look at the auction next (min of the due times of its timed events). */
  next_check?: string;
}

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
}

export const working = <A extends Auction>(a: AuctionParts<A>): Working<A> => ({
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

/** Children of one kind (`BID`, `QUESTION`, `AWARD`, `CONTRACT`): their own items, not their documents. */
export function childrenOf(children: readonly Child[], kind: string): Child[] {
  return children.filter((c) => c.place.kind === kind && !c.place.under);
}

export const childPlace = (kind: string, id: string): ChildPlace => ({ kind, id });

/** The documents of a child belong to it (`under` the bid, award or contract). */
export const documentScope = (kind: string, id: string): ChildOwner => ({ kind, id });
