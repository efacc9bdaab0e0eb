import { addressSchema, organizationSchema } from '../../../kernel/organization.ts';
import { multilingual } from '../../../kernel/structures.ts';
import { checkWith, type CheckOf } from '../../../kernel/validation.ts';
import type {
  DgfInsiderAuction as NewDgfInsiderAuction,
  DgfInsiderAuctionStored as StoredDgfInsiderAuction,
} from '../../../schemas/generated/request-types.ts';
import { auctionChecks, type AuctionChecks } from '../../creation.ts';
import { uahMoneySchema } from '../../fields.ts';

/** The client-writable fields of a dgfInsider auction (interface.md §2.5, reference-behaviour.md §7.2). */

const money = uahMoneySchema(true);

const classification = {
  type: 'object',
  required: ['scheme', 'id', 'description'],
  properties: {
    scheme: { type: 'string', minLength: 1 },
    id: { type: 'string', minLength: 1 },
    description: { type: 'string', minLength: 1 },
    description_en: { type: 'string' },
    description_ru: { type: 'string' },
    uri: { type: 'string' },
  },
};

const item = {
  type: 'object',
  additionalProperties: false,
  required: ['description', 'classification'],
  properties: {
    id: { type: 'string' },
    ...multilingual('description', { type: 'string', minLength: 1 }),
    classification,
    additionalClassifications: { type: 'array', items: classification },
    address: addressSchema,
    unit: {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string', minLength: 1 }, name: { type: 'string' } },
    },
    quantity: { type: 'number', minimum: 0 },
    deliveryDate: { type: 'object' },
    deliveryLocation: { type: 'object' },
    location: { type: 'object' },
  },
};

const dateOnly = { type: 'string', format: 'date' };

const properties = {
  ...multilingual('title', { type: 'string', minLength: 1 }),
  ...multilingual('description'),
  procurementMethodType: { enum: ['dgfInsider'] },
  procurementMethodDetails: { type: 'string' },
  submissionMethodDetails: { type: 'string' },
  mode: { enum: ['test'] },
  tenderAttempts: { type: 'integer', minimum: 1, maximum: 10 },
  dgfID: { type: 'string', minLength: 1 },
  dgfDecisionID: { type: 'string', minLength: 1 },
  dgfDecisionDate: dateOnly,
  value: money,
  guarantee: money,
  items: { type: 'array', minItems: 1, items: item },
  procuringEntity: organizationSchema,
  auctionParameters: {
    type: 'object',
    additionalProperties: false,
    properties: {
      type: { enum: ['insider'] },
      // Upstream DUTCH_STEPS choices: 10…90, 99, 100.
      dutchSteps: { type: 'integer', anyOf: [{ minimum: 10, maximum: 90 }, { enum: [99, 100] }] },
    },
  },
  auctionPeriod: {
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
    },
  },
  merchandisingObject: { type: 'string' },
};

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
