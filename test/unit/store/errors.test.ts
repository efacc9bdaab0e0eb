import { describe, expect, it } from 'vitest';
import { isConditionFailure } from '../../../functions/store/errors.ts';

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
