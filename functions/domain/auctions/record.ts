/**
 * What every auction record has, whatever its type: the statuses, the periods and the server's own fields. Each type's
 * record (types/<type>/record.ts) builds on this module, and auction.ts joins the records into `Auction`: the records
 * never import auction.ts, so the types form no loop.
 */
/**
 * Every status an auction of any type can be in (each type's definition uses its subset): a new status must be
 * added here, so a typo in a definition's status list or a status change does not compile.
 */
export const AUCTION_STATUSES = [
  'draft',
  'pending.verification',
  'active.rectification',
  'active.tendering',
  'active.enquiry',
  'active.auction',
  'active.qualification',
  'active.awarded',
  'complete',
  'cancelled',
  'unsuccessful',
  'invalid',
] as const;
export type AuctionStatus = (typeof AUCTION_STATUSES)[number];

/** A period the server sets once both its ends are known (rectification, tendering, enquiry). */
export interface Period {
  startDate: string;
  endDate: string;
}

/**
 * The auction period: the planned day (`startDate`, landlease), the time the auction may start after
 * (`shouldStartAfter`), its start once scheduled and its `endDate` once the results are in.
 */
export interface AuctionPeriod {
  startDate?: string;
  shouldStartAfter?: string;
  endDate?: string;
}

/** Qualification: from the first award until one is active (or none is left). */
export interface AwardPeriod {
  startDate: string;
  endDate?: string;
}

/** The periods of an auction, by name: what `within`, `span` and the question rules read. */
export type AuctionPeriods = {
  rectificationPeriod?: Period;
  tenderPeriod?: Period;
  enquiryPeriod?: Period;
  auctionPeriod: AuctionPeriod;
  awardPeriod?: AwardPeriod;
};
export type PeriodName = keyof AuctionPeriods;

/**
 * The server's own fields of an auction of any type (interface.md §2.5): ids, dates, owner, the status (`S`: the
 * type's statuses), the procedure's constants, the periods and what the chronograph and the convoy write. Each
 * type adds its own (types/<type>/record.ts); the client's fields come from the type's request schema.
 */
export type AuctionServer<T extends string, S extends AuctionStatus> = AuctionPeriods & {
  id: string;
  auctionID: string;
  procurementMethodType: T;
  status: S;
  owner: string;
  date: string;
  dateModified: string;
  procurementMethod: 'open';
  submissionMethod: 'electronicAuction';
  awardCriteria: 'highestCost';
  /** Set when the auction is scheduled (`active.auction`). */
  auctionUrl?: string;
  /** The active bids when the enquiry (insider) or tendering ends. */
  numberOfBids?: number;
  /** Why an auction from a lot was refused (`invalid`). */
  statusReason?: string;
  /** When the chronograph must look at the auction next (min of the due times of its timed events). */
  next_check?: string;
};
