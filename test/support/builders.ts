import { randomBytes } from 'node:crypto';

/** Request bodies as a client sends them; override what a test is about. */
export const hex32 = () => randomBytes(16).toString('hex');

export const anOrganization = (overrides: Record<string, unknown> = {}) => ({
  name: 'Державне управлління справами',
  identifier: { scheme: 'UA-EDR', id: '00037256', uri: 'http://www.dus.gov.ua/' },
  address: { countryName: 'Україна', postalCode: '01220', region: 'м. Київ', locality: 'м. Київ', streetAddress: 'вул. Банкова, 11, корпус 1' },
  contactPoint: { name: 'Державне управлління справами', telephone: '0440000000', email: 'info@example.com' },
  ...overrides,
});

export const aLot = (overrides: Record<string, unknown> = {}) => ({
  lotIdentifier: 'Q81318b19827',
  title: 'Тестовий лот',
  description: 'Щось там тестове',
  lotType: 'basic',
  lotCustodian: anOrganization(),
  assets: [hex32()],
  ...overrides,
});

export const aDocument = (overrides: Record<string, unknown> = {}) => ({
  title: 'Notice.pdf',
  url: 'http://docs.example.com/get/0123456789abcdef0123456789abcdef?KeyID=52462340&Signature=abc',
  hash: `md5:${randomBytes(16).toString('hex')}`,
  format: 'application/pdf',
  documentType: 'technicalSpecifications',
  ...overrides,
});
