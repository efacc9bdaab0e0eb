import { accelerator } from '../calendar/periods.ts';
import type { DocumentContext } from '../documents/docservice.ts';
import { newDocument } from '../documents/documents.ts';
import type { AggregateRepository } from '../kernel/aggregate.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';
import { botAuthor } from '../kernel/principal.ts';
import type { RoomAuction, RoomType } from '../room/engine.ts';
import { putChild, working, type Auction, type AuctionParts } from './auction.ts';
import { bidsOf } from './bids.ts';
import { definitionOf } from './registry.ts';
import { roomMarkOf, type RoomMark } from './room-due.ts';

/** What the auction room takes from an auction (to plan its room) and leaves on it (how far the room got). */

/** The fields the room reads of an auction of either type (the Dutch steps are insider's, the minimal step landlease's). */
interface RoomFacts {
  id: string;
  procurementMethodType: string;
  /** Every auction the room plans has its start (it is in `active.auction`). */
  auctionPeriod: { startDate: string };
  value: RoomAuction['value'];
  minimalStep?: { amount: number };
  auctionParameters?: { dutchSteps?: unknown };
  procurementMethodDetails?: string;
  mode?: string;
  title?: string;
  procuringEntity?: { name?: string };
}
/** The fields the room reads of a bid of either type (only landlease bids have a number). */
interface BidderFacts {
  tenderers?: { name?: string }[];
  bidNumber?: unknown;
}

/** The auction as the room plans it: the schedule's facts and the active bids (names revealed only at the end). */
export function roomAuctionOf(a: AuctionParts): RoomAuction {
  const root = a.root as RoomFacts;
  const steps = root.auctionParameters?.dutchSteps;
  return {
    id: root.id,
    procurementMethodType: root.procurementMethodType as RoomType,
    startDate: root.auctionPeriod.startDate,
    value: root.value,
    ...(root.minimalStep && { minimalStep: { amount: root.minimalStep.amount } }),
    ...(typeof steps === 'number' && { dutchSteps: steps }),
    accelerator: accelerator(root.procurementMethodDetails, root.mode),
    ...(root.title && { title: root.title }),
    ...(root.procuringEntity?.name && { procuringEntityName: root.procuringEntity.name }),
    bidders: bidsOf(a.children)
      .filter((b) => b.status === 'active')
      .map((b) => {
        const bid = b as BidderFacts;
        // landlease bids carry their own number: the room names them "Bidder #<bidNumber>" as texas did.
        return {
          bidId: b.id,
          name: bid.tenderers?.[0]?.name ?? '',
          date: b.date,
          ...(typeof bid.bidNumber === 'number' && { bidNumber: bid.bidNumber }),
        };
      }),
  };
}

/** Records how far the room got on the auction (its work index key follows: view.ts). Idempotent. */
export async function markRoom(
  auctions: AggregateRepository<Auction>,
  id: string,
  mark: RoomMark,
  now: Micros,
): Promise<void> {
  await auctions.modify(
    id,
    (current) => {
      if (roomMarkOf(current.internal) === mark || roomMarkOf(current.internal) === 'closed') return undefined;
      return { root: current.root, internal: { ...current.internal, room: mark } };
    },
    { at: now, by: botAuthor('auction') },
  );
}

/**
 * The room's audit document (every stage, every bid it saw) attached to the auction as the original auction module
 * did: a document of the auction system (`author: auction`), its file already in the document service. Once only:
 * an auction that has the room's audit keeps it.
 */
export async function attachRoomAudit(
  auctions: AggregateRepository<Auction>,
  id: string,
  file: { title: string; url: string; hash: string; format: string },
  files: DocumentContext,
  now: Micros,
): Promise<void> {
  await auctions.modify(
    id,
    (current, at) => {
      if (current.internal?.roomAudit) return undefined;
      const w = working(current);
      const def = definitionOf(current.root);
      const { document, child } = newDocument(file, { author: 'auction', documentOf: def.documentOf, now: at, files });
      putChild(w, child);
      return {
        root: { ...w.root, dateModified: formatKyiv(at) },
        put: w.put,
        internal: { ...current.internal, roomAudit: document.id },
        // The server's one record: no broker filling the documents' budget may keep the audit out.
        unbudgeted: true,
      };
    },
    { at: now, by: botAuthor('auction') },
  );
}
