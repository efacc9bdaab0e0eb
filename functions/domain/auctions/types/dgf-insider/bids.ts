import { ForbiddenError } from '../../../kernel/errors.ts';
import type { JsonRecord } from '../../../kernel/objects.ts';
import { declare, serverSet, writable } from '../../../protocol/model.ts';
import { requestedStatus } from '../../../kernel/status-graph.ts';
import { organizationSchema } from '../../../protocol/parts.ts';
import type { Micros } from '../../../kernel/time.ts';
import { checkWith, type CheckOf } from '../../../kernel/validation.ts';
import type { DgfInsiderBid, DgfInsiderBidPatch } from '../../../schemas/generated/request-types.ts';
import { instantOf, within } from '../../auction.ts';
import { awardsIn } from '../../awarding.ts';
import type { Bid, BidPolicy, NewBid } from '../../bids.ts';
import type { DgfInsiderAuction, DgfInsiderStatus } from './record.ts';
import { span } from '../../texts.ts';

/**
 * dgfInsider bids (reference-behaviour.md §7.3, upstream INS `views/bid.py`): the create whitelist is `tenderers`,
 * `status`, `qualified`, `eligible`; `qualified` and `eligible` are required and must be true; created `active` unless
 * sent as `draft` (or `invalid`); added only in `active.tendering` within the tender period; a bid may only move to
 * `active`. A `value` sent by the client is dropped, on create and edit alike (insider `Bid.Options.roles`; recorded
 * in `register-2nd-bidder.http`): the Dutch auction needs none, the auction system's results give each bid one.
 */
const BID_STATUSES = ['active', 'draft', 'invalid'];
const mustBeTrue = { type: 'boolean', enum: [true] };

/** The bid's value (AC `Bid.value`): known to the model, written only by the auction system's results. */
const value = {
  type: 'object',
  additionalProperties: false,
  required: ['amount'],
  properties: {
    amount: { type: 'number', minimum: 0 },
    currency: { enum: ['UAH'] },
    valueAddedTaxIncluded: { type: 'boolean' },
  },
};

export const newBidSchema = {
  type: 'object',
  required: ['tenderers', 'qualified', 'eligible'],
  properties: {
    tenderers: { type: 'array', minItems: 1, maxItems: 1, items: organizationSchema },
    status: { enum: BID_STATUSES },
    qualified: mustBeTrue,
    eligible: mustBeTrue,
  },
};
const checkNewBid: CheckOf<DgfInsiderBid> = (data) => checkWith('dgfInsiderBid', newBidSchema, data);

export const bidPatchSchema = {
  type: 'object',
  properties: { tenderers: { type: 'array', minItems: 1, maxItems: 1, items: organizationSchema } },
};
const checkBidPatch: CheckOf<DgfInsiderBidPatch> = (data) => checkWith('dgfInsiderBidPatch', bidPatchSchema, data);

/** A dgfInsider bid (openprocurement.auctions.insider models.py Bid on AC models/schema.py Bid). */
export const bidModel = declare({
  source: 'openprocurement.auctions.insider models.py Bid; AC models/schema.py Bid',
  fields: {
    ...Object.fromEntries(
      [
        'id',
        'date',
        'owner',
        'owner_token',
        'transfer_token',
        'documents',
        'participationUrl',
        'parameters',
        'lotValues',
      ].map((f) => [f, serverSet]),
    ),
    ...newBidSchema.properties,
    value,
  },
});

/** Insider `Bid.Options.roles`: `create` and `edit` (whose `status` is read apart, as a move). */
const CREATE_FIELDS = ['tenderers', 'status', 'qualified', 'eligible'] as const;
const EDIT_FIELDS = ['tenderers'] as const;

function create(data: JsonRecord, auction: DgfInsiderAuction, now: Micros): NewBid {
  if (!within(auction, 'tenderPeriod', now)) {
    throw new ForbiddenError(`Bid can be added only during the tendering period: ${span(auction, 'tenderPeriod')}.`);
  }
  const fields = writable(bidModel, data, CREATE_FIELDS); // known fields dropped, unknown ones refused (422)
  checkNewBid(fields);
  return { ...fields, status: fields.status ?? 'active' };
}

/** The owner's PATCH: `tenderers` may change; the status only to `active` (upstream 403 body/bid). */
function patch(bid: Bid, data: JsonRecord): Bid {
  const status = requestedStatus(data, BID_STATUSES);
  const change = writable(bidModel, data, EDIT_FIELDS);
  checkBidPatch(change);
  if (status !== undefined && status !== bid.status && status !== 'active') {
    throw new ForbiddenError(`Can't update bid to (${status}) status`, 'bid');
  }
  return { ...bid, ...change, ...(status === 'active' && { status: 'active' }) };
}

/**
 * Bid documents (upstream auctions.core `AuctionBidDocumentResource.validate_bid_document`, used by dgf and insider):
 * while tendering, strictly within the tender period; during qualification, only for a bid whose award is
 * pending; never an `auctionProtocol` (that goes to the award). The bid's status does not matter.
 */
const DOCUMENT_STATUSES: readonly DgfInsiderStatus[] = ['active.tendering', 'active.qualification'];

function assertDocumentWritable(
  bid: Bid,
  ctx: Parameters<BidPolicy<DgfInsiderAuction>['assertDocumentWritable']>[1],
): void {
  const { auction, operation, now } = ctx;
  if (!DOCUMENT_STATUSES.includes(auction.status)) {
    throw new ForbiddenError(`Can't ${operation} document in current (${auction.status}) auction status`);
  }
  if (auction.status === 'active.tendering') {
    const start = instantOf(auction, 'tenderPeriod', 'startDate');
    const end = instantOf(auction, 'tenderPeriod', 'endDate');
    if (start === undefined || end === undefined || !(start < now && now < end)) {
      throw new ForbiddenError(
        `Document can be ${operation === 'add' ? 'added' : 'updated'} only during the tendering period: ${span(auction, 'tenderPeriod')}.`,
      );
    }
  }
  if (
    auction.status === 'active.qualification' &&
    !awardsIn(ctx.children).some((a) => a.status === 'pending' && a.bid_id === bid.id)
  ) {
    throw new ForbiddenError(`Can't ${operation} document because award of bid is not in pending state`);
  }
  if (ctx.documentType === 'auctionProtocol')
    throw new ForbiddenError(`Can't ${operation} document with auctionProtocol documentType`);
}

export const insiderBids: BidPolicy<DgfInsiderAuction> = {
  addStatuses: ['active.tendering'],
  changeStatuses: ['active.tendering'],
  create,
  patch,
  assertDocumentWritable,
};
