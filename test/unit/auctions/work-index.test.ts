import { describe, expect, it } from 'vitest';
import type { Auction } from '../../../functions/domain/auctions/auction.ts';
import { auctionIndexing } from '../../../functions/domain/auctions/view.ts';
import { parseInstant } from '../../../functions/domain/kernel/time.ts';

/** An insider auction just scheduled: in active.auction since `date`, its next_check the planned end, hours later. */
const scheduled = {
  id: 'a'.repeat(32),
  procurementMethodType: 'dgfInsider',
  status: 'active.auction',
  date: '2026-03-30T10:00:00+03:00',
  dateModified: '2026-03-30T10:00:00+03:00',
  next_check: '2026-03-30T18:00:00+03:00',
} as unknown as Auction;

describe('the work index of an auction', () => {
  it('gives a scheduled auction to the room first, though its next_check is pending, then to the chronograph', () => {
    expect(auctionIndexing(scheduled).work).toEqual({ bot: 'room', due: parseInstant(scheduled.date!) });
    expect(auctionIndexing(scheduled, { room: 'planned' }).work).toEqual({
      bot: 'chronograph',
      due: parseInstant(scheduled.next_check!),
    });
  });

  it('gives the chronograph an event due before the room has work, and the room a room left behind', () => {
    const overdue = { ...scheduled, next_check: '2026-03-30T09:00:00+03:00' } as Auction;
    expect(auctionIndexing(overdue).work?.bot).toBe('chronograph');
    const cancelled = { ...scheduled, status: 'cancelled', next_check: undefined } as unknown as Auction;
    expect(auctionIndexing(cancelled, { room: 'planned' }).work?.bot).toBe('room');
    expect(auctionIndexing(cancelled, { room: 'closed' }).work).toBeUndefined();
  });
});
