/**
 * Request bodies' `data` as the README's walkthroughs send them (a sale, an asset's life, the document service), so
 * the reference page and generated clients show real values instead of `"string"`. Keyed by the schema a route names
 * (`doc.request`), or `<METHOD> <schema>` where a PATCH sends something else than a create. The OpenAPI lint checks
 * each against its schema.
 */
const custodian = {
  name: 'Custodian',
  identifier: { scheme: 'UA-EDR', id: '00037256' },
  address: { countryName: 'Україна' },
  contactPoint: { name: 'Contact' },
};
const document = {
  title: 'protocol.txt',
  format: 'text/plain',
  hash: 'md5:0f343b0931126a20f133d67c2b018a3b',
  url: 'http://127.0.0.1:6543/api/docservice/get/0f343b0931126a20f133d67c2b018a3b?KeyID=1f2e3d4c&Signature=c2lnbmF0dXJl',
  documentType: 'auctionProtocol',
};
const tenderer = {
  name: 'ТОВ broker',
  identifier: { scheme: 'UA-EDR', id: '12345676' },
  address: { countryName: 'Україна' },
  contactPoint: { name: 'broker' },
};

export const EXAMPLES: Readonly<Record<string, unknown>> = {
  lot: {
    lotIdentifier: 'Q81318b19827',
    title: 'Нежитлові приміщення',
    lotType: 'basic',
    assets: ['0123456789abcdef0123456789abcdef', 'fedcba9876543210fedcba9876543210'],
    lotCustodian: custodian,
  },
  'PATCH lot': { status: 'pending' },
  'asset.basic': {
    assetType: 'basic',
    title: 'Нежитлове приміщення 1',
    classification: { scheme: 'CAV', id: '04000000-8', description: 'Нерухоме майно' },
    value: { amount: 100000, currency: 'UAH' },
    unit: { code: 'H87' },
    quantity: 1,
    address: { countryName: 'Україна' },
    assetCustodian: {
      name: 'Державне управління справами',
      identifier: { scheme: 'UA-EDR', id: '00037256' },
      address: { countryName: 'Україна' },
      contactPoint: { name: 'Державне управління справами' },
    },
  },
  'PATCH asset.basic': { status: 'pending' },
  'asset.bounce': {
    assetType: 'bounce',
    title: 'Земля для космодрому',
    description: 'Опис землі для космодрому',
    assetCustodian: {
      name: 'Державне управління справами',
      identifier: { scheme: 'UA-EDR', id: '00037256' },
      address: { countryName: 'Україна' },
      contactPoint: { name: 'Державне управління справами', telephone: '0440000000' },
    },
    items: [
      {
        description: 'Земельна ділянка',
        quantity: 5.0001,
        unit: { code: 'MTK' },
        classification: { scheme: 'CAV-PS', id: '06121000-6', description: 'Земельні ділянки' },
        address: { countryName: 'Україна' },
        registrationDetails: { status: 'unknown' },
      },
    ],
    decisions: [{ decisionDate: '2026-11-20T10:00:00+02:00', decisionID: '1111-4' }],
  },
  'PATCH asset.bounce': { status: 'pending' },
  'item.bounce': { quantity: 42 },
  'auction.dgfInsider': {
    procurementMethodType: 'dgfInsider',
    merchandisingObject: '0123456789abcdef0123456789abcdef',
    title: 'Нежитлові приміщення',
    mode: 'test',
    procurementMethodDetails: 'quick, accelerator=1440',
    dgfID: 'N-1',
    dgfDecisionID: '0101/17',
    dgfDecisionDate: '2017-01-01',
    value: { amount: 200000, currency: 'UAH' },
    procuringEntity: custodian,
    auctionPeriod: { startDate: '2026-12-07' },
  },
  'auction.landlease.stored': { status: 'active.rectification' },
  'auction.dgfInsider.stored': { title: 'Нежитлові приміщення (уточнено)' },
  'bid.dgfInsider': { qualified: true, eligible: true, tenderers: [tenderer] },
  'bid.dgfInsider.patch': { value: { amount: 210000 } },
  'bid.landlease.patch': { status: 'pending' },
  document,
  'auction.results': {
    bids: [
      { id: '0123456789abcdef0123456789abcdef', value: { amount: 250000 } },
      { id: 'fedcba9876543210fedcba9876543210', value: { amount: 210000 } },
    ],
  },
  'award.patch': { status: 'active' },
  'contract.patch': { status: 'active' },
  'docservice.register': { hash: 'md5:0f343b0931126a20f133d67c2b018a3b' },
  question: { title: 'Огляд', description: 'Коли можна оглянути приміщення?', author: tenderer },
  answer: { answer: 'Щодня з 10:00 до 16:00.' },
  cancellation: { reason: 'Рішення організатора' },
  'auction.landlease': {
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
  'bid.landlease': { value: { amount: 100000, currency: 'UAH', valueAddedTaxIncluded: true }, tenderers: [tenderer] },
  relatedProcess: { type: 'lot', relatedProcessID: '0123456789abcdef0123456789abcdef' },
  ownership: { id: '5a4b3c2d1e0f5a4b3c2d1e0f5a4b3c2d', transfer: '9f8e7d6c5b4a39281706f5e4d3c2b1a0' },
};
