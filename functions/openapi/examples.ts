import type { AuctionTypeName } from '#domain/auctions/catalog.ts';
import type { TypeExamples } from '#domain/auctions/definition.ts';
import { custodian, tenderer } from '#domain/auctions/example-parties.ts';
import { examples as dgfInsider } from '#domain/auctions/types/dgf-insider/examples.ts';
import { examples as landlease } from '#domain/auctions/types/landlease/examples.ts';
import { auctionSchemaNames } from './schemas.ts';

/**
 * Each auction type's examples (types/<type>/examples.ts), by its name: a type listed in the catalog without its
 * examples does not compile. Kept apart from the definitions, so that no Lambda but the OpenAPI document's carries them.
 */
export const AUCTION_EXAMPLES: { readonly [T in AuctionTypeName]: TypeExamples } = { landlease, dgfInsider };

/**
 * Request bodies' `data` as the README's walkthroughs send them (a sale, an asset's life, the document service), so
 * the reference page and generated clients show real values instead of `"string"`. Keyed by the schema a route names
 * (`doc.request`), or `<METHOD> <schema>` where a PATCH sends something else than a create. The OpenAPI lint checks
 * each against its schema.
 */
const document = {
  title: 'protocol.txt',
  format: 'text/plain',
  hash: 'md5:0f343b0931126a20f133d67c2b018a3b',
  url: 'http://127.0.0.1:6543/api/docservice/get/0f343b0931126a20f133d67c2b018a3b?KeyID=1f2e3d4c&Signature=c2lnbmF0dXJl',
  documentType: 'auctionProtocol',
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
  'item.bounce': {
    description: 'Земельна ділянка',
    quantity: 5.0001,
    unit: { code: 'MTK' },
    classification: { scheme: 'CAV-PS', id: '06121000-6', description: 'Земельні ділянки' },
    address: { countryName: 'Україна' },
    registrationDetails: { status: 'unknown' },
  },
  'PATCH item.bounce': { quantity: 42 },
  'decision.bounce': { decisionDate: '2026-11-20T10:00:00+02:00', decisionID: '1111-5' },
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
  relatedProcess: { type: 'lot', relatedProcessID: '0123456789abcdef0123456789abcdef' },
  ownership: { id: '5a4b3c2d1e0f5a4b3c2d1e0f5a4b3c2d', transfer: '9f8e7d6c5b4a39281706f5e4d3c2b1a0' },
  // Each auction type's, by the names of its schemas.
  ...Object.fromEntries(
    Object.entries(AUCTION_EXAMPLES).flatMap(([t, examples]) =>
      Object.entries(auctionSchemaNames(t)).map(([key, name]) => [name, examples[key as keyof typeof examples]]),
    ),
  ),
};
