import { newId } from './ids.ts';
import type { JsonRecord } from './objects.ts';

/**
 * Items get server ids: an item keeps its id only when it is one of `previous` (a PATCH sending items back).
 * Anything that is not an array of objects (`null`, `[null]`, a string) is passed through unchanged, so that the
 * schema check that follows answers 422 instead of this crashing.
 */
export function withItemIds<I extends object>(items: I[], previous?: readonly JsonRecord[]): (I & { id: string })[];
export function withItemIds(items: unknown, previous?: readonly JsonRecord[]): unknown;
export function withItemIds(items: unknown, previous: readonly JsonRecord[] = []): unknown {
  if (!Array.isArray(items)) return items;
  const known = new Set(previous.map((i) => i?.id));
  return items.map((item) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? { ...item, id: known.has(item.id) ? item.id : newId() }
      : item,
  );
}
