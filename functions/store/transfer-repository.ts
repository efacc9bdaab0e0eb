import type { Transfer } from '#domain/transfers/transfer.ts';
import { aggregateRepository, type AggregateKind } from './aggregates.ts';

/** Ownership transfers (kind `TRANSFER`): never listed, no bot work. */
export const TRANSFER_KIND: AggregateKind<Transfer> = {
  kind: 'TRANSFER',
  entity: 'transfer',
  notFound: 'transfer_id',
  indexing: () => ({}),
  dateModified: (t) => t.date,
  id: (t) => t.id,
};
export const transferRepository = aggregateRepository(TRANSFER_KIND);
