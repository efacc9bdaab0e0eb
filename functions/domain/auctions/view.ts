import type { Indexing } from '../kernel/aggregate.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import { parseInstant } from '../kernel/time.ts';
import { allDocuments, type DocumentRecord } from '../documents/documents.ts';
import type { Auction, AuctionParts } from './auction.ts';
import { awardsOf, contractsOf, type AwardView, type ContractView } from './awarding.ts';
import { bidsOf, bidView, visibleBids, type Bid, type ParticipationLinks } from './bids.ts';
import { cancellationsOf, type Cancellation } from './cancellations.ts';
import { auctionType } from './catalog.ts';
import { convoyDue } from './convoy-due.ts';
import { roomDue } from './room-due.ts';
import { questionsOf, type PublicQuestion } from './questions.ts';

// The views read only the type's descriptor (catalog.ts), never its definition (registry.ts): the read routes and
// the store, which indexes with `auctionIndexing`, load no schemas, validators or calendar.

/** An auction as GET shows it: the stored record with its children (each list only when not empty). */
export type AuctionView = Auction & {
  documents?: DocumentRecord[];
  questions?: PublicQuestion[];
  bids?: Bid[];
  awards?: AwardView[];
  contracts?: ContractView[];
  cancellations?: Cancellation[];
};

const nonEmpty = <T>(list: T[] | undefined) => (list?.length ? list : undefined);

/**
 * What GET shows: the root with its documents (every version, as upstream), questions, visible bids, awards and
 * contracts (one Query).
 */
export function auctionView(a: AuctionParts): AuctionView {
  const documents = nonEmpty(allDocuments(a.children));
  const questions = nonEmpty(questionsOf(a));
  const bids = visibleBids(a, auctionType(a.root.procurementMethodType).bidsHidden);
  const awards = nonEmpty(awardsOf(a));
  const contracts = nonEmpty(contractsOf(a));
  const cancellations = nonEmpty(cancellationsOf(a));
  // Absent lists are left out, not shown empty.
  return {
    ...a.root,
    ...(documents && { documents }),
    ...(questions && { questions }),
    ...(bids && { bids }),
    ...(awards && { awards }),
    ...(contracts && { contracts }),
    ...(cancellations && { cancellations }),
  };
}

/** What the auction system reads: the procedure and its active bids with their participation links. */
export function auctionModuleView(a: AuctionParts, links?: ParticipationLinks): AuctionView {
  const bids = bidsOf(a.children)
    .filter((b) => b.status === 'active')
    .map((b) => bidView(a, b, links));
  return { ...a.root, bids };
}

/**
 * The listing feed (never drafts) and the work index: the convoy's while the auction waits for its lot's check or
 * must report its outcome to the lot, else the earlier of the room's (its room to plan or close) and the
 * chronograph's (a timed event pending).
 */
export function auctionIndexing(auction: Auction, internal?: JsonRecord): Indexing {
  const convoy = convoyDue(auction, internal);
  const due = auction.next_check ? parseInstant(auction.next_check) : undefined;
  // The auction room plans its room once the auction enters active.auction, and closes it if it leaves without it.
  const room = roomDue(auction, internal) ? parseInstant(auction.date ?? auction.dateModified) : undefined;
  // One bot at a time: the convoy first, then whichever of the chronograph and the room is due first (an insider
  // auction in active.auction has its next_check, the planned end, hours after the room must be planned).
  const work =
    convoy !== undefined
      ? { bot: 'convoy', due: convoy }
      : room !== undefined && (due === undefined || room <= due)
        ? { bot: 'room', due: room }
        : due !== undefined
          ? { bot: 'chronograph', due }
          : undefined;
  return {
    feed: { name: auctionType(auction.procurementMethodType).feed, test: auction.mode === 'test' },
    ...(auction.status === 'draft' && { draft: true }),
    ...(work && { work }),
  };
}
