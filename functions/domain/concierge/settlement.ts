import type { Asset, AssetStatus } from '../assets/asset.ts';
import { lotOf } from '../assets/rules.ts';
import type { Lot, LotStatus } from '../lots/lot.ts';

/**
 * What the concierge does to a lot and its assets (interface.md §3.1/§3.2, reference-behaviour.md §5), as a pure
 * plan over what it read. Verification takes two steps, as upstream: the free assets are first claimed
 * (`verification` + `relatedLot`), then, when all are claimed, they become `active` and the lot `active.salable`.
 * Each step is written conditioned on what was read; the next run plans again from the new state, so a crash or a
 * lost race between steps only delays the outcome, never splits it.
 */
export interface AssetMove {
  id: string;
  status: AssetStatus;
  /** `null` detaches the asset from its lot; absent: the asset keeps the link it has (a lot related process). */
  relatedLot?: string | null;
}

export interface Settlement {
  /** The lot's new status; absent while assets are still being claimed. */
  lotStatus?: LotStatus;
  assets: AssetMove[];
}

/** Asset types a `basic` lot may hold (upstream concierge: basic lots take basic-shaped assets; bounce is ours). */
export const LOT_ASSET_TYPES: readonly string[] = ['basic', 'bounce'];

type Assets = ReadonlyMap<string, Asset | undefined>;

/** The asset is this lot's, by `relatedLot` or by a lot related process. */
const holds = (lot: Lot, a: Asset | undefined): boolean => !!a && lotOf(a) === lot.id;

/**
 * Free for this lot: exists, of an allowed type, and pending without a `relatedLot` (its related processes may name
 * this lot, linked ahead, or a lot it was detached from: upstream looked at the status alone), or already claimed by
 * this lot.
 */
function available(lot: Lot, a: Asset | undefined): a is Asset {
  if (!a || !LOT_ASSET_TYPES.includes(a.assetType)) return false;
  if (holds(lot, a)) return a.status === 'verification' || a.status === 'active' || a.status === 'pending';
  return a.status === 'pending' && !a.relatedLot;
}

/** Every asset this lot holds goes to `status` (back to pending: detached; else it keeps the link it has). */
function moveHeld(lot: Lot, assets: Assets, from: readonly AssetStatus[], status: AssetStatus): AssetMove[] {
  return [...assets.values()]
    .filter((a): a is Asset => holds(lot, a) && from.includes(a!.status))
    .map((a) => ({
      id: a.id,
      status,
      ...(status === 'pending' ? { relatedLot: null } : a.relatedLot && { relatedLot: a.relatedLot }),
    }));
}

const release = (lot: Lot, assets: Assets) => moveHeld(lot, assets, ['verification', 'active'], 'pending');

/** Lot statuses the concierge settles, and how. */
const SETTLE: Partial<Record<LotStatus, (lot: Lot, assets: Assets) => Settlement>> = {
  verification(lot, assets) {
    const all = lot.assets.map((id) => assets.get(id));
    if (!all.every((a) => available(lot, a))) return { lotStatus: 'pending', assets: release(lot, assets) };
    const free = all.filter((a) => a.status === 'pending');
    // a free asset is claimed by `relatedLot`; one linked by a related process keeps that link
    if (free.length)
      return {
        assets: free.map((a) => ({ id: a.id, status: 'verification', ...(!holds(lot, a) && { relatedLot: lot.id }) })),
      };
    return { lotStatus: 'active.salable', assets: moveHeld(lot, assets, ['verification'], 'active') };
  },
  recomposed: (lot, assets) => ({ lotStatus: 'pending', assets: release(lot, assets) }),
  'pending.dissolution': (lot, assets) => ({ lotStatus: 'dissolved', assets: release(lot, assets) }),
  'pending.deleted': (lot, assets) => ({ lotStatus: 'deleted', assets: release(lot, assets) }),
  'pending.sold': (lot, assets) => ({ lotStatus: 'sold', assets: moveHeld(lot, assets, ['active'], 'complete') }),
};

/** The next step for a lot, or undefined when the concierge has nothing to do with it. */
export function planSettlement(lot: Lot, assets: Assets): Settlement | undefined {
  return SETTLE[lot.status]?.(lot, assets);
}
