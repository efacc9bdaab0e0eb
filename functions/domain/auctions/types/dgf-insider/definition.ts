import { accelerator, insiderPeriods, PERIODS_INCORRECT, type Timing } from '../../../calendar/periods.ts';
import { AUCTION_SERVER_FIELDS } from '../../fields.ts';
import { CalendarCoverageError } from '../../../calendar/working-days.ts';
import { ForbiddenError } from '../../../kernel/errors.ts';
import { withItemIds } from '../../../kernel/items.ts';
import { mergePatch, omit, type JsonRecord } from '../../../kernel/objects.ts';
import { formatKyiv, kyivDate, parseInstant, type Micros } from '../../../kernel/time.ts';
import { within } from '../../auction.ts';
import { awardingDeadlines, startAwarding, type AwardingRules } from '../../awarding.ts';
import type { AuctionDefinition, AuctionStamp } from '../../definition.ts';
import { cancellationTakesEffect, NO_BID_CLEARING } from '../../cancellations.ts';
import { withVat as vatOn } from '../../fields.ts';
import { span } from '../../texts.ts';
import { bidPatchSchema, insiderBids, newBidSchema } from './bids.ts';
import { takesTransfers } from '../../descriptor.ts';
import { dgfInsiderType } from './descriptor.ts';
import { insiderEvents } from './events.ts';
import type { DgfInsiderAuction, DgfInsiderStatus } from './record.ts';
import {
  auctionModel,
  checkNewAuction,
  checkStoredAuction,
  CREATE_FIELDS,
  itemModel,
  newAuctionSchema,
  storedAuctionSchema,
} from './schema.ts';
import { assertKnown, checkEdited, withoutRefused, writable } from '../../../protocol/model.ts';

/** `dgfInsider` auctions, served at /api/2.3 (interface.md §2.5, §3.3, §4.3; reference-behaviour.md §7). */

/** Fields the owner may change during rectification (upstream `dgf_auction_roles`); dropped silently after it. */
export const RECTIFICATION_FIELDS = [
  'title',
  'title_en',
  'title_ru',
  'description',
  'description_en',
  'description_ru',
  'dgfDecisionDate',
  'dgfDecisionID',
  'dgfID',
  'guarantee',
  'items',
  'tenderAttempts',
] as const;

/** Everything the server sets: never taken from a client, left out when the client part is re-validated. */
export const SERVER_FIELDS = [
  ...AUCTION_SERVER_FIELDS,
  'minimalStep',
  'eligibilityCriteria',
  'eligibilityCriteria_en',
  'eligibilityCriteria_ru',
  'complaints',
  'lots',
];

/** Upstream DGF_ELIGIBILITY_CRITERIA. */
const ELIGIBILITY_CRITERIA = {
  eligibilityCriteria:
    'Учасником електронного аукціону, предметом продажу на якому є права вимоги за кредитними договорами та договорами забезпечення, не може бути позичальник (боржник відповідно до договорів забезпечення виконання зобов’язань) та/або поручитель (майновий поручитель) за такими кредитними договорами та/або договорами забезпечення.',
  eligibilityCriteria_en:
    'The borrower (the debtor under the security agreements) and/or guarantor (property guarantor) under such credit agreements and/or security agreements may not be a participant in the electronic auction where the rights of claim under credit agreements and security agreements are sold.',
  eligibilityCriteria_ru:
    'Участником электронного аукциона, предметом продажи на котором являются права требования по кредитным договорам и договорам обеспечения, не может быть заемщик (должник в соответствии с договорами обеспечения выполнения обязательств) и/или поручитель (имущественный поручитель) по таким кредитным договорам и/или договорам обеспечения.',
};

/** Upstream DGF_PLATFORM_LEGAL_DETAILS: the first document of every auction, a link without a file. */
const LEGAL_DETAILS = {
  title: 'Перелік та реквізити авторизованих електронних майданчиків',
  title_en: 'Platform Legal Details',
  title_ru: 'Перечень и реквизиты авторизованных электронных площадок',
  documentType: 'x_dgfPlatformLegalDetails',
  url: 'http://torgi.fg.gov.ua/prozorrosale',
};

/**
 * The contract's documents at the originals' last release (openprocurement.auctions.core 1.2.13, f611f2c,
 * plugins/contracting/v3/models.py `Contract.documents`: `dgfDocument` of models/schema.py since d784b7d, whose
 * `documentType` has these choices and no default; the list's validator refuses `x_dgfPlatformLegalDetails`).
 */
export const DGF_CONTRACT_DOCUMENTS = {
  types: [
    ...['auctionNotice', 'awardNotice', 'contractNotice', 'notice', 'biddingDocuments', 'technicalSpecifications'],
    ...['evaluationCriteria', 'clarifications', 'shortlistedFirms', 'riskProvisions', 'billOfQuantity', 'bidders'],
    ...['conflictOfInterest', 'debarments', 'evaluationReports', 'winningBid', 'complaints', 'contractSigned'],
    ...['contractArrangements', 'contractSchedule', 'contractAnnexe', 'contractGuarantees', 'subContract'],
    ...['eligibilityCriteria', 'contractProforma', 'commercialProposal', 'qualificationDocuments'],
    ...['eligibilityDocuments', 'tenderNotice', 'illustration', 'financialLicense', 'virtualDataRoom'],
    ...['auctionProtocol', 'x_dgfPublicAssetCertificate', 'x_presentation', 'x_nda', 'x_dgfAssetFamiliarization'],
    'x_dgfPlatformLegalDetails',
  ],
  refused: { x_dgfPlatformLegalDetails: 'Disallow documents with x_dgfPlatformLegalDetails documentType' },
} as const;

/** Awarding v3: a chain of awards, the auction `active.awarded` once one is active. */
export const AWARDING_V3: AwardingRules = {
  transitions: { pending: ['active', 'unsuccessful'], active: ['unsuccessful'], 'pending.waiting': ['cancelled'] },
  byBidder: { 'pending.waiting': 'cancelled' },
  chain: true,
  awardStatuses: ['active.qualification', 'active.awarded'],
  awardedStatus: 'active.awarded',
  contractStatuses: ['active.awarded'],
  protocolAuthor: 'auction_owner',
  // v3 disqualifies without a document (the v3.1 rejection protocol came later).
  rejectionDocuments: [],
  contractDocuments: DGF_CONTRACT_DOCUMENTS,
};

const TENDERING = 'active.tendering' satisfies DgfInsiderStatus;

const period = (p: { startDate: Micros; endDate: Micros }) => ({
  startDate: formatKyiv(p.startDate),
  endDate: formatKyiv(p.endDate),
});

/**
 * The periods from `now` and the auction day (calendar/periods.ts `insiderPeriods`): enquiry until 20:00 Kyiv the
 * day before, tender until 16:15 on the day, rectification 2 working days, the auction after Kyiv midnight of the
 * day; accelerated in the sandbox. An auction day whose enquiry period would already be over is refused.
 */
function withPeriods<
  F extends Pick<DgfInsiderAuction, 'procurementMethodDetails' | 'mode' | 'submissionMethodDetails'>,
>(auction: F, startDate: string, { now, calendar }: Timing) {
  let periods: ReturnType<typeof insiderPeriods>;
  try {
    const auctionStart = parseInstant(startDate)!;
    periods = insiderPeriods({
      now,
      calendar,
      auctionStartDay: kyivDate(auctionStart),
      auctionStart,
      accelerator: accelerator(auction.procurementMethodDetails, auction.mode),
      quick: /quick/.test(auction.submissionMethodDetails ?? ''),
    });
  } catch (error) {
    if (error instanceof CalendarCoverageError)
      throw new ForbiddenError(`auctionPeriod.startDate is incorrect: ${error.message}`);
    throw error;
  }
  if (periods.enquiryPeriod.endDate <= now) throw new ForbiddenError(PERIODS_INCORRECT);
  return {
    ...auction,
    enquiryPeriod: period(periods.enquiryPeriod),
    tenderPeriod: period(periods.tenderPeriod),
    rectificationPeriod: period(periods.rectificationPeriod),
    auctionPeriod: { shouldStartAfter: formatKyiv(periods.auctionShouldStartAfter) },
  };
}

/** The VAT flag the server sets on output (interface.md §2.2). */
const withVat = <F extends Pick<DgfInsiderAuction, 'value' | 'minimalStep'>>(fields: F): F =>
  vatOn(fields, ['value', 'minimalStep']);

/**
 * A changed auction whose client part (all but the server's fields) passed the stored schema: its server part is
 * the stored auction's own, so it is a dgfInsider record again.
 */
function assertRecord(candidate: JsonRecord): asserts candidate is DgfInsiderAuction {
  checkStoredAuction(omit(candidate, [...SERVER_FIELDS, 'procurementMethodType', 'auctionParameters']));
}

/** Items without the fields their model knows and drops; anything not a list is left for the schema to refuse. */
const withoutRefusedItems = (items: unknown): unknown =>
  Array.isArray(items) ? items.map((i) => withoutRefused(itemModel, i)) : items;

function initialize(sent: JsonRecord, timing: Timing): Omit<DgfInsiderAuction, AuctionStamp> {
  // Known fields the create role does not write are dropped (server fields among them), unknown ones refused.
  const fields = writable(auctionModel, sent, CREATE_FIELDS);
  if (fields.items !== undefined) fields.items = withoutRefusedItems(fields.items);
  checkNewAuction(fields);
  const { startDate } = fields.auctionPeriod;
  return withVat(
    withPeriods(
      {
        ...fields,
        ...(fields.items && { items: withItemIds(fields.items) }),
        procurementMethodType: 'dgfInsider',
        procurementMethod: 'open',
        submissionMethod: 'electronicAuction',
        awardCriteria: 'highestCost',
        minimalStep: { amount: 0, currency: fields.value.currency ?? 'UAH' },
        auctionParameters: { type: 'insider', dutchSteps: 80, ...fields.auctionParameters },
        ...ELIGIBILITY_CRITERIA,
        status: TENDERING,
      },
      startDate,
      timing,
    ),
  );
}

/** Upstream: a body `status` is honoured only as `draft` (two-phase commit); any other is ignored. */
const createStatus = (sent: unknown): DgfInsiderStatus => (sent === 'draft' ? 'draft' : TENDERING);

/**
 * The owner's PATCH (upstream `validate_patch_auction_data`, `dgf_auction_roles`):
 * - draft: only `{status: "active.tendering"}` (the two-phase commit; periods as set at creation), else 403;
 * - active.tendering: during rectification the rectification fields, the rest dropped; after it everything is
 *   dropped silently (items: 403);
 * - any later status: 403.
 */
function ownerPatch(auction: DgfInsiderAuction, data: JsonRecord, { now }: Timing): DgfInsiderAuction {
  assertKnown(auctionModel, data);
  if (auction.status === 'draft') {
    // Upstream computes the periods at creation (`initialize`) and the commit only moves the status.
    if (data.status === TENDERING) return { ...auction, status: TENDERING };
    if (data.status === 'draft' && Object.keys(data).length === 1) return auction;
    throw new ForbiddenError("Can't update auction in current (draft) status");
  }
  if (auction.status !== TENDERING) {
    throw new ForbiddenError(`Can't update auction in current (${auction.status}) status`);
  }
  if (!within(auction, 'rectificationPeriod', now)) {
    if ('items' in data) {
      throw new ForbiddenError(
        `Item can be edited only during the rectification period of the auction: ${span(auction, 'rectificationPeriod')}.`,
      );
    }
    return auction; // edits after rectification are ignored, as upstream
  }
  const patch = writable(auctionModel, data, RECTIFICATION_FIELDS);
  // Unchecked until `assertRecord`: the patch is the client's.
  const merged = mergePatch<JsonRecord>(auction, omit(patch, ['items']));
  // A malformed `items` (or item) is kept as sent so the schema check below answers 422.
  if (patch.items !== undefined) merged.items = withoutRefusedItems(withItemIds(patch.items, auction.items));
  checkEdited(assertRecord, merged, patch);
  // Held to its schema in the fields the PATCH wrote; the others are as stored (checkEdited).
  return withVat(merged as DgfInsiderAuction);
}

/**
 * From a lot: the items made from its assets, and tendering. As upstream, the periods stay those computed at
 * creation (the convoy acts within minutes of it); the release only moves the status.
 */
function releaseFromLot(auction: DgfInsiderAuction, items: JsonRecord[]): DgfInsiderAuction {
  const next: JsonRecord = { ...auction, items: withItemIds(items), status: TENDERING };
  assertRecord(next);
  return next;
}

export const dgfInsider: AuctionDefinition<'dgfInsider'> = {
  procurementMethodType: dgfInsiderType.procurementMethodType,
  accreditation: '1',
  transferToken: takesTransfers(dgfInsiderType),
  initialize,
  ownerPatch,
  events: [...insiderEvents, awardingDeadlines(AWARDING_V3), cancellationTakesEffect(NO_BID_CLEARING)],
  statuses: {
    documents: ['draft', TENDERING],
    questions: [TENDERING],
    auction: 'active.auction',
  },
  questionPeriod: 'enquiryPeriod',
  questionsAbout: ['tender', 'item', 'lot'],
  bids: insiderBids,
  onResults: (w, timing) => startAwarding(w, timing, AWARDING_V3),
  createStatus,
  serverDocuments: () => [LEGAL_DETAILS],
  documentOf: 'tender',
  bidDocumentOf: 'tender',
  questionRefusal: (auction, verb) =>
    verb === 'add'
      ? 'Can add question only in enquiryPeriod'
      : `Can't update question in current (${auction.status}) auction status`,
  answerWithinQuestionPeriod: false,
  awarding: AWARDING_V3,
  releaseFromLot,
  schemas: {
    auction: newAuctionSchema,
    auctionStored: storedAuctionSchema,
    bid: newBidSchema,
    bidPatch: bidPatchSchema,
  },
};
