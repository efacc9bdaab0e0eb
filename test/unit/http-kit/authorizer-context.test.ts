import { describe, expect, it } from 'vitest';
import { authorizerContextOf } from '../../../functions/auth/authorizer-context.ts';

describe('authorizerContextOf', () => {
  it('reads a known role, its name and levels', () => {
    expect(authorizerContextOf({ name: 'broker2', role: 'broker', levels: '3' })).toEqual({
      name: 'broker2',
      role: 'broker',
      levels: '3',
    });
  });

  it('makes the anonymous caller of a role nobody may hold, a missing context or fields that are not strings', () => {
    const anonymous = { name: 'anonymous', role: 'anonymous', levels: '' };
    expect(authorizerContextOf({ name: 'x', role: 'root', levels: '' })).toEqual(anonymous);
    expect(authorizerContextOf(undefined)).toEqual(anonymous);
    expect(authorizerContextOf('broker')).toEqual(anonymous);
    expect(authorizerContextOf({ name: 7, role: 'admin' })).toEqual(anonymous);
    expect(authorizerContextOf({ name: 'a', role: ['admin'] })).toEqual(anonymous);
  });

  it('keeps the refusals the authorizer decided: unavailable, and retryAfter only as whole seconds', () => {
    expect(authorizerContextOf({ unavailable: '1' })).toMatchObject({ role: 'anonymous', unavailable: '1' });
    expect(authorizerContextOf({ ...{ name: 'b', role: 'broker', levels: '' }, retryAfter: '3' })).toMatchObject({
      role: 'broker',
      retryAfter: '3',
    });
    expect(authorizerContextOf({ name: 'b', role: 'broker', retryAfter: 'soon' })).not.toHaveProperty('retryAfter');
  });
});
