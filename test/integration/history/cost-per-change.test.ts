import { describe, expect, it } from 'vitest';
import { CHANGE_KINDS, HIDDEN_KINDS, measureChanges } from '../../../bench/cost-scenario.ts';
import { useService } from '../../support/service.ts';

const service = useService();

/**
 * The bench's cost-per-change table (bench/costs.ts) from a real walk: every kind it lists has figures, each measured
 * by the gateway from what DynamoDB Local reported (`ReturnConsumedCapacity`). Not the figures themselves: those are
 * the bench's to print.
 */
describe('cost per change', () => {
  it('measures requests, write units and the revision of every kind of change', { timeout: 120_000 }, async () => {
    const rows = await measureChanges(service.url);
    expect(rows.map((r) => r.kind)).toEqual([...CHANGE_KINDS]);
    for (const row of rows) {
      expect(row.requests, row.kind).toBeGreaterThan(0);
      expect(row.write, row.kind).toBeGreaterThan(0);
      if (HIDDEN_KINDS.includes(row.kind as never)) expect(row.revisions, row.kind).toBe(0);
      else {
        expect(row.revisions, row.kind).toBeGreaterThan(0);
        expect(row.revisionBytes, row.kind).toBeGreaterThan(0);
      }
    }
  });
});
