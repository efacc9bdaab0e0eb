import type { ChildPlace } from '#domain/kernel/aggregate.ts';

/**
 * A child's sort key inside its aggregate's partition, from its place: `BID#<id>`, `DOC#<id>#0002` (versions
 * padded so they sort), and under another child `BID#<id>#DOC#<docId>#0001`. The domain deals in places only.
 */
export function childSortKey(place: ChildPlace): string {
  const own = `${place.kind}#${place.id}${place.version === undefined ? '' : `#${String(place.version).padStart(4, '0')}`}`;
  return place.under ? `${place.under.kind}#${place.under.id}#${own}` : own;
}

/** The place a stored sort key stands for (the inverse of `childSortKey`). */
export function childPlaceOf(sortKey: string): ChildPlace {
  const parts = sortKey.split('#');
  const under = parts.length >= 4 ? { kind: parts[0], id: parts[1] } : undefined;
  const [kind, id, version] = under ? parts.slice(2) : parts;
  if (parts.length < 2 || parts.length > 5 || !kind || !id) throw new Error(`not a child sort key: ${sortKey}`);
  return { kind, id, ...(version !== undefined && { version: Number(version) }), ...(under && { under }) };
}
