import { loadValidators } from '#domain/kernel/validation.ts';
import { servedValidators } from '../route-rules.ts';
import type { KitMiddleware } from '../types.ts';

/**
 * The body validators load apart from the bundle, at the first request with a body (never on a read), only those this
 * Lambda's code checks with for the route's type (from the sources: all of them). The domain commands check with them.
 */
export const validation = (): KitMiddleware => ({
  before: async ({ context }) => {
    if (context.body) await loadValidators(servedValidators(context.rule!));
  },
});
