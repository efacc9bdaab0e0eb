import type { Lot } from '#domain/lots/lot.ts';
import { lotIndexing } from '#domain/lots/lot.ts';
import { aggregateRepository } from './aggregates.ts';

/** The aggregate kinds of the table, each wired to its domain indexing rules. */
export const lotRepository = aggregateRepository<Lot>({
  kind: 'LOT',
  entity: 'lot',
  notFound: 'lot_id',
  indexing: lotIndexing,
  dateModified: (lot) => lot.dateModified,
  id: (lot) => lot.id,
});
