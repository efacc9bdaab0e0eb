import type { JsonRecord } from '../kernel/objects.ts';

/** Field blocks the auction types share: money as they accept it, and the VAT flag the server sets on output. */

/** Money of an auction or bid: amounts in UAH only (upstream text); `valueAddedTaxIncluded` accepted when `vat`. */
export const uahMoneySchema = (vat = true) => ({
  type: 'object',
  additionalProperties: false,
  required: ['amount'],
  properties: {
    amount: { type: 'number', minimum: 0 },
    currency: { enum: ['UAH'], 'x-messages': { enum: 'currency should be only UAH' } },
    ...(vat && { valueAddedTaxIncluded: { type: 'boolean' } }),
  },
});

/**
 * The auction period as an owner asks for it: its start, a date or a date-time (both types' upstream
 * `AuctionAuctionPeriod`); the server sets the end, so one sent is ignored.
 */
export const auctionPeriodSchema = {
  type: 'object',
  required: ['startDate'],
  properties: {
    startDate: {
      type: 'string',
      anyOf: [
        { type: 'string', format: 'date' },
        { type: 'string', format: 'date-time' },
      ],
    },
    endDate: { type: 'string' },
  },
} as const;

/** The VAT flag the server sets on output (interface.md §2.2, §2.5): `valueAddedTaxIncluded: true` on each money field present. */
export function withVat<T extends JsonRecord>(fields: T, moneyFields: readonly string[]): T {
  const out: JsonRecord = { ...fields };
  for (const key of moneyFields) if (out[key]) out[key] = { ...out[key], valueAddedTaxIncluded: true };
  // Only the money fields changed, each still money (with its flag set): the fields keep their type.
  return out as T;
}

/** What the server sets on an auction of any type (each type adds its own): never taken from a client. */
export const AUCTION_SERVER_FIELDS = [
  'id',
  'auctionID',
  'owner',
  'date',
  'dateModified',
  'status',
  'next_check',
  'procurementMethod',
  'submissionMethod',
  'awardCriteria',
  'rectificationPeriod',
  'tenderPeriod',
  'enquiryPeriod',
  'awardPeriod',
  'auctionUrl',
  'numberOfBids',
  'documents',
  'questions',
  'bids',
  'awards',
  'contracts',
  'cancellations',
  'revisions',
  'doc_id',
] as const;
