/** JSON Schema of an Organization (interface.md §2.2), shared by every registry. */
export const identifierSchema = {
  type: 'object',
  required: ['scheme', 'id'],
  properties: {
    scheme: { type: 'string', minLength: 1 },
    id: { type: 'string', minLength: 1 },
    uri: { type: 'string' },
    legalName: { type: 'string' },
    legalName_en: { type: 'string' },
    legalName_ru: { type: 'string' },
  },
} as const;

export const addressSchema = {
  type: 'object',
  required: ['countryName'],
  properties: {
    countryName: { type: 'string', minLength: 1 },
    countryName_en: { type: 'string' },
    countryName_ru: { type: 'string' },
    postalCode: { type: 'string' },
    region: { type: 'string' },
    streetAddress: { type: 'string' },
    locality: { type: 'string' },
  },
} as const;

export const contactPointSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    name_en: { type: 'string' },
    name_ru: { type: 'string' },
    telephone: { type: 'string' },
    email: { type: 'string', format: 'email' },
    faxNumber: { type: 'string' },
    url: { type: 'string' },
  },
} as const;

/** A full organization: every part required (the asset registry may fill some of them from its directory first). */
export const organizationSchema = {
  type: 'object',
  required: ['name', 'identifier', 'address', 'contactPoint'],
  properties: {
    name: { type: 'string', minLength: 1 },
    name_en: { type: 'string' },
    name_ru: { type: 'string' },
    identifier: identifierSchema,
    additionalIdentifiers: { type: 'array', items: identifierSchema },
    address: addressSchema,
    contactPoint: contactPointSchema,
    kind: { type: 'string' },
  },
} as const;
