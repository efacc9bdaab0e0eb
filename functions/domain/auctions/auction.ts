import type { Child } from '../kernel/aggregate.ts';
import type { JsonObject } from '../kernel/objects.ts';
import type { Micros } from '../kernel/time.ts';
import { parseInstant } from '../kernel/time.ts';

/**
 * An auction procedure as stored and shown (interface.md §2.5), whatever its type. The per-type fields are the
 * definition's business (`types/<type>/`); the kernel relies only on these.
 */
export interface Auction extends JsonObject {
  id: string;
  auctionID: string;
  procurementMethodType: string;
  status: string;
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
  remove: string[];
}

export const working = (a: AuctionParts): Working => ({ root: a.root, children: [...a.children], tokenHash: a.tokenHash, put: [], remove: [] });

export function putChild(w: Working, child: Child): void {
  w.children = [...w.children.filter((c) => c.key !== child.key), child];
  w.put = [...w.put.filter((c) => c.key !== child.key), child];
}

export function removeChild(w: Working, key: string): void {
  w.children = w.children.filter((c) => c.key !== key);
  w.put = w.put.filter((c) => c.key !== key);
  w.remove = [...w.remove, key];
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
  return children.filter((c) => c.key.startsWith(`${kind}#`) && c.key.split('#').length === 2);
}

export const childKey = (kind: string, id: string) => `${kind}#${id}`;

/** The documents of a child live beside it: `BID#<id>#DOC#...`. */
export const documentScope = (kind: string, id: string) => `${kind}#${id}#`;
