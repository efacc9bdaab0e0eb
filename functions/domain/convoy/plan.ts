import type { Auction } from '../auctions/auction.ts';
import { AWAITING_CONVOY, LOT_AFTER_AUCTION } from '../auctions/convoy-due.ts';
import type { Lot, LotStatus } from '../lots/lot.ts';

/**
 * What the convoy does next for an auction created from a lot (reference-behaviour.md §6), as a pure decision over
 * what it read. Each step is written as one conditional transaction; the next run decides again from the stored
 * state, so a crash between steps is finished later and a second run at once changes nothing twice.
 */
export type ConvoyStep =
  /** The lot is for sale: it now awaits this auction (the auction's id appended to `auctions`). */
  | { step: 'claim'; lotPatch: { status: LotStatus; auctions: string[] } }
  /** The lot awaits this auction: the auction gets its items and starts, the lot goes to `active.auction`. */
  | { step: 'release' }
  /** The lot cannot be sold by this auction. */
  | { step: 'refuse'; reason: string }
  /** The auction ended: its outcome goes to the lot (when the lot still waits for it), once. */
  | { step: 'report'; lotPatch?: { status: LotStatus } };

const isLast = (lot: Lot, auction: Auction) => lot.auctions?.at(-1) === auction.id;

export function planConvoy(auction: Auction, lot: Lot | undefined, reported: boolean): ConvoyStep | undefined {
  if (auction.status === AWAITING_CONVOY) {
    if (!lot) return { step: 'refuse', reason: `Lot ${auction.merchandisingObject} was not found.` };
    if (lot.status === 'active.salable')
      return {
        step: 'claim',
        lotPatch: { status: 'active.awaiting', auctions: [...(lot.auctions ?? []), auction.id] },
      };
    if (lot.status === 'active.awaiting' && isLast(lot, auction)) return { step: 'release' };
    return {
      step: 'refuse',
      reason: `Lot ${lot.lotID} is ${lot.status}: an auction can be created only from a lot in active.salable status.`,
    };
  }
  const outcome = LOT_AFTER_AUCTION[auction.status];
  if (!outcome || !auction.merchandisingObject || reported) return undefined;
  const waiting = lot?.status === 'active.auction' && isLast(lot, auction);
  return { step: 'report', ...(waiting && { lotPatch: { status: outcome } }) };
}
