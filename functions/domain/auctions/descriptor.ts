import type { AuctionStatus } from './auction.ts';

/**
 * What the route table and the reads need of an auction type, kept apart from its definition: functions/routes.ts
 * and the read routes (view.ts, reads.ts) import these few literals, never the definitions with their schemas,
 * validators and calendar.
 */
export interface AuctionTypeDescriptor {
  /** The type's name in the API and the `variant` of its routes. */
  procurementMethodType: string;
  /** Where its auctions are served, e.g. `/api/2.5/auctions`. */
  apiBase: string;
  /** What differs between API versions: `Location` form (url or path) and the response media type. */
  style: { location?: 'url' | 'path'; contentType?: string };
  /**
   * Its auctions can be taken over (`access.transfer` on creation, `POST .../ownership`), with the transfers of
   * this API version (`2.5`). Absent: no transfer token, no ownership route.
   */
  transfers?: { version: string };
  /** The listing feed of its auctions (drafts are never listed). */
  feed: string;
  /** Bids are hidden from everyone but their owner while its auctions are in these statuses. */
  bidsHidden: readonly AuctionStatus[];
}

/** Its auctions carry `access.transfer` and can be taken over. */
export const takesTransfers = (type: AuctionTypeDescriptor): boolean => type.transfers !== undefined;
