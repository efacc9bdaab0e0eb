import { keysOf } from '../../../kernel/objects.ts';
import { UnprocessableError } from '../../../kernel/errors.ts';
import { ID_PATTERN } from '../../../kernel/ids.ts';
import {
  BOUNDS,
  code,
  declare,
  fieldsOf,
  list,
  multilingual,
  name,
  schemaOf,
  serverSet,
  text,
} from '../../../protocol/model.ts';
import {
  addressSchema,
  classificationModel,
  organizationSchema,
  periodSchema,
  procuringEntityModel,
  unitSchema,
} from '../../../protocol/parts.ts';
import { checkWith, type CheckOf } from '../../../kernel/validation.ts';
import type {
  LandleaseAuction as NewLandleaseAuction,
  LandleaseAuctionStored as StoredLandleaseAuction,
} from '../../../schemas/generated/request-types.ts';
import { auctionChecks, type AuctionChecks } from '../../creation.ts';
import { AUCTION_SERVER_FIELDS, auctionPeriodSchema, uahMoneySchema } from '../../fields.ts';
import { validateSchemaProperties } from '../../../schemas/validate-schema-properties.ts';

/** The client-writable fields of a landlease auction (interface.md §2.5, reference-behaviour.md §8). */

const money = uahMoneySchema;

/**
 * An ISO 8601 duration with at least one component (P5Y, P1Y6M, PT12H, P2Y3M10DT12H30M5.5S), spelled out without
 * lookarounds so the ReDoS linter can prove it linear (test/unit/schemas/linear-patterns.test.ts): the date part is
 * one of its first components and what may follow it; the time part likewise.
 */
const SECONDS = '\\d+(?:\\.\\d+)?S';
const TIME = `T(?:\\d+H(?:\\d+M)?(?:${SECONDS})?|\\d+M(?:${SECONDS})?|${SECONDS})`;
const DATE = '(?:\\d+Y(?:\\d+M)?(?:\\d+W)?(?:\\d+D)?|\\d+M(?:\\d+W)?(?:\\d+D)?|\\d+W(?:\\d+D)?|\\d+D)';
const ISO_DURATION = `^P(?:${DATE}(?:${TIME})?|${TIME})$`;

const classification = (scheme: object) => ({
  type: 'object',
  required: ['scheme', 'id', 'description'],
  properties: { ...classificationModel.fields, scheme },
});

/** An item of a landlease auction (GEB models/schemas.py Item on EA ocds.py BaseItem, AC dgfCDB2Item). */
export const itemModel = declare({
  source: 'GEB models/schemas.py Item; EA ocds.py BaseItem',
  fields: {
    id: code(),
    ...multilingual('description', text(1)),
    classification: {
      ...classification({ enum: ['CAV-PS'] }),
      properties: {
        ...classification({}).properties,
        scheme: { enum: ['CAV-PS'] },
        // Land plots only: CAV-PS 06110000-6 … 06129000-2 (upstream CAV_PS_CODES).
        id: {
          type: 'string',
          pattern: '^061[12]\\d{4}-\\d$',
          'x-messages': { pattern: 'Value must be a CAV-PS land plot code (0611xxxx-x or 0612xxxx-x).' },
        },
      },
    },
    additionalClassifications: {
      type: 'array',
      items: classification({ type: 'string', minLength: 1 }),
      allOf: ['kvtspz', 'cadastralNumber'].map((scheme) => ({
        type: 'array',
        contains: { type: 'object', properties: { scheme: { const: scheme } } },
        'x-messages': { contains: 'At least must be two additional classifications (kvtspz, cadastralNumber)' },
      })),
    },
    address: addressSchema,
    unit: unitSchema,
    quantity: { type: 'number', minimum: 0 },
    schema_properties: { type: 'object' },
    location: { type: 'object' },
    contractPeriod: periodSchema,
    relatedLot: code(),
    deliveryAddress: addressSchema,
    deliveryLocation: { type: 'object' },
    deliveryDate: { type: 'object' },
  },
  refused: {
    relatedLot: 'landlease has no lots: the GEB item roles drop it',
    deliveryAddress: 'the GEB item roles drop it',
    deliveryLocation: 'the GEB item roles drop it',
    deliveryDate: 'the GEB item roles drop it',
  },
  required: ['description', 'classification', 'additionalClassifications', 'address', 'unit', 'quantity'],
});
const item = schemaOf(itemModel, { only: fieldsOf(itemModel).filter((f) => !itemModel.refused?.[f]) });

const properties = {
  ...multilingual('title', { type: 'string', minLength: 1 }),
  ...multilingual('description'),
  procurementMethodType: { enum: ['landlease'] },
  procurementMethodDetails: name(),
  submissionMethodDetails: name(),
  mode: { enum: ['test'] },
  status: { type: 'string' },
  tenderAttempts: { type: 'integer', minimum: 1 },
  lotIdentifier: { type: 'string', minLength: 1 },
  value: money(true),
  minimalStep: money(true),
  guarantee: money(false),
  registrationFee: money(false),
  budgetSpent: money(true),
  items: list(item, BOUNDS.items, { minItems: 1 }),
  procuringEntity: schemaOf(procuringEntityModel),
  lotHolder: organizationSchema,
  bankAccount: {
    type: 'object',
    additionalProperties: false,
    required: ['bankName', 'accountIdentification'],
    properties: {
      description: { type: 'string' },
      bankName: { type: 'string', minLength: 1 },
      accountIdentification: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['scheme', 'id'],
          // EA common.py UAEDRAndMFOClassification (a Classification)
          properties: { ...classificationModel.fields, description: classificationModel.fields.description_en },
        },
      },
    },
  },
  contractTerms: {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'leaseTerms'],
    properties: {
      type: { enum: ['lease'] },
      leaseTerms: {
        type: 'object',
        additionalProperties: false,
        required: ['leaseDuration'],
        properties: {
          leaseDuration: {
            type: 'string',
            // ISO 8601 duration with at least one component: P5Y, P1Y6M, P2Y3M10DT12H ...
            pattern: ISO_DURATION,
            'x-messages': { pattern: 'Value must be an ISO 8601 duration, e.g. P5Y or P2Y6M.' },
          },
        },
      },
    },
  },
  auctionPeriod: auctionPeriodSchema,
  merchandisingObject: { type: 'string', pattern: ID_PATTERN },
};

/** Fields a landlease create writes (GEB roles.py `create_role`, less what Agora sets itself). */
export const CREATE_FIELDS = keysOf(properties);

/** Core auction fields the GEB create whitelist leaves out: known, so sent they are dropped. */
const DROPPED = [
  ...['procurementMethodRationale', 'awardCriteriaDetails', 'submissionMethodDetails', 'eligibilityCriteria'].flatMap(
    (f) => [f, `${f}_en`, `${f}_ru`],
  ),
  'hasEnquiries',
  'features',
  'lots',
  'minNumberOfQualifiedBids',
  'auctionParameters',
  'complaints',
  'owner_token',
  'transfer_token',
  'numberOfBidders',
  'dateModified',
];

/** A landlease auction (GEB models/schemas.py Auction on AC models/schema.py Auction). */
export const auctionModel = declare({
  source: 'GEB models/schemas.py Auction; GEB models/roles.py; AC models/schema.py Auction',
  fields: {
    ...Object.fromEntries([...AUCTION_SERVER_FIELDS, ...DROPPED].map((f) => [f, serverSet])),
    ...properties,
  },
  ours: { merchandisingObject: 'the lot an auction is made from (registry flow); GEB had no lots' },
});

/** What a landlease auction must carry, stored or new. */
const REQUIRED = [
  'title',
  'lotIdentifier',
  'tenderAttempts',
  'value',
  'minimalStep',
  'guarantee',
  'registrationFee',
  'procuringEntity',
  'lotHolder',
  'bankAccount',
  'contractTerms',
];

/** Fields of a new auction; `auctionPeriod` is the start date as sent (upstream: required on POST). */
export const newAuctionSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...REQUIRED, 'auctionPeriod'],
  properties,
};
const checkNew: CheckOf<NewLandleaseAuction> = (data) => checkWith('landleaseAuction', newAuctionSchema, data);

/** The same fields as stored (auctionPeriod then holds Kyiv times, later `shouldStartAfter`), for re-checking after a PATCH. */
export const storedAuctionSchema = {
  type: 'object',
  additionalProperties: false,
  required: REQUIRED,
  properties: { ...properties, auctionPeriod: { type: 'object' } },
};
const checkStored: CheckOf<StoredLandleaseAuction> = (data) =>
  checkWith('landleaseAuctionStored', storedAuctionSchema, data);

/** Rules across fields, with upstream texts (sic: "miniamalStep"). */
function checkRules(fields: NewLandleaseAuction | StoredLandleaseAuction): void {
  const { value, minimalStep } = fields;
  if (value && minimalStep && minimalStep.amount >= value.amount) {
    throw UnprocessableError.field('minimalStep', 'miniamalStep.amount should be less than value.amount');
  }
  const errors = (fields.items ?? []).map((i) => validateSchemaProperties(i).errors);
  if (errors.some((e) => e.length)) {
    throw new UnprocessableError({
      location: 'body',
      name: 'items',
      description: errors.map((e) => (e.length ? { schema_properties: e } : {})),
    });
  }
}

const checks: AuctionChecks<NewLandleaseAuction, StoredLandleaseAuction> = auctionChecks(
  { newAuction: checkNew, storedAuction: checkStored },
  [checkRules],
);
export const checkNewAuction: CheckOf<NewLandleaseAuction> = (fields) => checks.checkNewAuction(fields);
export const checkStoredAuction: CheckOf<StoredLandleaseAuction> = (fields) => checks.checkStoredAuction(fields);
