import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { UnprocessableError } from '../../../functions/domain/kernel/errors.ts';
import { compileCheck } from '../../../functions/domain/kernel/schema-compiler.ts';
import { toEntries } from '../../../functions/domain/kernel/validation.ts';

const check = compileCheck({
  type: 'object',
  properties: {
    tenderers: {
      type: 'array',
      maxItems: 1,
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
  },
});

function entriesOf(data: unknown) {
  try {
    check(data);
  } catch (error) {
    if (error instanceof UnprocessableError) return error.entries;
    throw error;
  }
  throw new Error('expected a 422');
}

const error = (instancePath: string, keyword: string, params: Record<string, unknown>) =>
  ({ instancePath, keyword, params, schemaPath: '' }) as ErrorObject;

describe('toEntries', () => {
  // Found by `npm run fuzz`: two tenderers without a name put a message list where the tree needed a tenderer.
  it("shows a field's own errors rather than its insides', whatever the order of the errors", () => {
    const own = { location: 'body', name: 'tenderers', description: ['Please provide at most 1 item.'] };
    expect(entriesOf({ tenderers: [{}, {}] })).toEqual([own]);
    const tooMany = error('/tenderers', 'maxItems', { limit: 1 });
    const noName = error('/tenderers/0', 'required', { missingProperty: 'name' });
    expect(toEntries([tooMany, noName])).toEqual([own]);
    expect(toEntries([noName, tooMany])).toEqual([own]);
  });

  it('nests the errors of items and fields', () => {
    expect(entriesOf({ tenderers: [{}] })).toEqual([
      { location: 'body', name: 'tenderers', description: [{ name: ['This field is required.'] }] },
    ]);
  });
});
