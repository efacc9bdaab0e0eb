import type { Timing } from '../calendar/periods.ts';
import { UnprocessableError } from '../kernel/errors.ts';
import { ID_PATTERN } from '../kernel/ids.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';
import type { Auction, SharedStatus } from './auction.ts';
import { AWAITING_CONVOY } from './convoy-due.ts';
import { definitionOf } from './registry.ts';
import { withNextCheck } from './timed-events.ts';

/**
 * Auctions created from a lot (interface.md §2.3 `merchandisingObject`, reference-behaviour.md §6): they wait for the
 * convoy in `pending.verification`, are released into the type's first active status or refused (`invalid`, with a
 * reason the owner can read), and once they end the convoy reports the outcome to the lot.
 */
export const REFUSED = 'invalid' satisfies SharedStatus;

/** On create: an auction naming a lot waits for the convoy, and its items will come from the lot's assets. */
export function fromLotOnCreate(data: JsonRecord): { status: typeof AWAITING_CONVOY } | undefined {
  if (data.merchandisingObject === undefined) return undefined;
  if (typeof data.merchandisingObject !== 'string' || !new RegExp(ID_PATTERN).test(data.merchandisingObject)) {
    throw UnprocessableError.field('merchandisingObject', 'String value did not match validation regex.');
  }
  return { status: AWAITING_CONVOY };
}

const stamp = (auction: Auction, now: Micros): Auction => {
  const at = formatKyiv(now);
  return withNextCheck(definitionOf(auction).events, { ...auction, date: at, dateModified: at });
};

/** The lot checked: the auction takes the items made from the lot's assets and starts, as its type says. */
export const releaseFromLot = (auction: Auction, items: JsonRecord[], timing: Timing): Auction =>
  stamp(definitionOf(auction).releaseFromLot(auction, items, timing), timing.now);

/** The lot cannot be sold by this auction: it ends `invalid`, saying why. */
export const refuseFromLot = (auction: Auction, reason: string, now: Micros): Auction =>
  stamp({ ...auction, status: REFUSED, statusReason: reason }, now);

/**
 * The items of an auction from the lot's assets (reference-behaviour.md §6): an asset with items gives its items;
 * an asset without (the basic shape) is one item itself, described by its title.
 */
const ITEM_FIELDS = [
  'description',
  'classification',
  'additionalClassifications',
  'address',
  'unit',
  'quantity',
  'location',
  'schema_properties',
];

export function itemsFromAssets(assets: readonly JsonRecord[]): JsonRecord[] {
  return assets.flatMap((asset) => {
    const own = asset.items;
    const items: JsonRecord[] = Array.isArray(own) && own.length ? own : [{ ...asset, description: asset.title }];
    return items.map((item) => {
      const out: JsonRecord = {};
      for (const field of ITEM_FIELDS) if (item[field] !== undefined) out[field] = item[field];
      return out;
    });
  });
}
