import type { AuctionTypeDescriptor } from '../../descriptor.ts';

/** dgfInsider at /api/2.3: answers in `application/json; charset=UTF-8`; no transfers. */
export const dgfInsiderType = {
  procurementMethodType: 'dgfInsider',
  apiBase: '/api/2.3/auctions',
  style: { contentType: 'application/json; charset=UTF-8' },
} as const satisfies AuctionTypeDescriptor;
