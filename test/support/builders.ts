import { randomBytes } from 'node:crypto';
import { fileUrl, newFileKey } from '../../functions/domain/documents/docservice.ts';
import { devKeyring } from '../../functions/store/docservice-keys.ts';
import { localRuntime } from '../../functions/platform/config.ts';

/** Request bodies as a client sends them; override what a test is about. */
export const hex32 = () => randomBytes(16).toString('hex');

export const anOrganization = (overrides: Record<string, unknown> = {}) => ({
  name: 'Державне управлління справами',
  identifier: { scheme: 'UA-EDR', id: '00037256', uri: 'http://www.dus.gov.ua/' },
  address: {
    countryName: 'Україна',
    postalCode: '01220',
    region: 'м. Київ',
    locality: 'м. Київ',
    streetAddress: 'вул. Банкова, 11, корпус 1',
  },
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

/**
 * A signed file URL of the running service's document service (signed with the dev key, as `npm start` does) for a
 * file never uploaded: what a client gets from `POST /api/docservice/register`.
 */
export const aFileUrl = (hash: string) =>
  fileUrl(devKeyring(), localRuntime()?.docserviceUrl ?? 'http://127.0.0.1/api/docservice', newFileKey(), hash);

export const aDocument = (overrides: Record<string, unknown> = {}) => {
  const hash = typeof overrides.hash === 'string' ? overrides.hash : `md5:${randomBytes(16).toString('hex')}`;
  return {
    title: 'Notice.pdf',
    url: aFileUrl(hash),
    hash,
    format: 'application/pdf',
    documentType: 'technicalSpecifications',
    ...overrides,
  };
};

/** A landlease item: a CAV-PS land plot with the kvtspz and cadastralNumber classifications. */
export const aLandItem = (overrides: Record<string, unknown> = {}) => ({
  description: 'Земельна ділянка для сільськогосподарського виробництва',
  classification: { scheme: 'CAV-PS', id: '06121000-6', description: 'Землі для ведення сільського господарства' },
  additionalClassifications: [
    { scheme: 'kvtspz', id: '01.01', description: 'Для ведення товарного сільськогосподарського виробництва' },
    { scheme: 'cadastralNumber', id: '1234567890:12:123:1234', description: 'Кадастровий номер' },
  ],
  address: {
    countryName: 'Україна',
    postalCode: '79000',
    region: 'Львівська область',
    locality: 'м. Львів',
    streetAddress: 'вул. Зелена, 1',
  },
  unit: { code: 'HAR', name: 'гектар' },
  quantity: 12.5,
  ...overrides,
});

const uah = (amount: number) => ({ amount, currency: 'UAH' });

/** A landlease auction (API 2.5) as a broker sends it; `auctionDay` is `YYYY-MM-DD`. */
export const aLandleaseAuction = (auctionDay: string, overrides: Record<string, unknown> = {}) => ({
  title: 'Оренда земельної ділянки',
  description: 'Право оренди земельної ділянки',
  procurementMethodType: 'landlease',
  status: 'draft',
  tenderAttempts: 1,
  lotIdentifier: 'LL-0001',
  value: { ...uah(100000), valueAddedTaxIncluded: true },
  minimalStep: { ...uah(1000), valueAddedTaxIncluded: true },
  guarantee: uah(10000),
  registrationFee: uah(500),
  budgetSpent: uah(2000),
  items: [aLandItem()],
  procuringEntity: anOrganization(),
  lotHolder: anOrganization({ name: 'Власник лоту' }),
  bankAccount: {
    description: 'Рахунок для гарантійних внесків',
    bankName: 'АТ КБ ПриватБанк',
    accountIdentification: [{ scheme: 'UA-IBAN', id: 'UA213223130000026007233566001', description: 'IBAN' }],
  },
  contractTerms: { type: 'lease', leaseTerms: { leaseDuration: 'P5Y' } },
  auctionPeriod: { startDate: auctionDay },
  ...overrides,
});

/** A bid as a bidder registers it. */
export const aBid = (overrides: Record<string, unknown> = {}) => ({
  status: 'draft',
  qualified: true,
  value: { amount: 100000, currency: 'UAH', valueAddedTaxIncluded: true },
  tenderers: [anOrganization({ name: 'ТОВ Учасник', identifier: { scheme: 'UA-EDR', id: hex32().slice(0, 8) } })],
  ...overrides,
});

/** A question as a bidder asks it. */
export const aQuestion = (overrides: Record<string, unknown> = {}) => ({
  title: 'Уточнення щодо ділянки',
  description: 'Чи є на ділянці обтяження?',
  author: anOrganization({ name: 'ТОВ Питання' }),
  ...overrides,
});

/** A dgfInsider auction (API 2.3) as a broker sends it; `auctionDay` is `YYYY-MM-DD`. */
export const anInsiderAuction = (auctionDay: string, overrides: Record<string, unknown> = {}) => ({
  title: 'Права вимоги за кредитними договорами',
  description: 'Лот банку, що ліквідується',
  procurementMethodType: 'dgfInsider',
  tenderAttempts: 1,
  dgfID: 'N-0000000000',
  dgfDecisionID: '0101/17',
  dgfDecisionDate: '2017-01-01',
  value: { amount: 100000, currency: 'UAH', valueAddedTaxIncluded: true },
  guarantee: { amount: 700, currency: 'UAH' },
  items: [
    {
      description: 'Права вимоги за кредитним договором',
      classification: { scheme: 'CAV', id: '07000000-9', description: 'Права вимоги' },
      unit: { code: '44617100-9', name: 'item' },
      quantity: 1,
      address: {
        countryName: 'Україна',
        postalCode: '79000',
        region: 'Львівська область',
        locality: 'м. Львів',
        streetAddress: 'вул. Зелена, 1',
      },
    },
  ],
  procuringEntity: anOrganization({ kind: 'general' }),
  auctionPeriod: { startDate: auctionDay },
  ...overrides,
});

/** A dgfInsider bid: `qualified` and `eligible` are required and true; no value (Dutch auction). */
export const anInsiderBid = (overrides: Record<string, unknown> = {}) => ({
  qualified: true,
  eligible: true,
  tenderers: [anOrganization({ name: 'ТОВ Інсайдер', identifier: { scheme: 'UA-EDR', id: hex32().slice(0, 8) } })],
  ...overrides,
});
