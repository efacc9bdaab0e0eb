import { ForbiddenError, UnprocessableError } from '../kernel/errors.ts';
import { keysOf, withoutField } from '../kernel/objects.ts';
import { formatKyiv, parseInstant, type Micros } from '../kernel/time.ts';
import type { Asset, RelatedProcess, TransitionRule, TransitionRules } from './asset.ts';

/** Building blocks the asset type definitions compose: rectification, the lot link, deletion (item ids: kernel/items.ts). */

const HOUR: Micros = 3_600_000_000;

/** interface.md §2.4 / §8: the rectification period lasts 24 hours from the move to `pending`. */
export const RECTIFICATION_DURATION: Micros = 24 * HOUR;

/**
 * draft → pending: the rectification period starts now. It is set once: an asset that comes back to `pending` from
 * a lot keeps it (so its owner may no longer edit it once it ended, but may still delete it).
 */
export const startRectification: TransitionRule = (asset, { now }) => ({
  ...asset,
  rectificationPeriod: { startDate: formatKyiv(now), endDate: formatKyiv(now + RECTIFICATION_DURATION) },
});

/** True once `now` is past `rectificationPeriod.endDate` (upstream `endDate < now`). */
export function rectificationEnded(asset: Asset, now: Micros): boolean {
  const end = asset.rectificationPeriod?.endDate;
  return end !== undefined && (parseInstant(end) ?? Infinity) < now;
}

/** The related processes that tie an asset to a lot (bounce: `relatedProcesses` of type `lot`). */
const lotProcesses = (asset: Asset): RelatedProcess[] =>
  Array.isArray(asset.relatedProcesses) ? asset.relatedProcesses.filter((rp) => rp?.type === 'lot') : [];

/**
 * The lot an asset belongs to: its `relatedLot`, else the lot of its lot related process (the concierge may attach a
 * bounce asset either way).
 */
export function lotOf(asset: Asset): string | undefined {
  return asset.relatedLot ?? lotProcesses(asset)[0]?.relatedProcessID;
}

/**
 * An asset under verification or attached (`verification`, `active`) stays with its lot until it goes back to
 * `pending`: re-pointing it (a second concierge PATCH with another `relatedLot`) would leave it in two lots at once.
 */
export function assertKeepsLot(before: Asset, after: Asset): void {
  if ((before.status !== 'verification' && before.status !== 'active') || after.status === 'pending') return;
  if (lotOf(after) !== lotOf(before))
    throw new ForbiddenError(`Can't change relatedLot of asset in current (${before.status}) status`);
}

/** → verification / active: the concierge names the lot the asset joins (`relatedLot` or a lot related process). */
export const requireRelatedLot: TransitionRule = (asset) => {
  if (!lotOf(asset)) throw UnprocessableError.field('relatedLot', 'This field is required.');
  return asset;
};

/**
 * → pending from a lot (failed verification, lot dissolved, deleted or recomposed): the asset is free again. Its
 * `relatedLot` goes; its related processes stay as its history, as the original's detached view still listed them
 * (bounce `detached-from-lot-asset-view.http`): a pending asset is free whatever lot its processes name.
 */
export const detachFromLot: TransitionRule = (asset) => withoutField(asset, 'relatedLot');

/** pending → deleted: only once a `cancellationDetails` document was added (reference-behaviour.md §4.3). */
export const requireCancellationDetails: TransitionRule = (asset, { documents }) => {
  if (!documents.some((d) => d.documentType === 'cancellationDetails')) {
    throw new ForbiddenError(
      "You can set deleted status only when asset have at least one document with 'cancellationDetails' documentType",
      'mode',
    );
  }
  return asset;
};

/** The lot link and rectification, common to every asset type. */
export const COMMON_TRANSITIONS: TransitionRules = {
  'draft->pending': [startRectification],
  'pending->verification': [requireRelatedLot],
  'verification->active': [requireRelatedLot],
  'verification->pending': [detachFromLot],
  'active->pending': [detachFromLot],
};

/** Joins rule sets: for each transition, the rules of the earlier sets run first (put guards before effects). */
export function composeTransitions(...sets: TransitionRules[]): TransitionRules {
  const out: TransitionRules = {};
  for (const set of sets) for (const key of keysOf(set)) out[key] = [...(out[key] ?? []), ...(set[key] ?? [])];
  return out;
}
