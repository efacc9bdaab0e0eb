import type { LotsContext } from '#domain/lots/commands.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { lotRepository } from '#store/lot-repository.ts';
import { sequences } from '#store/sequences.ts';

/** The ports every lots command gets, bound to this request's principal and clock. */
export const lotsContext = (req: HttpRequest): LotsContext => ({
  principal: req.principal,
  now: req.now,
  files: req.files,
  lots: lotRepository,
  sequences,
});
