import { NotStoredError, ServiceUnavailableError, UnprocessableError } from '#domain/kernel/errors.ts';

/** DynamoDB's limits on one TransactWriteItems: 100 items, 4 MB in all. */
export const MAX_TRANSACTION_ITEMS = 100;
export const MAX_TRANSACTION_BYTES = 4_000_000;

/**
 * A change larger than one DynamoDB transaction can hold, refused before it is sent (422, as an item over 400 KB):
 * nothing is written, and the answer says why instead of DynamoDB's bare ValidationException (a 500) on every
 * retry. The domain never asks for one: it works in bounded batches (auctions/auction.ts `WRITE_BOUNDS`).
 */
export class ChangeTooLargeError extends UnprocessableError {
  constructor(what: string) {
    super({ location: 'body', name: 'data', description: `The change is too large to be stored at once (${what})` });
  }
}

/** The size DynamoDB counts for an item, approximated by its JSON text (names and values): an upper bound in practice. */
const approximateBytes = (write: object): number => Buffer.byteLength(JSON.stringify(write));

/** Refuses writes that one transaction cannot hold (more than 100 items or 4 MB), with a clear domain error. */
export function assertWithinTransactionLimits(writes: readonly object[]): void {
  if (writes.length > MAX_TRANSACTION_ITEMS)
    throw new ChangeTooLargeError(`${writes.length} items, at most ${MAX_TRANSACTION_ITEMS}`);
  if (writes.length < 2) return; // a single item is bound by the item limit (400 KB), checked by DynamoDB
  const bytes = writes.reduce((sum, w) => sum + approximateBytes(w), 0);
  if (bytes > MAX_TRANSACTION_BYTES)
    throw new ChangeTooLargeError(`${Math.ceil(bytes / 1000)} KB, at most ${MAX_TRANSACTION_BYTES / 1000} KB`);
}

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

/**
 * 503 when DynamoDB failed and whether the change was stored cannot be told (DynamoDB answers nothing at all): the
 * client reads the object before sending the change again (a create with an Idempotency-Key sends it again with it).
 */
export class OutcomeUnknownError extends ServiceUnavailableError {
  constructor() {
    super(
      1,
      'Service temporarily unavailable: the change may have been stored; read the object before sending the request again',
    );
  }
}

/** 503 when DynamoDB failed and the change is known not to be stored: the client sends it again as it is. */
export { NotStoredError };

/**
 * Whether a conditional write was made: false when its condition failed or another writer got there first
 * (`isConditionFailure`), so the caller decides again on what is stored now; any other error is thrown.
 */
export async function written(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
