import type { Lot } from '#domain/lots/lot.ts';
import { lotIndexing } from '#domain/lots/lot.ts';
import { lotView } from '#domain/lots/commands.ts';
import { aggregateRepository, type AggregateKind } from './aggregates.ts';

/** Lots (kind `LOT`). One module per kind, so a handler bundles only the domain of what it serves. */
export const LOT_KIND: AggregateKind<Lot> = {
  kind: 'LOT',
  entity: 'lot',
  notFound: 'lot_id',
  indexing: lotIndexing,
  dateModified: (lot) => lot.dateModified,
  id: (lot) => lot.id,
  history: { objectKind: 'lot', view: lotView },
};
export const lotRepository = aggregateRepository(LOT_KIND);
