import { UnprocessableError } from '../../../kernel/errors.ts';
import { ID_PATTERN } from '../../../kernel/ids.ts';
import { organizationSchema } from '../../../kernel/organization.ts';
import {
  addressSchema,
  classificationSchema,
  itemClassificationSchema,
  locationSchema,
  multilingual,
  unitSchema,
} from '../../../kernel/structures.ts';
import { checkWith, type Check } from '../../../kernel/validation.ts';
import {
  ASSET_STATUSES,
  decisionsOf,
  itemsOf,
  type AssetTypeDefinition,
  type RelatedProcess,
  type TransitionRule,
} from '../../asset.ts';
import { acceptItemsSchemaProperties, acceptSchemaProperties } from '../../../schemas/accept-schema-properties.ts';
import { bounceType } from './descriptor.ts';
import { COMMON_TRANSITIONS, composeTransitions, requireCancellationDetails } from '../../rules.ts';
import { withItemIds } from '../../../kernel/items.ts';
import { isObject, type JsonObject } from '../../../kernel/objects.ts';

/**
 * assetType `bounce` (`/api/2.4/assets`; reference-behaviour.md §4.3): items with registration details, decisions,
 * an `informationDetails` document added at creation, items edited one by one, deletion after a cancellation document.
 */

export const itemSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['description', 'classification', 'address', 'unit', 'quantity', 'registrationDetails'],
  properties: {
    id: { type: 'string' },
    ...multilingual('description', { type: 'string', minLength: 1 }),
    classification: itemClassificationSchema,
    additionalClassifications: { type: 'array', items: classificationSchema },
    address: addressSchema,
    location: locationSchema,
    unit: unitSchema,
    quantity: { type: 'number', minimum: 0 },
    registrationDetails: {
      type: 'object',
      additionalProperties: false,
      required: ['status'],
      properties: {
        status: { enum: ['unknown', 'registering', 'complete'] },
        registrationID: { type: 'string' },
        registrationDate: { type: 'string', format: 'date-time' },
      },
    },
    /** Land-parcel data, checked by the schemas of functions/domain/schemas after the shape. */
    schema_properties: { type: 'object' },
  },
};

export const decisionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decisionDate', 'decisionID'],
  properties: {
    id: { type: 'string' },
    decisionDate: { type: 'string', format: 'date-time' },
    decisionID: { type: 'string', minLength: 1 },
    decisionOf: { enum: ['asset'] },
    ...multilingual('title'),
  },
};

/** Decisions get server ids, kept when the owner sends them back, and are the asset's own (`decisionOf`). */
function withDecisionIds(decisions: unknown, previous?: JsonObject[]): unknown {
  const ided = withItemIds(decisions, previous);
  return Array.isArray(ided) ? ided.map((d) => (isObject(d) ? { ...d, decisionOf: 'asset' } : d)) : ided;
}

/** A related process (upstream ea_core `RelatedProcess`): the link of an asset to a lot; `type` defaults to `lot`. */
export const relatedProcessSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'relatedProcessID'],
  properties: {
    id: { type: 'string' },
    type: { enum: ['lot'] },
    relatedProcessID: { type: 'string', pattern: ID_PATTERN },
    identifier: { type: 'string' },
  },
};
const checkRelatedProcess: Check = (data) => checkWith('bounceRelatedProcess', relatedProcessSchema, data);

export const assetSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'description', 'assetCustodian'],
  properties: {
    assetType: { enum: ['bounce'] },
    ...multilingual('title', { type: 'string', minLength: 1 }),
    ...multilingual('description', { type: 'string', minLength: 1 }),
    assetCustodian: organizationSchema,
    assetHolder: organizationSchema,
    items: { type: 'array', items: itemSchema },
    decisions: { type: 'array', items: decisionSchema },
    mode: { enum: ['test'] },
    status: { enum: [...ASSET_STATUSES] },
    relatedLot: { type: 'string', pattern: ID_PATTERN },
  },
};
const checkAsset: Check = (data) => checkWith('bounceAsset', assetSchema, data);

const checkItem: Check = (data) => checkWith('bounceItem', itemSchema, data);

const checkDecision: Check = (data) => checkWith('bounceDecision', decisionSchema, data);

const requireItems: TransitionRule = (asset) => {
  if (!itemsOf(asset)?.length) {
    throw UnprocessableError.data(
      'You cannot switch the asset status from draft to pending unless at least one item has been added.',
    );
  }
  return asset;
};

const requireDecisions: TransitionRule = (asset) => {
  if (!decisionsOf(asset)?.length) {
    throw UnprocessableError.data(
      'You cannot switch the asset status from draft to pending unless at least one decision has been added.',
    );
  }
  return asset;
};

export const bounce: AssetTypeDefinition = {
  assetType: bounceType.assetType,
  idPrefix: 'UA-AR-DGF',
  feed: bounceType.feed,
  createLevel: '3',
  ownerFields: [
    'title',
    'title_en',
    'title_ru',
    'description',
    'description_en',
    'description_ru',
    'assetCustodian',
    'assetHolder',
    'items',
    'decisions',
  ],
  organizations: ['assetCustodian', 'assetHolder'],
  accept(fields, previous) {
    const prepared = {
      ...fields,
      ...(fields.items !== undefined && { items: withItemIds(fields.items, itemsOf(previous)) }),
      ...(fields.decisions !== undefined && { decisions: withDecisionIds(fields.decisions, decisionsOf(previous)) }),
    };
    checkAsset(prepared);
    return acceptItemsSchemaProperties(prepared);
  },
  initialDocuments: [
    {
      title: 'Інформація про оприлюднення інформаційного повідомлення',
      url: 'https://prozorro.sale/info/ssp_details',
      documentType: 'informationDetails',
    },
  ],
  transitions: composeTransitions(
    { 'draft->pending': [requireItems, requireDecisions], 'pending->deleted': [requireCancellationDetails] },
    COMMON_TRANSITIONS,
  ),
  items: {
    accept(item) {
      checkItem(item);
      return acceptSchemaProperties(item);
    },
  },
  decisions: {
    accept(decision) {
      const prepared = { ...decision, decisionOf: 'asset' };
      checkDecision(prepared);
      return prepared;
    },
  },
  relatedProcesses: {
    max: 1,
    accept(process) {
      const prepared = { type: 'lot', ...process };
      checkRelatedProcess(prepared);
      // Checked by the schema the type is generated from; the caller has set its id.
      return prepared as RelatedProcess;
    },
  },
};
