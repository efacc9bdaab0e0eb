import { accelerator, kyivMidnight, landleasePeriods, type Timing } from '../../../calendar/periods.ts';
import { AUCTION_SERVER_FIELDS, auctionPeriodSchema } from '../../fields.ts';
import { CalendarCoverageError } from '../../../calendar/working-days.ts';
import { ForbiddenError } from '../../../kernel/errors.ts';
import { withItemIds } from '../../../kernel/items.ts';
import { mergePatch, omit, pick, type JsonRecord } from '../../../kernel/objects.ts';
import { requestedStatus } from '../../../kernel/status-graph.ts';
import { formatKyiv, kyivDate, parseInstant, type Micros } from '../../../kernel/time.ts';
import { checkWith, type CheckOf } from '../../../kernel/validation.ts';
import type { LandleaseAuctionPeriod } from '../../../schemas/generated/request-types.ts';
import { putWithin, within, type Working } from '../../auction.ts';
import { bidChild, bidRecords } from '../../bids.ts';
import type { AuctionDefinition, AuctionStamp } from '../../definition.ts';
import { awardingDeadlines, SINGLE_AWARD, startAwarding } from '../../awarding.ts';
import { cancellationTakesEffect, type CancellationRules } from '../../cancellations.ts';
import { draftOnlyCreate } from '../../creation.ts';
import { withVat as vatOn } from '../../fields.ts';
import { questionsOnlyIn } from '../../questions.ts';
import { span } from '../../texts.ts';
import { bidPatchSchema, landleaseBids, newBidSchema } from './bids.ts';
import { takesTransfers } from '../../descriptor.ts';
import { landleaseType } from './descriptor.ts';
import { landleaseEvents } from './events.ts';
import type { LandleaseAuction, LandleaseStatus } from './record.ts';
import { assertKnown, checkEdited, withoutRefused, writable } from '../../../protocol/model.ts';
import {
  auctionModel,
  CREATE_FIELDS,
  itemModel,
  checkNewAuction,
  checkStoredAuction,
  newAuctionSchema,
  storedAuctionSchema,
} from './schema.ts';

/** `landlease` auctions, served at /api/2.5 (interface.md §2.5, §3.4; reference-behaviour.md §8). */

/**
 * Fields the owner may change during rectification (GEB models/roles.py `auction_edit_rectification_role`); a known
 * field outside them is dropped silently, an unknown one is 422.
 */
export const RECTIFICATION_FIELDS = [
  'title',
  'title_en',
  'title_ru',
  'description',
  'description_en',
  'description_ru',
  'tenderAttempts',
  'lotIdentifier',
  'value',
  'minimalStep',
  'guarantee',
  'items',
  'budgetSpent',
  'registrationFee',
  'procuringEntity',
  'lotHolder',
  'bankAccount',
  'contractTerms',
] as const;

/** In draft the owner may also move the auction day and commit the draft. */
const DRAFT_FIELDS = [...RECTIFICATION_FIELDS, 'auctionPeriod', 'status'] as const;

/** Everything the server sets: never taken from a client, left out when the client part is re-validated. */
export const SERVER_FIELDS = [...AUCTION_SERVER_FIELDS, 'minNumberOfQualifiedBids', 'auctionParameters'];

const PATCHABLE_STATUSES: readonly LandleaseStatus[] = ['draft', 'active.rectification'];

/** What an owner's PATCH of a draft may send of the auction period (the rest of a draft's fields are read-only). */
export const draftAuctionPeriodSchema = { type: 'object', properties: { auctionPeriod: auctionPeriodSchema } };
const checkAuctionPeriod: CheckOf<LandleaseAuctionPeriod> = (data) =>
  checkWith('landleaseAuctionPeriod', draftAuctionPeriodSchema, data);

/**
 * `auctionPeriod.startDate` sent as a date (or date-time) is the auction day: a draft shows it as Kyiv midnight of
 * that day with its offset (upstream GEB: a date-only start becomes `T00:00:00+02:00`); the phase commit adds
 * `shouldStartAfter` beside it.
 */
const auctionPeriodFrom = (startDate: string) => ({
  startDate: formatKyiv(kyivMidnight(kyivDate(parseInstant(startDate)!))),
});

/** The VAT flags the server sets on output (interface.md §2.5). */
const withVat = <F extends Pick<LandleaseAuction, 'value' | 'minimalStep' | 'budgetSpent'>>(fields: F): F =>
  vatOn(fields, ['value', 'minimalStep', 'budgetSpent']);

/**
 * A changed auction whose client part (all but the server's fields) passed the stored schema: its server part is
 * the stored auction's own, so it is a landlease record again.
 */
function assertRecord(candidate: JsonRecord): asserts candidate is LandleaseAuction {
  checkStoredAuction(omit(candidate, SERVER_FIELDS));
}

/** Items without the fields their model knows and drops; anything not a list is left for the schema to refuse. */
const withoutRefusedItems = (items: unknown): unknown =>
  Array.isArray(items) ? items.map((i) => withoutRefused(itemModel, i)) : items;

function initialize(sent: JsonRecord, _timing: Timing): Omit<LandleaseAuction, AuctionStamp> {
  // Known fields the create role does not write are dropped (server fields among them), unknown ones refused.
  const fields = writable(auctionModel, sent, CREATE_FIELDS);
  if (fields.items !== undefined) fields.items = withoutRefusedItems(fields.items);
  checkNewAuction(fields);
  return withVat({
    ...fields,
    ...(fields.items && { items: withItemIds(fields.items) }),
    procurementMethodType: 'landlease',
    procurementMethod: 'open',
    submissionMethod: 'electronicAuction',
    awardCriteria: 'highestCost',
    minNumberOfQualifiedBids: 2,
    auctionParameters: { type: 'texas' },
    auctionPeriod: auctionPeriodFrom(fields.auctionPeriod.startDate),
    status: 'draft',
  });
}

/**
 * The phase commit draft → active.rectification: periods from now and the auction day (calendar/periods.ts),
 * accelerated in the sandbox; a day too close (or past the calendar's coverage) is refused with 403.
 */
function phaseCommit(auction: LandleaseAuction, { now, calendar }: Timing): LandleaseAuction {
  if (!auction.items?.length) throw new ForbiddenError("Can't switch to (active.rectification) without items");
  // Drafts stored before the day was kept as `startDate` hold it in `shouldStartAfter`.
  const planned = auction.auctionPeriod.startDate ?? auction.auctionPeriod.shouldStartAfter ?? '';
  const day = kyivDate(parseInstant(planned)!);
  let periods: ReturnType<typeof landleasePeriods>;
  try {
    periods = landleasePeriods({
      now,
      calendar,
      auctionStartDay: day,
      accelerator: accelerator(auction.procurementMethodDetails, auction.mode),
    });
  } catch (error) {
    if (error instanceof CalendarCoverageError)
      throw new ForbiddenError(`auctionPeriod.startDate is incorrect: ${error.message}`);
    throw error;
  }
  const period = (p: { startDate: Micros; endDate: Micros }) => ({
    startDate: formatKyiv(p.startDate),
    endDate: formatKyiv(p.endDate),
  });
  return {
    ...auction,
    status: 'active.rectification',
    rectificationPeriod: period(periods.rectificationPeriod),
    tenderPeriod: period(periods.tenderPeriod),
    enquiryPeriod: period(periods.enquiryPeriod),
    // The planned start stays visible next to the time the auction may start after (accelerated in the sandbox).
    auctionPeriod: {
      startDate: formatKyiv(kyivMidnight(day)),
      shouldStartAfter: formatKyiv(periods.auctionShouldStartAfter),
    },
  };
}

function ownerPatch(auction: LandleaseAuction, data: JsonRecord, timing: Timing): LandleaseAuction {
  assertKnown(auctionModel, data);
  if (!PATCHABLE_STATUSES.includes(auction.status))
    throw new ForbiddenError(`Can't patch auction in current (${auction.status}) auction status`);
  let patch: JsonRecord;
  let period: LandleaseAuctionPeriod['auctionPeriod'];
  if (auction.status === 'draft') {
    patch = writable(auctionModel, data, DRAFT_FIELDS);
    const status = requestedStatus(patch, ['draft', 'active.rectification']);
    if (status !== undefined && status !== 'draft' && status !== 'active.rectification') {
      throw new ForbiddenError(`Can't switch to (${status}) only to status 'active.rectification'`);
    }
    const sent = pick(patch, ['auctionPeriod']);
    checkAuctionPeriod(sent);
    period = sent.auctionPeriod;
  } else {
    if (!within(auction, 'rectificationPeriod', timing.now)) {
      throw new ForbiddenError(
        `Auction can be edited only during the rectification period: ${span(auction, 'rectificationPeriod')}.`,
      );
    }
    patch = writable(auctionModel, data, RECTIFICATION_FIELDS);
    if ('items' in patch && !(Array.isArray(patch.items) && patch.items.length))
      throw new ForbiddenError('Can`t change items, at least there should be one');
  }
  // Unchecked until `assertRecord`: the patch is the client's.
  const merged = mergePatch<JsonRecord>(auction, omit(patch, ['status', 'auctionPeriod', 'items']));
  // A malformed `items` (or item) is kept as sent so the schema check below answers 422.
  if (patch.items !== undefined) merged.items = withoutRefusedItems(withItemIds(patch.items, auction.items));
  if (period) merged.auctionPeriod = auctionPeriodFrom(period.startDate);
  checkEdited(assertRecord, merged, patch);
  // Held to its schema in the fields the PATCH wrote; the others are as stored (checkEdited).
  const next = withVat(merged as LandleaseAuction);
  return patch.status === 'active.rectification' ? phaseCommit(next, timing) : next;
}

/** From a lot: the items made from its assets, then the phase commit, its periods counted from now. */
function releaseFromLot(auction: LandleaseAuction, items: JsonRecord[], timing: Timing): LandleaseAuction {
  const next: JsonRecord = { ...auction, items: withItemIds(items) };
  assertRecord(next);
  return phaseCommit(next, timing);
}

/**
 * The results in (GEB managers/changers/actions/auctions.py `ModuleAuctionBringsResultAction.act`): every bid still at
 * the auction's starting value made no raise in the room (texas reports a bidder who never bid at that value) and is
 * made `invalid`; then the best active bid is awarded, or with none left the auction is `unsuccessful`. So a round 1
 * that drew no raise ends with no winner, as the room shows it.
 */
function onResults(w: Working, timing: Timing): void {
  const starting = w.root.value?.amount;
  for (const { bid, child } of bidRecords(w.children)) {
    if (bid.status !== 'active' || bid.value?.amount !== starting) continue;
    if (!putWithin(w, bidChild({ ...bid, status: 'invalid' }, child.internal?.tokenHash))) return;
  }
  startAwarding(w, timing, SINGLE_AWARD);
}

const QUESTION_STATUSES: readonly LandleaseStatus[] = ['active.rectification', 'active.tendering', 'active.enquiry'];

/** Upstream GEB AUCTION_STATUSES_FOR_CLEAN_BIDS_IN_CANCELLATION. */
const LANDLEASE_CANCELLATION: CancellationRules = {
  clearBidsIn: ['active.tendering', 'active.enquiry', 'active.auction'],
};

export const landlease: AuctionDefinition<'landlease'> = {
  procurementMethodType: landleaseType.procurementMethodType,
  accreditation: '1',
  transferToken: takesTransfers(landleaseType),
  createStatus: draftOnlyCreate,
  initialize,
  serverDocuments: () => [],
  ownerPatch,
  events: [...landleaseEvents, awardingDeadlines(SINGLE_AWARD), cancellationTakesEffect(LANDLEASE_CANCELLATION)],
  statuses: {
    documents: ['draft', 'active.rectification', 'active.tendering', 'active.enquiry'],
    questions: QUESTION_STATUSES,
    auction: 'active.auction',
  },
  documentOf: 'auction',
  bidDocumentOf: 'bid',
  questionPeriod: 'enquiryPeriod',
  questionRefusal: questionsOnlyIn(QUESTION_STATUSES),
  answerWithinQuestionPeriod: true,
  bids: landleaseBids,
  onResults,
  awarding: SINGLE_AWARD,
  releaseFromLot,
  schemas: {
    auction: newAuctionSchema,
    auctionStored: storedAuctionSchema,
    bid: newBidSchema,
    bidPatch: bidPatchSchema,
    auctionPeriod: draftAuctionPeriodSchema,
  },
};
