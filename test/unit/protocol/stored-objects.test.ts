import { describe, expect, it } from 'vitest';
import { UnprocessableError } from '../../../functions/domain/kernel/errors.ts';
import type { Lot } from '../../../functions/domain/lots/lot.ts';
import { decideLotPatch } from '../../../functions/domain/lots/commands.ts';
import { aLot, anOrganization } from '../../support/builders.ts';

/**
 * Objects stored by earlier releases keep working (issue 22): earlier releases took `kind` on every organization,
 * the model of a lot custodian (openregistry Organization) has none. A PATCH is held to what it writes.
 */
const stored = {
  ...aLot({ lotCustodian: anOrganization({ kind: 'general' }) }),
  id: 'a'.repeat(32),
  lotID: 'UA-LR-DGF-2026-01-01-000001',
  lotType: 'basic',
  status: 'pending',
  owner: 'broker',
  date: '2026-01-01T00:00:00+02:00',
  dateModified: '2026-01-01T00:00:00+02:00',
} as unknown as Lot;

describe('a PATCH of an object stored before the protocol models', () => {
  it('is checked against the model for what it writes, not refused for what the stored object carries', () => {
    const next = decideLotPatch(stored, 'owner', { title: 'Нова назва' }, 0);
    expect(next?.title).toBe('Нова назва');
    expect(next?.lotCustodian).toEqual(stored.lotCustodian);
  });

  it('refuses what it writes against the model, and unknown top-level fields', () => {
    const refusal = (data: Record<string, unknown>) => {
      try {
        decideLotPatch(stored, 'owner', data, 0);
      } catch (error) {
        return error instanceof UnprocessableError ? error.entries.map((e) => e.name) : error;
      }
      return undefined;
    };
    expect(refusal({ lotCustodian: anOrganization({ kind: 'general' }) })).toEqual(['lotCustodian']);
    expect(refusal({ titel: 'typo' })).toEqual(['titel']);
  });
});
