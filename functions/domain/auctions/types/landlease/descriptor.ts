import type { LandleaseBid, LandleaseBidPatch } from '../../../schemas/generated/request-types.ts';
import { type AuctionTypeDescriptor, typeRecords } from '../../descriptor.ts';
import type { LandleaseAuction } from './record.ts';

/** landlease at /api/2.5: `Location` as a path; auctions taken over with 2.5 transfers. */
export const landleaseType = {
  procurementMethodType: 'landlease',
  apiBase: '/api/2.5/auctions',
  style: { location: 'path' },
  transfers: { version: '2.5' },
  feed: 'auctions-landlease',
  participationOnActive: false,
  bidsHidden: ['active.tendering', 'active.enquiry', 'active.auction'],
  records: typeRecords<LandleaseAuction, LandleaseBid & LandleaseBidPatch>(),
} as const satisfies AuctionTypeDescriptor;
