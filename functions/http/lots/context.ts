import type { LotsContext } from '#domain/lots/commands.ts';
import { repositoryHidingDrafts } from '#domain/kernel/principal.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { lotRepository } from '#store/lot-repository.ts';
import { sequences } from '#store/sequences.ts';
import { creating } from '#runtime/idempotency.ts';

/**
 * The ports every lots command gets, bound to this request's principal and clock; `createdId`: the id an
 * Idempotency-Key gives the child a create makes (runtime/idempotency.ts).
 */
export const lotsContext = (req: HttpRequest, createdId?: string): LotsContext => ({
  principal: req.principal,
  now: req.now,
  files: req.files,
  lots: creating(repositoryHidingDrafts(lotRepository, req.principal, 'lot_id'), createdId),
  createdId,
  sequences,
});
