import { keysOf } from '../../../kernel/objects.ts';
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
import { addressSchema, classificationSchema, procuringEntityModel, unitSchema } from '../../../protocol/parts.ts';
import { checkWith, type CheckOf } from '../../../kernel/validation.ts';
import type {
  DgfInsiderAuction as NewDgfInsiderAuction,
  DgfInsiderAuctionStored as StoredDgfInsiderAuction,
} from '../../../schemas/generated/request-types.ts';
import { auctionChecks, type AuctionChecks } from '../../creation.ts';
import { AUCTION_SERVER_FIELDS, auctionPeriodSchema, uahMoneySchema } from '../../fields.ts';

/** The client-writable fields of a dgfInsider auction (interface.md §2.5, reference-behaviour.md §7.2). */

const money = uahMoneySchema(true);

const classification = classificationSchema;

/** An item of a dgfInsider auction (AC models/schema.py dgfItem, on EA schema.py Item). */
export const itemModel = declare({
  source: 'AC models/schema.py dgfItem; EA schema.py Item',
  fields: {
    id: code(),
    ...multilingual('description', text(1)),
    classification,
    additionalClassifications: list(classification, 20),
    address: addressSchema,
    unit: unitSchema,
    quantity: { type: 'number', minimum: 0 },
    deliveryDate: { type: 'object' },
    deliveryLocation: { type: 'object' },
    location: { type: 'object' },
    schema_properties: { type: 'object' },
    deliveryAddress: addressSchema,
    relatedLot: code(),
  },
  refused: {
    deliveryAddress: 'known to EA Item, not to dgfItem: dropped',
    relatedLot: 'lots are not available in dgfInsider (AC validate_not_available): dropped',
  },
  required: ['description', 'classification'],
});
const item = schemaOf(itemModel, { only: fieldsOf(itemModel).filter((f) => !itemModel.refused?.[f]) });

const dateOnly = { type: 'string', format: 'date' };

const properties = {
  ...multilingual('title', { type: 'string', minLength: 1 }),
  ...multilingual('description'),
  procurementMethodType: { enum: ['dgfInsider'] },
  procurementMethodDetails: name(),
  ...multilingual('submissionMethodDetails', name()),
  ...multilingual('procurementMethodRationale'),
  ...multilingual('awardCriteriaDetails'),
  hasEnquiries: { type: 'boolean' },
  // Features are not available in dgfInsider (AC validate_not_available): only an empty list passes.
  features: { type: 'array', maxItems: 0 },
  mode: { enum: ['test'] },
  tenderAttempts: { type: 'integer', minimum: 1, maximum: 10 },
  dgfID: { type: 'string', minLength: 1 },
  dgfDecisionID: { type: 'string', minLength: 1 },
  dgfDecisionDate: dateOnly,
  value: money,
  guarantee: money,
  items: list(item, BOUNDS.items, { minItems: 1 }),
  procuringEntity: schemaOf(procuringEntityModel),
  auctionParameters: {
    type: 'object',
    additionalProperties: false,
    properties: {
      type: { enum: ['insider'] },
      // Upstream DUTCH_STEPS choices: 10…90, 99, 100.
      dutchSteps: { type: 'integer', anyOf: [{ minimum: 10, maximum: 90 }, { enum: [99, 100] }] },
    },
  },
  auctionPeriod: auctionPeriodSchema,
  merchandisingObject: code(),
};

/** Fields a dgfInsider create writes (AC roles.py `create_role`, less what Agora sets itself). */
export const CREATE_FIELDS = keysOf(properties);

/**
 * A dgfInsider auction (openprocurement.auctions.insider models.py DGFInsider on AC models/schema.py Auction): the
 * fields a client writes and every other field the model knows, which a client may send and the server drops.
 */
export const auctionModel = declare({
  source: 'openprocurement.auctions.insider models.py DGFInsider; AC models/schema.py Auction',
  fields: {
    ...Object.fromEntries(
      [
        ...AUCTION_SERVER_FIELDS,
        'minimalStep',
        'eligibilityCriteria',
        'eligibilityCriteria_en',
        'eligibilityCriteria_ru',
        'complaints',
        'lots',
        'numberOfBidders',
        'suspended',
        'owner_token',
        'transfer_token',
        'dateModified',
      ].map((f) => [f, serverSet]),
    ),
    ...properties,
  },
});

const REQUIRED = ['title', 'value', 'items', 'procuringEntity', 'dgfID', 'dgfDecisionID', 'dgfDecisionDate'];

/** A new auction's fields; `auctionPeriod.startDate` is required on create (upstream). */
export const newAuctionSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...REQUIRED.filter((f) => f !== 'items'), 'auctionPeriod'],
  properties,
  // An auction from a lot gets its items from the lot's assets.
  if: { properties: { merchandisingObject: { type: 'string' } }, required: ['merchandisingObject'] },
  else: { properties: { items: { type: 'array' } }, required: ['items'] },
};
const checkNew: CheckOf<NewDgfInsiderAuction> = (data) => checkWith('dgfInsiderAuction', newAuctionSchema, data);

/** The same fields as stored (auctionPeriod then holds `shouldStartAfter`), re-checked after an owner's PATCH. */
export const storedAuctionSchema = {
  type: 'object',
  additionalProperties: false,
  required: REQUIRED,
  properties: { ...properties, auctionPeriod: { type: 'object' } },
};
const checkStored: CheckOf<StoredDgfInsiderAuction> = (data) =>
  checkWith('dgfInsiderAuctionStored', storedAuctionSchema, data);

/**
 * `procurementMethodDetails` is accepted with or without `mode: "test"` (upstream answered 201 both ways; the
 * interface's own create sends it without `mode`); its accelerator takes effect only in test mode (calendar/periods.ts).
 */
const checks: AuctionChecks<NewDgfInsiderAuction, StoredDgfInsiderAuction> = auctionChecks(
  { newAuction: checkNew, storedAuction: checkStored },
  [],
);
export const checkNewAuction: CheckOf<NewDgfInsiderAuction> = (fields) => checks.checkNewAuction(fields);
export const checkStoredAuction: CheckOf<StoredDgfInsiderAuction> = (fields) => checks.checkStoredAuction(fields);
