import type { DgfInsiderBid } from '../../../schemas/generated/request-types.ts';
import { type AuctionTypeDescriptor, typeRecords } from '../../descriptor.ts';
import type { DgfInsiderAuction } from './record.ts';

/**
 * dgfInsider at /api/2.3: answers in `application/json; charset=UTF-8`; its auctions change hands with the 2.3
 * transfers (upstream insider took the core transferring plugin).
 */
export const dgfInsiderType = {
  procurementMethodType: 'dgfInsider',
  apiBase: '/api/2.3/auctions',
  style: { contentType: 'application/json; charset=UTF-8' },
  transfers: { version: '2.3' },
  prolongations: true,
  feed: 'auctions-dgfInsider',
  participationOnActive: true,
  bidsHidden: ['active.tendering', 'active.auction'],
  records: typeRecords<DgfInsiderAuction, DgfInsiderBid>(),
} as const satisfies AuctionTypeDescriptor;
