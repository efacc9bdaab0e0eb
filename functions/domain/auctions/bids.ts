import type { Child } from '../kernel/aggregate.ts';
import { ForbiddenError, NotFoundError, PermissionError } from '../kernel/errors.ts';
import { tokenMatches } from '../kernel/ids.ts';
import { withoutField, type JsonRecord } from '../kernel/objects.ts';
import type { Principal } from '../kernel/principal.ts';
import type { Micros } from '../kernel/time.ts';
import { allDocuments, type DocumentRecord } from '../documents/documents.ts';
import {
  childPlace,
  childrenOf,
  documentScope,
  type Auction,
  type AuctionParts,
  type AuctionStatus,
} from './auction.ts';
import { auctionType, type TypeBidFields as BidFields } from './catalog.ts';
import { linkSchemeOf } from './room-links.ts';

/** Every status a bid of any type can be in: what its request schemas allow (landlease: its patch), and `unsuccessful` (set by the server). */
export type BidStatus = NonNullable<StatusOf<BidFields>> | 'unsuccessful';
type StatusOf<F> = F extends { status?: infer S } ? S : never;

/** The server's own fields of a bid. */
type BidServer = {
  id: string;
  status: BidStatus;
  owner: string;
  date: string;
  bidNumber?: number;
  /** Shown to the bid's owner only, computed on each answer (`bidView`): a credential, never stored. */
  participationUrl?: string;
  /** What the bid offers: sent by a landlease bidder; a dgfInsider bid gets it from the auction system's results. */
  value?: { amount: number; currency?: string; valueAddedTaxIncluded?: boolean };
};

/**
 * A bid (interface.md §2.6): the fields its type's request schema allows (generated from the same schema its
 * validator uses) and the server's. Its owner token's hash is kept beside it (`Child.internal`), never in the bid.
 */
export type Bid = OwnFields<BidFields> & BidServer;
/** A type's bid fields but the server's (distributed over the types). */
type OwnFields<F> = F extends unknown ? Omit<F, keyof BidServer> : never;

/** A bid before the kernel stamps it (its `id`, `owner` and `date`): what a type's `create` returns. */
export type NewBid = Bid extends unknown ? Omit<Bid, 'id' | 'owner' | 'date'> : never;

/**
 * The per-type bid rules; storage, tokens, visibility and documents are the kernel's. `A`: the type's auctions.
 * `data` is a body as sent (JsonRecord): each rule picks and validates what it takes.
 */
export interface BidPolicy<A extends Auction = Auction> {
  /** Auction statuses in which a bid may be added. */
  addStatuses: readonly AuctionStatus[];
  /** Auction statuses in which a bid may be changed or deleted, or get documents. */
  changeStatuses: readonly AuctionStatus[];
  /** Validates a new bid's fields (422/403) and returns them as stored (status, value, ...). */
  create(data: JsonRecord, auction: A, now: Micros): NewBid;
  /** The owner's PATCH of a bid: the bid as it becomes, or a refusal. */
  patch(bid: Bid, data: JsonRecord, ctx: { auction: A; others: Bid[]; documents: DocumentRecord[]; now: Micros }): Bid;
  /**
   * Whether the bid's owner (already checked) may add (`add`) or replace (`update`) a document of the bid now:
   * throws the type's refusal (403).
   */
  assertDocumentWritable(
    bid: Bid,
    ctx: {
      auction: A;
      children: readonly Child[];
      operation: 'add' | 'update';
      documentType: unknown;
      now: Micros;
    },
  ): void;
}

export const BID = 'BID';

export function bidRecords(children: Child[]): { bid: Bid; child: Child }[] {
  return childrenOf<Bid>(children, BID).map((child) => ({ bid: child.data, child }));
}

export const bidsOf = (children: Child[]): Bid[] => bidRecords(children).map((r) => r.bid);

export function findBid(children: Child[], id: string): { bid: Bid; child: Child } {
  const found = bidRecords(children).find((r) => r.bid.id === id);
  if (!found) throw new NotFoundError('bid_id');
  return found;
}

/** A bid as stored: without a participation link (a credential; items written before kept one, dropped on rewrite). */
export const bidChild = ({ participationUrl: _, ...bid }: Bid, tokenHash: string | undefined): Child => ({
  place: childPlace(BID, bid.id),
  entity: 'bid',
  data: bid,
  internal: { tokenHash },
});

/** A bid's owner is the broker key that made it, holding the bid's own token. */
export function isBidOwner(principal: Principal, bid: Bid, child: Child): boolean {
  return (
    principal.role === 'broker' &&
    principal.name === bid.owner &&
    tokenMatches(principal.token, child.internal?.tokenHash)
  );
}

export function assertBidOwner(principal: Principal, bid: Bid, child: Child): void {
  if (!isBidOwner(principal, bid, child)) throw new PermissionError();
}

/**
 * What computes bidders' links, on the routes that answer a bid's owner or the auction system: where auctions are
 * held and the server secret the links are keyed with.
 */
export interface ParticipationLinks {
  auctionSite: string;
  participationSecret: string;
}

/**
 * An active bid has its link as soon as it is active where its type says so (dgfInsider, upstream
 * `participation_url`), otherwise once the auction is scheduled (it has its `auctionUrl`).
 */
const hasParticipationLink = (a: AuctionParts, bid: Bid): boolean =>
  bid.status === 'active' &&
  (auctionType(a.root.procurementMethodType).participationOnActive || a.root.auctionUrl !== undefined);

/**
 * A bid as shown: with its documents (every version, as upstream); its `participationUrl` only to its owner (or the
 * auction system), computed from `links` when given, never read from storage.
 */
export function bidView(a: AuctionParts, bid: Bid, links?: ParticipationLinks): Bid {
  const documents = allDocuments(a.children, documentScope(BID, bid.id));
  return {
    ...withoutField(bid, 'participationUrl'),
    ...(documents.length && { documents }),
    ...(links && hasParticipationLink(a, bid) && { participationUrl: participationUrlOf(links, a.root, bid.id) }),
  };
}

/** The bids GET shows inside the auction: none while they are hidden, otherwise all but drafts. */
export function visibleBids(a: AuctionParts, hiddenIn: readonly string[]): Bid[] | undefined {
  if (hiddenIn.includes(a.root.status)) return undefined;
  const bids = bidsOf(a.children).filter((b) => b.status !== 'draft');
  return bids.length ? bids.map((b) => bidView(a, b)) : undefined;
}

/** One bid by id: its owner always sees it (with its link); others only once bids are no longer hidden. */
export function readBid(
  a: AuctionParts,
  id: string,
  principal: Principal,
  hiddenIn: readonly string[],
  links?: ParticipationLinks,
): Bid {
  const { bid, child } = findBid(a.children, id);
  const owner = isBidOwner(principal, bid, child);
  if (!owner && hiddenIn.includes(a.root.status)) {
    throw new ForbiddenError(`Can't view bid in current (${a.root.status}) auction status`);
  }
  return bidView(a, bid, owner ? links : undefined);
}

/**
 * A bid's documents are seen by whoever may see the bid: its owner always, others once bids are no longer hidden
 * (upstream texts "Can't view bid document(s) in current (<status>) auction status"). Unknown bid: 404.
 */
export function assertBidDocumentsReadable(
  a: AuctionParts,
  id: string,
  principal: Principal,
  hiddenIn: readonly string[],
  noun: 'document' | 'documents',
): void {
  const { bid, child } = findBid(a.children, id);
  if (!isBidOwner(principal, bid, child) && hiddenIn.includes(a.root.status)) {
    throw new ForbiddenError(`Can't view bid ${noun} in current (${a.root.status}) auction status`);
  }
}

/** What a link into the auction room is made of: the auction and its type (each type has its link scheme). */
export interface RoomAuctionRef {
  id: string;
  procurementMethodType: string;
}

const schemeOf = (auction: RoomAuctionRef) => {
  const scheme = linkSchemeOf(auction.procurementMethodType);
  if (!scheme) throw new Error(`no room links for auction type ${auction.procurementMethodType}`);
  return scheme;
};

/** Where the auction room holds an auction: `auctionUrl` once it is scheduled, and the base of bidders' links. */
export const auctionUrlOf = (auctionSite: string, auction: RoomAuctionRef): string =>
  `${auctionSite}/${schemeOf(auction).path}/${auction.id}`;

/**
 * The link a bidder follows into the auction room, as the originals made it (room-links.ts): the auction URL +
 * `login?bidder_id=<bid id>&signature=<Ed25519 signature>` (dgfInsider) or `&hash=<SHA-1>` (landlease).
 */
export const participationUrlOf = (
  link: { auctionSite: string; participationSecret: string },
  auction: RoomAuctionRef,
  bidId: string,
): string => {
  const scheme = schemeOf(auction);
  const key = scheme.key(link.participationSecret, auction.id, bidId);
  return `${auctionUrlOf(link.auctionSite, auction)}/login?bidder_id=${bidId}&${scheme.param}=${key}`;
};
