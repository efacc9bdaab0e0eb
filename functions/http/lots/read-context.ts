import { readerHidingDrafts } from '#domain/kernel/principal.ts';
import type { AggregateReader } from '#domain/kernel/aggregate.ts';
import type { Lot } from '#domain/lots/lot.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { lotReader } from '#store/lot-repository.ts';

/**
 * What the lots read routes read through: the read half of the repository (apart from context.ts, so their bundles
 * leave the write path out), where a draft the caller may not read is not there (as an unknown id).
 */
export const lotsReader = (req: HttpRequest): AggregateReader<Lot> => readerHidingDrafts(lotReader, req.principal);
