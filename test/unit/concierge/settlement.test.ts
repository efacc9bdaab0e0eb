import { describe, expect, it } from 'vitest';
import type { Asset } from '../../../functions/domain/assets/asset.ts';
import { detachFromLot, lotOf } from '../../../functions/domain/assets/rules.ts';
import { planSettlement } from '../../../functions/domain/concierge/settlement.ts';
import type { Lot } from '../../../functions/domain/lots/lot.ts';

const LOT = 'a'.repeat(32);
const OTHER = 'b'.repeat(32);
const lot = (status: Lot['status'], assets: string[]) => ({ id: LOT, status, assets }) as Lot;
const asset = (id: string, fields: Partial<Asset>) =>
  ({ id, assetType: 'bounce', status: 'pending', ...fields }) as Asset;
const linked = (to: string) => ({
  relatedProcesses: [{ id: 'c'.repeat(32), type: 'lot' as const, relatedProcessID: to }],
});
const world = (...assets: Asset[]) => new Map(assets.map((a) => [a.id, a]));

describe('the lot of an asset', () => {
  it('is its relatedLot, else the lot of its lot related process', () => {
    expect(lotOf(asset('1', { relatedLot: OTHER, ...linked(LOT) }))).toBe(OTHER);
    expect(lotOf(asset('1', linked(LOT)))).toBe(LOT);
    expect(lotOf(asset('1', {}))).toBeUndefined();
  });

  it('loses its relatedLot on a detach; its related processes stay as history (the original kept them)', () => {
    const freed = detachFromLot(asset('1', { relatedLot: LOT, ...linked(LOT) }), { now: 0, documents: [] });
    expect(freed).toEqual(asset('1', linked(LOT)));
  });
});

describe('concierge settlement with related processes', () => {
  it('claims a free asset by relatedLot and one linked to this lot by keeping its link', () => {
    const plan = planSettlement(lot('verification', ['1', '2']), world(asset('1', {}), asset('2', linked(LOT))));
    expect(plan).toEqual({
      assets: [
        { id: '1', status: 'verification', relatedLot: LOT },
        { id: '2', status: 'verification' },
      ],
    });
  });

  it('activates claimed assets without giving a linked one a relatedLot', () => {
    const plan = planSettlement(
      lot('verification', ['1', '2']),
      world(
        asset('1', { status: 'verification', relatedLot: LOT }),
        asset('2', { status: 'verification', ...linked(LOT) }),
      ),
    );
    expect(plan).toEqual({
      lotStatus: 'active.salable',
      assets: [
        { id: '1', status: 'active', relatedLot: LOT },
        { id: '2', status: 'active' },
      ],
    });
  });

  it('claims a pending asset whose process names another lot (a lot it was detached from) by relatedLot', () => {
    const plan = planSettlement(lot('verification', ['1']), world(asset('1', linked(OTHER))));
    expect(plan).toEqual({ assets: [{ id: '1', status: 'verification', relatedLot: LOT }] });
  });

  it('sends the lot back to pending over an asset another lot holds', () => {
    const plan = planSettlement(
      lot('verification', ['1']),
      world(asset('1', { status: 'verification', relatedLot: OTHER })),
    );
    expect(plan).toEqual({ lotStatus: 'pending', assets: [] });
  });

  it('releases and completes linked assets like attached ones', () => {
    const held = world(asset('1', { status: 'active', ...linked(LOT) }));
    expect(planSettlement(lot('recomposed', ['1']), held)).toEqual({
      lotStatus: 'pending',
      assets: [{ id: '1', status: 'pending', relatedLot: null }],
    });
    expect(planSettlement(lot('pending.sold', ['1']), held)).toEqual({
      lotStatus: 'sold',
      assets: [{ id: '1', status: 'complete' }],
    });
  });
});
