import type { TypeExamples } from '../../definition.ts';
import { custodian, tenderer } from '../../example-parties.ts';

/** dgfInsider request bodies' `data` for the OpenAPI document, as the README's 2.3 walkthrough sends them. */
export const examples: TypeExamples = {
  auction: {
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
  auctionStored: { title: 'Нежитлові приміщення (уточнено)' },
  bid: { qualified: true, eligible: true, tenderers: [tenderer] },
  bidPatch: { tenderers: [tenderer] },
};
