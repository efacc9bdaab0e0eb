import { ID_PATTERN } from '../../../kernel/ids.ts';
import { isObject, withDefaults } from '../../../kernel/objects.ts';
import { declare, list, multilingual, name, schemaOf, serverSet } from '../../../protocol/model.ts';
import {
  addressSchema,
  classificationSchema,
  itemClassificationSchema,
  locationSchema,
  organizationSchema,
  unitSchema,
  valueSchema,
} from '../../../protocol/parts.ts';
import { checkWith, type CheckOf } from '../../../kernel/validation.ts';
import type { BasicAsset } from '../../../schemas/generated/request-types.ts';
import { ASSET_STATUSES, type AssetTypeDefinition } from '../../asset.ts';
import { acceptSchemaProperties } from '../../../schemas/accept-schema-properties.ts';
import { basicType } from './descriptor.ts';
import { COMMON_TRANSITIONS } from '../../rules.ts';

/**
 * assetType `basic` (`/api/0.1/assets`; interface.md §2.4 last paragraph, reference-behaviour.md §4.2): one
 * classified thing with a value, no items, no documents of its own. Its own `schema_properties` (upstream keeps
 * them on the asset) are checked like an item's.
 */

const OWNER_FIELDS = [
  'title',
  'title_en',
  'title_ru',
  'description',
  'description_en',
  'description_ru',
  'classification',
  'additionalClassifications',
  'value',
  'unit',
  'quantity',
  'address',
  'location',
  'assetCustodian',
  'schema_properties',
] as const;

/** A basic asset (openregistry.assets.basic models.py Asset on openregistry.assets.core BaseAsset). */
export const assetModel = declare({
  source: 'openregistry.assets.basic models.py Asset; openregistry.assets.core models.py BaseAsset',
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
    assetType: { enum: ['basic'] },
    ...multilingual('title', name(1)),
    ...multilingual('description'),
    classification: itemClassificationSchema,
    additionalClassifications: list(classificationSchema, 20),
    value: valueSchema,
    unit: unitSchema,
    quantity: { type: 'number', minimum: 0 },
    address: addressSchema,
    location: locationSchema,
    assetCustodian: organizationSchema,
    schema_properties: { type: 'object' },
    mode: { enum: ['test'] },
    status: { enum: [...ASSET_STATUSES] },
    relatedLot: { type: 'string', pattern: ID_PATTERN },
  },
  ours: { rectificationPeriod: 'the server field every asset here may show; sent back, it is dropped like the others' },
  required: ['title', 'classification', 'assetCustodian'],
});
export const assetSchema = schemaOf(assetModel, {
  only: [...OWNER_FIELDS, 'assetType', 'mode', 'status', 'relatedLot'],
});
const checkAsset: CheckOf<BasicAsset> = (data) => checkWith('basicAsset', assetSchema, data);

/** interface.md §2.2: the server fills `currency` and sets `valueAddedTaxIncluded` when they are not sent. */
const VALUE_DEFAULTS = { currency: 'UAH', valueAddedTaxIncluded: true };

export const basic: AssetTypeDefinition = {
  assetType: basicType.assetType,
  idPrefix: 'UA',
  feed: basicType.feed,
  createLevel: '1',
  model: assetModel,
  ownerFields: OWNER_FIELDS,
  organizations: ['assetCustodian'],
  accept(fields) {
    const prepared = isObject(fields.value) ? { ...fields, value: withDefaults(fields.value, VALUE_DEFAULTS) } : fields;
    checkAsset(prepared);
    return acceptSchemaProperties(prepared);
  },
  initialDocuments: [],
  transitions: COMMON_TRANSITIONS,
};
