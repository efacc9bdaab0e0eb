import { putOrganization } from '../functions/store/organizations.ts';

/**
 * The organization directory entries `npm start` (and the integration tests) seed: what the server fills in for an
 * organization sent with only its identifier, contact point and country (interface.md §2.2).
 */
export const DEV_ORGANIZATIONS = [
  {
    name: 'Державне управління справами',
    identifier: {
      scheme: 'UA-EDR',
      id: '00037256',
      uri: 'http://www.dus.gov.ua/',
      legalName: 'Державне управління справами',
    },
    address: {
      countryName: 'Україна',
      postalCode: '01220',
      region: 'м. Київ',
      locality: 'м. Київ',
      streetAddress: 'вул. Банкова, 11, корпус 1',
    },
  },
] as const;

/** Stores the dev entries in the table named by TABLE_NAME. */
export async function seedDevOrganizations(): Promise<void> {
  for (const organization of DEV_ORGANIZATIONS) await putOrganization(structuredClone(organization));
}
