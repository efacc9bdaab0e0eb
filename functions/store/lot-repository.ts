import type { Lot } from '#domain/lots/lot.ts';
import { lotIndexing } from '#domain/lots/lot.ts';
import { lotView } from '#domain/lots/commands.ts';
import { aggregateReader, aggregateRepository, type AggregateKind } from './aggregates.ts';

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
// Pure: a bundle that takes only one of the two leaves the other, and all it reaches, out.
export const lotRepository = /* @__PURE__ */ aggregateRepository(LOT_KIND);
export const lotReader = /* @__PURE__ */ aggregateReader(LOT_KIND);
