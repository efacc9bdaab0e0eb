import { describe, expect, it } from 'vitest';
import '../../../functions/domain/assets/types/registry.ts';
import '../../../functions/domain/auctions/registry.ts';
import '../../../functions/domain/auctions/commands.ts';
import '../../../functions/domain/lots/commands.ts';
import { compileDeclaredChecks } from '../../../functions/domain/kernel/validation.ts';

describe('body schemas', () => {
  it('all compile under ajv strict mode (they compile lazily in Lambdas, so a broken one would only show as a 500)', () => {
    expect(compileDeclaredChecks()).toBeGreaterThan(10);
  });
});
