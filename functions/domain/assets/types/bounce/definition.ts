import { UnprocessableError } from '../../../kernel/errors.ts';
import { ID_PATTERN } from '../../../kernel/ids.ts';
import {
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
  assetCustodianModel,
  assetHolderModel,
  baseUnitSchema,
  classificationSchema,
  itemClassificationSchema,
  locationSchema,
} from '../../../protocol/parts.ts';
import { checkWith, type CheckOf } from '../../../kernel/validation.ts';
import type {
  BounceAsset,
  BounceDecision,
  BounceItem,
  BounceRelatedProcess,
} from '../../../schemas/generated/request-types.ts';
import { ASSET_STATUSES, decisionsOf, itemsOf, type AssetTypeDefinition, type TransitionRule } from '../../asset.ts';
import { acceptItemsSchemaProperties, acceptSchemaProperties } from '../../../schemas/accept-schema-properties.ts';
import { bounceType } from './descriptor.ts';
import { COMMON_TRANSITIONS, composeTransitions, requireCancellationDetails } from '../../rules.ts';
import { withItemIds } from '../../../kernel/items.ts';
import { isObject, omit, type JsonRecord } from '../../../kernel/objects.ts';

/**
 * assetType `bounce` (`/api/2.4/assets`; reference-behaviour.md §4.3): items with registration details, decisions,
 * an `informationDetails` document added at creation, items edited one by one, deletion after a cancellation document.
 */

/** An item of a bounce asset (EA schema.py LokiItem; bounce `Item`). */
export const itemModel = declare({
  source: 'EA schema.py LokiItem (openregistry.assets.bounce models.py Item)',
  fields: {
    id: code(),
    ...multilingual('description', text(1)),
    classification: itemClassificationSchema,
    additionalClassifications: list(classificationSchema, 20),
    address: addressSchema,
    location: locationSchema,
    unit: baseUnitSchema,
    quantity: { type: 'number', minimum: 0 },
    registrationDetails: {
      type: 'object',
      additionalProperties: false,
      required: ['status'],
      properties: {
        status: { enum: ['unknown', 'registering', 'complete'] },
        registrationID: code(),
        registrationDate: { type: 'string', format: 'date-time' },
      },
    },
    /** Land-parcel data, checked by the schemas of functions/domain/schemas after the shape. */
    schema_properties: { type: 'object' },
  },
  required: ['description', 'classification', 'address', 'unit', 'quantity', 'registrationDetails'],
});
export const itemSchema = schemaOf(itemModel);

/** A decision of the asset (EA schema.py Decision; bounce `AssetDecision`). */
export const decisionModel = declare({
  source: 'EA schema.py Decision (openregistry.assets.bounce models.py AssetDecision)',
  fields: {
    id: code(),
    decisionDate: { type: 'string', format: 'date-time' },
    decisionID: code(1),
    decisionOf: { enum: ['asset'] },
    ...multilingual('title', name()),
    relatedItem: code(),
  },
  refused: { relatedItem: 'the bounce asset create and edit roles drop it (openregistry.assets.bounce roles.py)' },
  required: ['decisionDate', 'decisionID'],
});
export const decisionSchema = schemaOf(decisionModel, {
  only: fieldsOf(decisionModel).filter((f) => f !== 'relatedItem'),
});

/** Decisions get server ids, kept when the owner sends them back, and are the asset's own (`decisionOf`). */
function withDecisionIds(decisions: unknown, previous?: JsonRecord[]): unknown {
  const ided = withItemIds(decisions, previous);
  // `relatedItem` is known and dropped (decisionModel.refused).
  return Array.isArray(ided)
    ? ided.map((d) => (isObject(d) ? { ...omit(d, ['relatedItem']), decisionOf: 'asset' } : d))
    : ided;
}

/** A related process (EA schema.py `RelatedProcess`): the link of an asset to a lot; `type` defaults to `lot`. */
export const relatedProcessModel = declare({
  source: 'EA schema.py RelatedProcess',
  fields: {
    id: code(),
    type: { enum: ['lot'] },
    relatedProcessID: { type: 'string', pattern: ID_PATTERN },
    identifier: code(),
    parentID: code(),
  },
  required: ['type', 'relatedProcessID'],
});
export const relatedProcessSchema = schemaOf(relatedProcessModel);
const checkRelatedProcess: CheckOf<BounceRelatedProcess> = (data) =>
  checkWith('bounceRelatedProcess', relatedProcessSchema, data);

const OWNER_FIELDS = [
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
  'sandboxParameters',
] as const;

/** A bounce asset (openregistry.assets.bounce models.py Asset on openregistry.assets.core BaseAsset). */
export const assetModel = declare({
  source: 'openregistry.assets.bounce models.py Asset; openregistry.assets.core models.py BaseAsset',
  fields: {
    id: serverSet,
    assetID: serverSet,
    owner: serverSet,
    owner_token: serverSet,
    transfer_token: serverSet,
    date: serverSet,
    dateModified: serverSet,
    revisions: serverSet,
    documents: serverSet,
    rectificationPeriod: serverSet,
    relatedProcesses: serverSet,
    assetType: { enum: ['bounce'] },
    ...multilingual('title', name(1)),
    ...multilingual('description', text(1)),
    assetCustodian: schemaOf(assetCustodianModel),
    assetHolder: schemaOf(assetHolderModel),
    items: list(itemSchema),
    decisions: list(decisionSchema, 50),
    mode: { enum: ['test'] },
    status: { enum: [...ASSET_STATUSES] },
    relatedLot: { type: 'string', pattern: ID_PATTERN },
    sandboxParameters: name(),
  },
  required: ['title', 'description', 'assetCustodian'],
});
export const assetSchema = schemaOf(assetModel, {
  only: [...OWNER_FIELDS, 'assetType', 'mode', 'status', 'relatedLot'],
});
const checkAsset: CheckOf<BounceAsset> = (data) => checkWith('bounceAsset', assetSchema, data);

const checkItem: CheckOf<BounceItem> = (data) => checkWith('bounceItem', itemSchema, data);

const checkDecision: CheckOf<BounceDecision> = (data) => checkWith('bounceDecision', decisionSchema, data);

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
  model: assetModel,
  ownerFields: OWNER_FIELDS,
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
    accept(process, id) {
      const prepared = { type: 'lot', ...process, id };
      checkRelatedProcess(prepared);
      return prepared;
    },
  },
};
