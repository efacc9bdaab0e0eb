import { ForbiddenError, UnprocessableError } from '../../../kernel/errors.ts';
import { pick, type JsonRecord } from '../../../kernel/objects.ts';
import { declare, serverSet, writable } from '../../../protocol/model.ts';
import { organizationSchema } from '../../../protocol/parts.ts';
import type { Micros } from '../../../kernel/time.ts';
import { checkWith, type CheckOf } from '../../../kernel/validation.ts';
import type { LandleaseBid, LandleaseBidPatch } from '../../../schemas/generated/request-types.ts';
import type { DocumentRecord } from '../../../documents/documents.ts';
import { within } from '../../auction.ts';
import type { Bid, BidPolicy, NewBid } from '../../bids.ts';
import type { LandleaseAuction, LandleaseStatus } from './record.ts';
import { span } from '../../texts.ts';

/**
 * Landlease bids (reference-behaviour.md §8, upstream GEB texts): created `draft`; `pending` only while tendering
 * (`qualified` reads false); `active` within the enquiry period with an `eligibilityDocuments` document,
 * `qualified: true` and a unique `bidNumber`, sent in one PATCH or several. The value is the auction's (texas).
 */
export const newBidSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['tenderers'],
  properties: {
    tenderers: { type: 'array', minItems: 1, maxItems: 1, items: organizationSchema },
    value: {
      type: 'object',
      additionalProperties: false,
      required: ['amount'],
      properties: {
        amount: { type: 'number' },
        currency: { type: 'string' },
        valueAddedTaxIncluded: { type: 'boolean' },
      },
    },
    eligible: { type: 'boolean' },
  },
};
const checkNewBid: CheckOf<LandleaseBid> = (data) => checkWith('landleaseBid', newBidSchema, data);

/** A landlease bid (GEB models/schemas.py Bid); `eligible` is ours. */
export const bidModel = declare({
  source: 'GEB models/schemas.py Bid; GEB models/roles.py bid roles',
  fields: {
    ...Object.fromEntries(
      ['id', 'date', 'owner', 'owner_token', 'documents', 'participationUrl', 'qualified', 'bidNumber', 'status'].map(
        (f) => [f, serverSet],
      ),
    ),
    ...newBidSchema.properties,
  },
  ours: { eligible: 'accepted from clients of earlier releases; GEB bids have no eligible flag' },
});

export const bidPatchSchema = {
  type: 'object',
  properties: {
    tenderers: newBidSchema.properties.tenderers,
    value: newBidSchema.properties.value,
    status: { enum: ['draft', 'pending', 'active'] },
    qualified: { type: 'boolean' },
    bidNumber: { type: 'integer', minimum: 1 },
  },
};
const checkBidPatch: CheckOf<LandleaseBidPatch> = (data) => checkWith('landleaseBidPatch', bidPatchSchema, data);

/** What a bid change sees besides the bid: the auction, the other bids, the bid's documents, the time. */
interface BidContext {
  auction: LandleaseAuction;
  others: Bid[];
  documents: DocumentRecord[];
  now: Micros;
}

function create(data: JsonRecord, auction: LandleaseAuction, now: Micros): NewBid {
  if (!within(auction, 'tenderPeriod', now)) {
    throw new ForbiddenError(`Bid can be added only during the tendering period: ${span(auction, 'tenderPeriod')}.`);
  }
  if (data.status !== undefined && data.status !== 'draft')
    throw new ForbiddenError('You can create only in draft status', 'status');
  // GEB `bid_create_role`: `qualified` and the rest sent on create are dropped; it is set at activation.
  const fields = writable(bidModel, data, ['tenderers', 'value', 'eligible']);
  checkNewBid(fields);
  assertAuctionValue(fields.value, auction);
  return { ...fields, value: { ...auction.value }, status: 'draft' };
}

/** A landlease bid offers the auction's value (texas): any other is refused with the GEB text. */
function assertAuctionValue(sent: { amount: number; currency?: string } | undefined, auction: LandleaseAuction): void {
  const value = auction.value;
  if (sent && (sent.amount !== value.amount || (sent.currency ?? value.currency) !== value.currency)) {
    throw UnprocessableError.field('value', 'value of bid should be equal to value of auction');
  }
}

/** GEB `bid_edit_draft_role` takes only the status; `bid_edit_pending_role`/`_active_role` also these. */
const EDITS = ['tenderers', 'value'] as const;

function activate(next: Bid, ctx: BidContext): Bid {
  if (!within(ctx.auction, 'enquiryPeriod', ctx.now))
    throw new ForbiddenError('Can`t activate bid, can only in enquiry Period Auction status');
  if (!ctx.documents.some((d) => d.documentType === 'eligibilityDocuments')) {
    throw new ForbiddenError('Can`t activate bid, need document of documentType: eligibilityDocuments');
  }
  if (next.qualified !== true) throw new ForbiddenError('Can`t activate bid, qualified must be True');
  if (next.bidNumber === undefined) throw new ForbiddenError('Can`t activate bid, you must add the bidNumber');
  return { ...next, status: 'active' };
}

function patch(bid: Bid, data: JsonRecord, ctx: BidContext): Bid {
  const change = writable(bidModel, data, ['status', 'qualified', 'bidNumber', ...EDITS]);
  checkBidPatch(change);
  assertAuctionValue(change.value, ctx.auction);
  const edits = bid.status === 'pending' || bid.status === 'active' ? pick(change, EDITS) : {};
  if (edits.value) edits.value = { ...ctx.auction.value };
  bid = { ...bid, ...edits };
  switch (bid.status) {
    case 'draft':
      if (change.status === undefined || change.status === 'draft') return bid;
      if (change.status !== 'pending')
        throw new ForbiddenError("Can't update bid, in draft status are only valid change status to pending");
      if (ctx.auction.status !== 'active.tendering')
        throw new ForbiddenError('Can`t activate bid, can only in active.tendering Auction status');
      return { ...bid, status: 'pending', qualified: false };
    case 'pending': {
      if (change.status !== undefined && change.status !== 'pending' && change.status !== 'active') {
        throw new ForbiddenError('Can`t update bid status. You can only switch from pending to active.');
      }
      const { status: _, ...edits } = change;
      const next: Bid = { ...bid, ...edits };
      if (next.bidNumber !== undefined && ctx.others.some((o) => o.bidNumber === next.bidNumber)) {
        throw UnprocessableError.field('bidNumber', 'bidNumber must be unique');
      }
      return change.status === 'active' ? activate(next, ctx) : next;
    }
    case 'active':
      if (change.status !== undefined && change.status !== 'active')
        throw new ForbiddenError("Can't update bid status, in bid active status");
      return bid;
    default:
      throw new ForbiddenError(`Can't update bid in current (${bid.status}) status`);
  }
}

const CHANGE_STATUSES: readonly LandleaseStatus[] = ['active.tendering', 'active.enquiry'];

/** Bid documents (upstream GEB): while bids may change, and only to a bid not yet active (eligibility documents). */
function assertDocumentWritable(
  bid: Bid,
  { auction, operation }: Parameters<BidPolicy<LandleaseAuction>['assertDocumentWritable']>[1],
): void {
  if (!CHANGE_STATUSES.includes(auction.status))
    throw new ForbiddenError(`Can't ${operation} document in current (${auction.status}) auction status`);
  if (bid.status !== 'draft' && bid.status !== 'pending')
    throw new ForbiddenError(`Can't ${operation} document in current (${bid.status}) bid status`);
}

export const landleaseBids: BidPolicy<LandleaseAuction> = {
  addStatuses: ['active.tendering'],
  changeStatuses: CHANGE_STATUSES,
  create,
  patch,
  assertDocumentWritable,
};
