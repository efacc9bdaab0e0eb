import type { Aggregate } from '../kernel/aggregate.ts';
import type { Principal } from '../kernel/principal.ts';
import type { Micros } from '../kernel/time.ts';
import { decideOwnership, type Transfer } from '../transfers/transfer.ts';
import type { Auction } from './auction.ts';
import { assertServedBy } from './reads.ts';
import { definitionFor } from './registry.ts';

/**
 * The ownership decision for an auction of the type the route serves (`POST /auctions/{id}/ownership`): the
 * broker needs the type's create accreditation; only auctions created with a transfer token can change hands.
 */
export function auctionOwnership(
  ctx: { principal: Principal; now: Micros; type: string },
  data: { id: string; transfer: string },
) {
  return (object: Aggregate<Auction>, transfer: Aggregate<Transfer> | undefined, now: Micros) => {
    assertServedBy(ctx.type, object.root);
    const target = {
      level: definitionFor(ctx.type).accreditation,
      mode: object.root.mode,
      location: `/auctions/${object.id}`,
    };
    return decideOwnership(ctx.principal, now, target, object, transfer, data);
  };
}
