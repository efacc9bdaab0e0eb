import { ID_PATTERN } from '../../../kernel/ids.ts';
import { isObject, withDefaults } from '../../../kernel/objects.ts';
import { organizationSchema } from '../../../kernel/organization.ts';
import {
  addressSchema,
  classificationSchema,
  itemClassificationSchema,
  locationSchema,
  multilingual,
  unitSchema,
  valueSchema,
} from '../../../kernel/structures.ts';
import { checkWith, type Check } from '../../../kernel/validation.ts';
import { ASSET_STATUSES, type AssetTypeDefinition } from '../../asset.ts';
import { acceptSchemaProperties } from '../../../schemas/accept-schema-properties.ts';
import { basicType } from './descriptor.ts';
import { COMMON_TRANSITIONS } from '../../rules.ts';

/**
 * assetType `basic` (`/api/0.1/assets`; interface.md §2.4 last paragraph, reference-behaviour.md §4.2): one
 * classified thing with a value, no items, no documents of its own. Its own `schema_properties` (upstream keeps
 * them on the asset) are checked like an item's.
 */

export const assetSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'classification', 'assetCustodian'],
  properties: {
    assetType: { enum: ['basic'] },
    ...multilingual('title', { type: 'string', minLength: 1 }),
    ...multilingual('description'),
    classification: itemClassificationSchema,
    additionalClassifications: { type: 'array', items: classificationSchema },
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
};
const checkAsset: Check = (data) => checkWith('basicAsset', assetSchema, data);

/** interface.md §2.2: the server fills `currency` and sets `valueAddedTaxIncluded` when they are not sent. */
const VALUE_DEFAULTS = { currency: 'UAH', valueAddedTaxIncluded: true };

export const basic: AssetTypeDefinition = {
  assetType: basicType.assetType,
  idPrefix: 'UA',
  feed: basicType.feed,
  createLevel: '1',
  ownerFields: [
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
  ],
  organizations: ['assetCustodian'],
  accept(fields) {
    const prepared = isObject(fields.value) ? { ...fields, value: withDefaults(fields.value, VALUE_DEFAULTS) } : fields;
    checkAsset(prepared);
    return acceptSchemaProperties(prepared);
  },
  initialDocuments: [],
  transitions: COMMON_TRANSITIONS,
};
