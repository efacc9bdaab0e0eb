import { code, declare, list, multilingual, name, schemaOf, text, type JsonSchema } from './model.ts';

/**
 * The parts every object is built from, as the original models declared them. EA is openprocurement.api branch
 * `ea_core_master`, `src/openprocurement/api/models/`; AC is openprocurement.auctions.core `models/schema.py`.
 */

export const identifierModel = declare({
  source: 'EA common.py BaseIdentifier',
  fields: {
    scheme: code(1),
    id: code(1),
    ...multilingual('legalName', name()),
    uri: name(),
  },
  required: ['scheme', 'id'],
});

export const addressModel = declare({
  source: 'EA common.py Address',
  fields: {
    streetAddress: name(),
    locality: name(),
    region: name(),
    postalCode: code(),
    ...multilingual('countryName', name(1)),
  },
  required: ['countryName'],
});

export const contactPointModel = declare({
  source: 'EA common.py ContactPoint',
  fields: {
    ...multilingual('name', name(1)),
    email: { ...name(), format: 'email' },
    telephone: code(),
    faxNumber: code(),
    url: name(),
  },
  required: ['name'],
});

export const identifierSchema = schemaOf(identifierModel);
export const addressSchema = schemaOf(addressModel);
export const contactPointSchema = schemaOf(contactPointModel);

const organizationFields = {
  ...multilingual('name', name(1)),
  identifier: identifierSchema,
  additionalIdentifiers: list(identifierSchema, 20),
  address: addressSchema,
  contactPoint: contactPointSchema,
};

export const organizationModel = declare({
  source: 'EA common.py Organization',
  fields: organizationFields,
  required: ['name', 'identifier', 'address', 'contactPoint'],
});

/** The auction's organizer: an Organization with its `kind`. */
export const procuringEntityModel = declare({
  source: 'AC models/schema.py ProcuringEntity (EA schema.py ProcuringEntity)',
  fields: { ...organizationFields, kind: { enum: ['general', 'special', 'defense', 'other'] } },
  required: ['name', 'identifier', 'address', 'contactPoint'],
});

const additionalContactPoints = list(contactPointSchema, 20);

/** The bounce asset's custodian (EA schema.py AssetCustodian): further contact points, a kind. */
export const assetCustodianModel = declare({
  source: 'EA schema.py AssetCustodian',
  fields: {
    ...organizationFields,
    kind: { enum: ['general', 'special', 'other'] },
    additionalContactPoints,
  },
  required: ['name', 'identifier', 'address', 'contactPoint'],
});

/** The bounce asset's holder (EA schema.py AssetHolder): address and contact point optional. */
export const assetHolderModel = declare({
  source: 'EA schema.py AssetHolder',
  fields: assetCustodianModel.fields,
  required: ['name', 'identifier'],
});

export const organizationSchema = schemaOf(organizationModel);

export const valueModel = declare({
  source: 'EA ocds.py Value',
  fields: {
    amount: { type: 'number', minimum: 0 },
    currency: { type: 'string', minLength: 3, maxLength: 3 },
    valueAddedTaxIncluded: { type: 'boolean' },
  },
  required: ['amount'],
});
/** Money. The server fills `currency` (`UAH`) and `valueAddedTaxIncluded` (`true`) when they are not sent. */
export const valueSchema = schemaOf(valueModel);

export const baseUnitModel = declare({
  source: 'EA common.py BaseUnit',
  fields: { ...multilingual('name', name()), code: code(1) },
  required: ['code'],
});
/** A unit without a price (bounce items: EA schema.py LokiItem `unit = ModelType(BaseUnit)`). */
export const baseUnitSchema = schemaOf(baseUnitModel);

export const unitModel = declare({
  source: 'EA ocds.py Unit',
  fields: { ...baseUnitModel.fields, value: valueSchema },
  required: ['code'],
});
export const unitSchema = schemaOf(unitModel);

export const classificationModel = declare({
  source: 'EA common.py Classification',
  fields: {
    scheme: code(1),
    id: code(1),
    ...multilingual('description', text(1)),
    uri: name(),
  },
  required: ['scheme', 'id', 'description'],
});
/** An entry of `additionalClassifications` (schemes such as `UA-EDR`, `kvtspz`, `cadastralNumber`: any id text). */
export const classificationSchema = schemaOf(classificationModel);
/** `classification` of an item: `id` shaped `<8 digits>-<check digit>` (the digit is not recomputed: the CAV list has errata). */
export const itemClassificationSchema = schemaOf(classificationModel, {
  override: { id: { type: 'string', pattern: '^\\d{8}-\\d$' }, uri: { ...name(), format: 'uri' } },
});

export const locationModel = declare({
  source: 'EA common.py Location',
  fields: {
    latitude: { type: ['number', 'string'], maxLength: 50 },
    longitude: { type: ['number', 'string'], maxLength: 50 },
    elevation: { type: ['number', 'string'], maxLength: 50 },
  },
  required: ['latitude', 'longitude'],
});
export const locationSchema = schemaOf(locationModel);

const dateTime = { type: 'string', format: 'date-time' } as const;
export const periodModel = declare({
  source: 'EA common.py Period',
  fields: { startDate: dateTime, endDate: dateTime },
});
export const periodSchema: JsonSchema = schemaOf(periodModel);

/** Every part, by the name its original field list has in the snapshot (test/unit/protocol). */
export const partModels = {
  Identifier: identifierModel,
  Address: addressModel,
  ContactPoint: contactPointModel,
  Organization: organizationModel,
  ProcuringEntity: procuringEntityModel,
  AssetCustodian: assetCustodianModel,
  AssetHolder: assetHolderModel,
  Value: valueModel,
  BaseUnit: baseUnitModel,
  Unit: unitModel,
  Classification: classificationModel,
  Location: locationModel,
  Period: periodModel,
};
