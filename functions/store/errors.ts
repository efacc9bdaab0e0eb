import { UnprocessableError } from '#domain/kernel/errors.ts';

/**
 * True when DynamoDB refused a write because another writer got there first: a condition failed (single write or
 * inside a transaction), or a transaction collided with another one on the same item. Either way nothing was
 * written, and planning again from a fresh read is the answer.
 */
export function isConditionFailure(error: unknown): boolean {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name === 'ConditionalCheckFailedException' || e?.name === 'TransactionConflictException') return true;
  const lost = new Set(['ConditionalCheckFailed', 'TransactionConflict']);
  return e?.name === 'TransactionCanceledException' && !!e.CancellationReasons?.some((r) => lost.has(r.Code ?? ''));
}

/**
 * The limits of a DynamoDB item (400 KB, 32 levels of nesting, no empty map keys) that a client's content can exceed:
 * DynamoDB refuses the write (nothing is stored), and the client gets a 422 instead of a 500.
 */
export function storageLimitError(error: unknown): UnprocessableError | undefined {
  const e = error as { name?: string; message?: string };
  if (e?.name !== 'ValidationException') return undefined;
  if (/item size .*exceeded/i.test(e.message ?? ''))
    return UnprocessableError.data('The object is too large to be stored');
  if (/nesting levels .*exceeded/i.test(e.message ?? ''))
    return UnprocessableError.data('The object is nested too deeply to be stored');
  if (/empty attribute name/i.test(e.message ?? ''))
    return UnprocessableError.data('An empty string cannot be a field name');
  return undefined;
}

/**
 * A create met an object already stored under its id that another call wrote: never with the random ids of the
 * service, only when a client's Idempotency-Key chose the id (runtime/idempotency.ts answers that case).
 */
export class AlreadyCreatedError extends Error {
  constructor(readonly id: string) {
    super(`An object with id ${id} already exists`);
    this.name = 'AlreadyCreatedError';
  }
}
