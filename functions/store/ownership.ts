import type { Aggregate, Change } from '#domain/kernel/aggregate.ts';
import { NotFoundError } from '#domain/kernel/errors.ts';
import type { Transfer } from '#domain/transfers/transfer.ts';
import type { RevisionAuthor } from '#domain/kernel/history.ts';
import type { Micros } from '#domain/kernel/time.ts';
import { attemptNow, loadAggregate, retryOnConflict, type AggregateKind } from './aggregates.ts';
import { transact } from './transactions.ts';
import { TRANSFER_KIND } from './transfer-repository.ts';

/**
 * Applies an ownership change: the object and the transfer are read, `decide` returns both changes, and they are
 * written in one transaction conditioned on both revisions (a transfer is never spent on two objects at once, and
 * an object never half taken over). A lost race is decided again from what is stored.
 */
export function changeOwnership<T>(
  def: AggregateKind<T>,
  id: string,
  transferId: string,
  decide: (
    object: Aggregate<T>,
    transfer: Aggregate<Transfer> | undefined,
    now: Micros,
  ) => { object: Change<T>; transfer: Change<Transfer> },
  options: {
    at: Micros;
    by: RevisionAuthor;
    /** Throws (as for an unknown id) when the caller may not find this object: a draft (domain `draftFoundBy`). */
    found?: (object: Aggregate<T>) => void;
  },
): Promise<Aggregate<T>> {
  const started = performance.now();
  return retryOnConflict(async () => {
    const object = await loadAggregate(def, id);
    if (!object) throw new NotFoundError(def.notFound);
    options.found?.(object);
    const transfer = await loadAggregate(TRANSFER_KIND, transferId);
    const change = decide(object, transfer, attemptNow(def, object, options.at, started));
    await transact([
      { def, current: object, change: change.object, author: options.by },
      { def: TRANSFER_KIND, current: transfer!, change: change.transfer, author: options.by },
    ]);
    return {
      ...object,
      root: change.object.root,
      tokenHash: change.object.tokenHash ?? object.tokenHash,
      internal: change.object.internal ?? object.internal,
      rev: object.rev + 1,
    };
  });
}
