import { accelerator } from '../calendar/periods.ts';
import type { AggregateRepository } from '../kernel/aggregate.ts';
import type { JsonObject } from '../kernel/objects.ts';
import type { RoomAuction, RoomType } from '../room/engine.ts';
import type { Auction, AuctionParts } from './auction.ts';
import { bidsOf } from './bids.ts';
import { roomMarkOf, type RoomMark } from './room-due.ts';

/** What the auction room takes from an auction (to plan its room) and leaves on it (how far the room got). */

/** The auction as the room plans it: the schedule's facts and the active bids (names revealed only at the end). */
export function roomAuctionOf(a: AuctionParts): RoomAuction {
  const root = a.root as unknown as JsonObject;
  const steps = root.auctionParameters?.dutchSteps;
  return {
    id: root.id,
    procurementMethodType: root.procurementMethodType as RoomType,
    startDate: root.auctionPeriod?.startDate,
    value: root.value,
    ...(root.minimalStep && { minimalStep: { amount: root.minimalStep.amount } }),
    ...(typeof steps === 'number' && { dutchSteps: steps }),
    accelerator: accelerator(root.procurementMethodDetails, root.mode),
    ...(root.title && { title: root.title }),
    ...(root.procuringEntity?.name && { procuringEntityName: root.procuringEntity.name }),
    bidders: bidsOf(a.children)
      .filter((b) => b.status === 'active')
      .map((b) => {
        const bid = b as unknown as JsonObject;
        return { bidId: b.id, name: bid.tenderers?.[0]?.name ?? '', date: b.date };
      }),
  };
}

/** Records how far the room got on the auction (its work index key follows: view.ts). Idempotent. */
export async function markRoom(auctions: AggregateRepository<Auction>, id: string, mark: RoomMark): Promise<void> {
  await auctions.modify(id, (current) => {
    if (roomMarkOf(current.internal) === mark || roomMarkOf(current.internal) === 'closed') return undefined;
    return { root: current.root, internal: { ...current.internal, room: mark } };
  });
}
