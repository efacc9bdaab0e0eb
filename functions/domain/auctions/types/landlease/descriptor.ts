import type { AuctionTypeDescriptor } from '../../descriptor.ts';

/** landlease at /api/2.5: `Location` as a path; auctions taken over with 2.5 transfers. */
export const landleaseType = {
  procurementMethodType: 'landlease',
  apiBase: '/api/2.5/auctions',
  style: { location: 'path' },
  transfers: { version: '2.5' },
  feed: 'auctions-landlease',
  bidsHidden: ['active.tendering', 'active.enquiry', 'active.auction'],
} as const satisfies AuctionTypeDescriptor;
