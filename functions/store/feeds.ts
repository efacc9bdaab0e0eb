import type { FeedReader } from '#domain/kernel/aggregate.ts';
import { formatKyiv } from '#domain/kernel/time.ts';
import { lanePage, listingPage } from './journal.ts';
import { keys } from './table-design.ts';

/**
 * The listing feeds read from the journal (store/journal.ts, domain/journal/journal.ts): the dateModified feed from a
 * lane's listing (a row per object, at its last entry's stamp, never past the lane's head), the change feed from the
 * lane itself by position. No page waits for a time to pass: what the journal holds is what a page may show.
 */

/** The position a change feed cursor names in this lane; null: a cursor of another lane. */
function positionIn(lane: string, cursor: string): number | null {
  const at = cursor.lastIndexOf(':');
  return cursor.slice(0, at) === lane ? Number(cursor.slice(at + 1)) : null;
}

/** Entries a change feed page reads beyond twice its rows, for the drafts' among them (not shown). */
const DRAFTS_ALLOWANCE = 10;

/** A page: the lane's head, then its listing rows (two requests; stamps are unique in a lane: no tie rule), or its entries. */
export const feedReader: FeedReader = {
  async page({ feed, test, after, descending, limit }) {
    const rows = await listingPage(keys.feed(feed, test), { after, descending, limit });
    return {
      items: rows.map(({ stamp, view }) => ({
        id: String(view.id),
        dateModified: String(view.dateModified),
        root: view,
        at: formatKyiv(stamp),
      })),
    };
  },

  async changes({ feed, test, after, descending, limit }) {
    const lane = keys.feed(feed, test);
    // A cursor is `<lane>:<position>`: one of another feed (or mode) is no cursor of this one.
    const at = after === undefined ? undefined : positionIn(lane, after);
    if (at === null) return { items: [], unknownCursor: true };
    // A draft's entry is its owner's webhooks' alone: skipped. The Query reads past a page's worth so that drafts
    // between do not make it short (still one request), and the page ends at its last row shown, or, when it shows
    // fewer, at the last entry read: its cursors never stop short of, nor pass, what it took.
    const page = await lanePage(lane, { after: at, descending, limit: Math.min(2 * limit + DRAFTS_ALLOWANCE, 1000) });
    const shown: typeof page.entries = [];
    let end = page.entries.at(-1);
    for (const e of page.entries) {
      if (e.change.draftOf === undefined) shown.push(e);
      if (shown.length === limit) {
        end = e;
        break;
      }
    }
    const cursorAt = (e: { pos: number } | undefined) => (e ? `${lane}:${e.pos}` : undefined);
    const [first, last] = [cursorAt(page.entries[0]), cursorAt(end)];
    return {
      ...(page.unknownCursor && { unknownCursor: true }),
      ...(first && { first }),
      ...(last && { last }),
      items: shown.map((e) => ({
        cursor: `${lane}:${e.pos}`,
        id: e.change.id,
        seq: e.change.seq,
        ...(e.change.hash !== undefined && { hash: e.change.hash }),
        view: e.change.view ?? { id: e.change.id, dateModified: e.change.dateModified },
      })),
    };
  },
};
