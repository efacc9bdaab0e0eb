import { describe, expect, it } from 'vitest';
import {
  assertWithinTransactionLimits,
  ChangeTooLargeError,
  isConditionFailure,
} from '../../../functions/store/errors.ts';

const cancelled = (...codes: string[]) =>
  Object.assign(new Error('cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

describe('lost races', () => {
  it('are a failed condition or a colliding transaction: retried from a fresh read', () => {
    expect(isConditionFailure(Object.assign(new Error(), { name: 'ConditionalCheckFailedException' }))).toBe(true);
    expect(isConditionFailure(cancelled('None', 'ConditionalCheckFailed'))).toBe(true);
    expect(isConditionFailure(cancelled('TransactionConflict', 'None'))).toBe(true);
    expect(isConditionFailure(Object.assign(new Error(), { name: 'TransactionConflictException' }))).toBe(true);
  });

  it('are not other failures, which must surface', () => {
    expect(isConditionFailure(cancelled('ValidationError'))).toBe(false);
    expect(isConditionFailure(Object.assign(new Error(), { name: 'ValidationException' }))).toBe(false);
    expect(isConditionFailure(new Error('boom'))).toBe(false);
  });
});

describe('transaction limits', () => {
  const put = (bytes: number) => ({ Put: { TableName: 't', Item: { PK: 'p', SK: 's', data: 'x'.repeat(bytes) } } });

  it('refuse a change above 100 items or 4 MB with a clear 422 before DynamoDB sees it', () => {
    expect(() => assertWithinTransactionLimits(Array.from({ length: 100 }, () => put(10)))).not.toThrow();
    const many = (() => {
      try {
        assertWithinTransactionLimits(Array.from({ length: 101 }, () => put(10)));
      } catch (error) {
        return error;
      }
    })();
    expect(many).toBeInstanceOf(ChangeTooLargeError);
    expect((many as ChangeTooLargeError).status).toBe(422);
    expect((many as ChangeTooLargeError).entries[0].description).toBe(
      'The change is too large to be stored at once (101 items, at most 100)',
    );
    expect(() => assertWithinTransactionLimits(Array.from({ length: 12 }, () => put(390_000)))).toThrow(
      /too large to be stored at once \(\d+ KB, at most 4000 KB\)/,
    );
    expect(() => assertWithinTransactionLimits([put(390_000)])).not.toThrow();
  });
});
