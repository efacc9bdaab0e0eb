import type { LandleaseAuction as LandleaseAuctionBody } from '../../../schemas/generated/request-types.ts';
import type { AuctionServer, AuctionStatus } from '../../record.ts';

/** Landlease goes through every auction status (rectification and enquiry have statuses of their own). */
export type LandleaseStatus = AuctionStatus;

/** What the server sets on a landlease auction besides the fields every type has (definition.ts `initialize`). */
type LandleaseServer = AuctionServer<'landlease', LandleaseStatus> & {
  minNumberOfQualifiedBids: number;
  auctionParameters: { type: 'texas' };
};

/**
 * A landlease auction as stored and shown: the fields its request schema allows (generated from the schema its
 * validator uses) and the server's.
 */
export type LandleaseAuction = Omit<LandleaseAuctionBody, keyof LandleaseServer> & LandleaseServer;
