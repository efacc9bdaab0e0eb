import type { DgfInsiderAuction as DgfInsiderAuctionBody } from '../../../schemas/generated/request-types.ts';
import type { AuctionServer, AuctionStatus } from '../../record.ts';

/** dgfInsider has no status of its own for rectification (it runs inside tendering) nor for the enquiry. */
export type DgfInsiderStatus = Exclude<AuctionStatus, 'active.rectification' | 'active.enquiry'>;

/** What the server sets on a dgfInsider auction besides the fields every type has (definition.ts `initialize`). */
type DgfInsiderServer = AuctionServer<'dgfInsider', DgfInsiderStatus> & {
  /** Always zero: the insider auction steps down by `dutchSteps`, not by a minimal step. */
  minimalStep: DgfInsiderAuctionBody['value'];
  auctionParameters: { type: 'insider'; dutchSteps: number };
  eligibilityCriteria: string;
  eligibilityCriteria_en: string;
  eligibilityCriteria_ru: string;
};

/**
 * A dgfInsider auction as stored and shown: the fields its request schema allows (generated from the schema its
 * validator uses) and the server's.
 */
export type DgfInsiderAuction = Omit<DgfInsiderAuctionBody, keyof DgfInsiderServer> & DgfInsiderServer;
