import type { AuctionStatus } from './record.ts';

/**
 * What the route table and the reads need of an auction type, kept apart from its definition: functions/routes.ts
 * and the read routes (view.ts, reads.ts) import these few literals, never the definitions with their schemas,
 * validators and calendar.
 */
export interface AuctionTypeDescriptor {
  /** The type's name in the API and the `type` of its routes. */
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
  /** Its contracts can be prolonged (`.../contracts/{id}/prolongations`: upstream contracting v3, dgfInsider). */
  prolongations?: true;
  /** The listing feed of its auctions (drafts are never listed). */
  feed: string;
  /**
   * An active bid has its `participationUrl` at once (dgfInsider, upstream `participation_url`); otherwise only
   * once the auction is scheduled.
   */
  participationOnActive: boolean;
  /** Bids are hidden from everyone but their owner while its auctions are in these statuses. */
  bidsHidden: readonly AuctionStatus[];
  /** Its record types (`typeRecords`), for the compiler only: `Auction` and `Bid` are their unions over the catalog. */
  records: TypeRecords<unknown, unknown>;
}

/**
 * The record types of an auction type: its auction (`types/<type>/record.ts`) and the fields its bid schemas allow.
 * Types only: the value is empty.
 */
export interface TypeRecords<A, B> {
  readonly auction?: A;
  readonly bid?: B;
}
export const typeRecords = <A, B>(): TypeRecords<A, B> => ({});

/** Its auctions carry `access.transfer` and can be taken over. */
export const takesTransfers = (type: AuctionTypeDescriptor): boolean => type.transfers !== undefined;
