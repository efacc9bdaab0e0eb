/**
 * The parties of the OpenAPI request examples (functions/openapi/examples.ts and each type's `examples.ts`), so every
 * example of the document names the same organizations.
 */
export const custodian = {
  name: 'Custodian',
  identifier: { scheme: 'UA-EDR', id: '00037256' },
  address: { countryName: 'Україна' },
  contactPoint: { name: 'Contact' },
};
export const tenderer = {
  name: 'ТОВ broker',
  identifier: { scheme: 'UA-EDR', id: '12345676' },
  address: { countryName: 'Україна' },
  contactPoint: { name: 'broker' },
};
