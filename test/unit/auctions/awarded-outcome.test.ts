import { describe, expect, it } from 'vitest';
import type { Auction } from '../../../functions/domain/auctions/auction.ts';
import { convoyDue } from '../../../functions/domain/auctions/convoy-due.ts';
import { planConvoy } from '../../../functions/domain/convoy/plan.ts';
import type { Lot } from '../../../functions/domain/lots/lot.ts';

const auction = (status: string): Auction =>
  ({
    id: 'a'.repeat(32),
    auctionID: 'UA-EA-2026-01-01-000001',
    procurementMethodType: 'landlease',
    status,
    owner: 'broker',
    date: '',
    dateModified: '2026-01-01T10:00:00.000000+02:00',
    merchandisingObject: 'b'.repeat(32),
  }) as Auction;
const lot = {
  id: 'b'.repeat(32),
  lotID: 'UA-LR-DGF-2026-01-01-000001',
  status: 'active.auction',
  auctions: ['a'.repeat(32)],
} as unknown as Lot;

describe('an awarded auction and its lot (convoy)', () => {
  it('is no outcome yet: the lot waits while the auction is active.awarded', () => {
    expect(planConvoy(auction('active.awarded'), lot, false)).toBeUndefined();
    expect(convoyDue(auction('active.awarded'))).toBeUndefined();
  });

  it('reports the sale once the contract completes it', () => {
    expect(planConvoy(auction('complete'), lot, false)).toEqual({
      step: 'report',
      lotPatch: { status: 'pending.sold' },
    });
    expect(convoyDue(auction('complete'))).toBeDefined();
  });
});
