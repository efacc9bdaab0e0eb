import type { TypeExamples } from '../../definition.ts';
import { custodian, tenderer } from '../../example-parties.ts';

/** landlease request bodies' `data` for the OpenAPI document, as the README's 2.5 walkthrough sends them. */
export const examples: TypeExamples = {
  auction: {
    title: 'Оренда земельної ділянки',
    description: 'Право оренди земельної ділянки',
    procurementMethodType: 'landlease',
    status: 'draft',
    tenderAttempts: 1,
    lotIdentifier: 'LL-0001',
    value: { amount: 100000, currency: 'UAH', valueAddedTaxIncluded: true },
    minimalStep: { amount: 1000, currency: 'UAH', valueAddedTaxIncluded: true },
    guarantee: { amount: 10000, currency: 'UAH' },
    registrationFee: { amount: 500, currency: 'UAH' },
    budgetSpent: { amount: 2000, currency: 'UAH' },
    items: [
      {
        description: 'Земельна ділянка для сільськогосподарського виробництва',
        classification: {
          scheme: 'CAV-PS',
          id: '06121000-6',
          description: 'Землі для ведення сільського господарства',
        },
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
      },
    ],
    procuringEntity: custodian,
    lotHolder: { ...custodian, name: 'Власник лоту' },
    bankAccount: {
      description: 'Рахунок для гарантійних внесків',
      bankName: 'АТ КБ ПриватБанк',
      accountIdentification: [{ scheme: 'UA-IBAN', id: 'UA213223130000026007233566001', description: 'IBAN' }],
    },
    contractTerms: { type: 'lease', leaseTerms: { leaseDuration: 'P5Y' } },
    auctionPeriod: { startDate: '2026-12-07' },
  },
  auctionStored: { status: 'active.rectification' },
  bid: { value: { amount: 100000, currency: 'UAH', valueAddedTaxIncluded: true }, tenderers: [tenderer] },
  bidPatch: { status: 'pending' },
};
