import { describe, expect, it } from 'vitest';
import { withItemIds } from '../../../functions/domain/kernel/items.ts';
import { listed, span } from '../../../functions/domain/auctions/texts.ts';
import { withVat } from '../../../functions/domain/auctions/fields.ts';

describe('withItemIds', () => {
  it('passes what is not an object through to the schema check', () => {
    expect(withItemIds([null, 'x', 3], [{ id: 'a' }])).toEqual([null, 'x', 3]);
    expect(withItemIds(null)).toBeNull();
    expect(withItemIds('items')).toBe('items');
  });

  it('keeps a known id and gives any other item a new one', () => {
    const [kept, fresh] = withItemIds([{ id: 'a' }, { id: 'b' }], [{ id: 'a' }]);
    expect(kept.id).toBe('a');
    expect(fresh.id).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('auction texts', () => {
  it('prints statuses as a Python list', () => {
    expect(listed(['active.tendering', 'active.enquiry'])).toBe("['active.tendering', 'active.enquiry']");
  });

  it('prints a period as upstream refusals do', () => {
    const period = { startDate: '2030-01-01T10:00:00+02:00', endDate: '2030-01-02T10:00:00+02:00' };
    expect(span({ tenderPeriod: period }, 'tenderPeriod')).toBe(
      'from (2030-01-01T10:00:00+02:00) to (2030-01-02T10:00:00+02:00)',
    );
  });
});

describe('withVat', () => {
  it('sets valueAddedTaxIncluded on the money fields present only', () => {
    expect(withVat({ value: { amount: 1 }, guarantee: { amount: 2 } }, ['value', 'minimalStep'])).toEqual({
      value: { amount: 1, valueAddedTaxIncluded: true },
      guarantee: { amount: 2 },
    });
  });
});
