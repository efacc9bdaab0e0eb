import { DomainError, NotFoundError } from '../kernel/errors.ts';
import type { Revision } from '../kernel/history.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import { readsDraft, type Principal } from '../kernel/principal.ts';

/**
 * `GET /api/<version>/<objects>/{id}/revisions`: an object's change log, oldest first, public as the object is.
 * `offset`: how many revisions the client has (the number of the last one it read; 0 or none: from the first);
 * `limit`: at most this many (default 100, at most 1000). `next_page` always names where the next page starts,
 * so a client polls it for new revisions as it polls a feed.
 */
export interface RevisionPage {
  /** The revisions from number `from`, in order; `type`: the object's type (an auction's or asset's). */
  revisions: { seq: number; revision: Revision; type?: string; draftOf?: string }[];
}

export interface RevisionReader {
  /** Revisions `from`..`from + count - 1` of one object (fewer at the end of its log), one request. */
  page(kind: string, id: string, from: number, count: number): Promise<RevisionPage>;
  /** The last revision of one object's log, without its content (none: no log), one request. */
  head(kind: string, id: string): Promise<{ seq: number; draftOf?: string } | undefined>;
}

export interface RevisionsRequest {
  /** The store's kind (`LOT`, `ASSET`, `AUCTION`) and the 404 name of the object (`lot_id`). */
  kind: string;
  notFound: string;
  id: string;
  /** What an id of this kind looks like (default: 32 hex digits; the calendar's is its name). */
  idPattern?: RegExp;
  /** The type the route serves (auctions, assets): another type's object is not found here, as on its GET. */
  type?: string;
  query: Record<string, string | undefined>;
  /** Who reads: a draft's log answers its owner's key (and an admin) alone, as its GET does. */
  principal: Pick<Principal, 'name' | 'role'>;
  path: string;
  baseUrl: string;
}

const MAX_LIMIT = 1000;
const ID = /^[0-9a-f]{32}$/;

function count(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new DomainError(422, {
      location: 'querystring',
      name,
      description: `Must be a whole number from ${min} to ${max}`,
    });
  return n;
}

export async function listRevisions(reader: RevisionReader, req: RevisionsRequest): Promise<JsonRecord> {
  const offset = count(req.query.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = count(req.query.limit, 'limit', 100, 1, MAX_LIMIT);
  if (!(req.idPattern ?? ID).test(req.id)) throw new NotFoundError(req.notFound);
  // The page starts at the revision the client has (when it has one), so one request tells an unknown object or
  // offset from the end of the log.
  const from = Math.max(1, offset);
  const page = await reader.page(req.kind, req.id, from, limit + (offset > 0 ? 1 : 0));
  // Another type's object (served at its own path), or a draft the caller may not read, is no log at all: answered
  // as an unknown id's, whatever the query. Whether the object is a draft is its log's last revision's say, not the
  // page's: a page of its draft days is the history of an object published since (an object never goes back to
  // draft). The last revision is read only when the page cannot tell (its newest a draft's the caller may not read),
  // and so is it for a page that is empty or another type's, so that an unknown id and a draft cost the same two
  // requests (their answers are the same in status, body and work).
  const newest = page.revisions.at(-1);
  const wrongType = req.type !== undefined && page.revisions[0] !== undefined && page.revisions[0].type !== req.type;
  const unreadable = (draftOf: string | undefined) => draftOf !== undefined && !readsDraft(req.principal, draftOf);
  let hidden = wrongType;
  if (newest === undefined || wrongType || unreadable(newest.draftOf)) {
    const head = await reader.head(req.kind, req.id);
    hidden ||= unreadable(head?.draftOf);
  }
  const revisions = hidden ? [] : page.revisions;
  const first = revisions[0];
  if (first?.seq !== from) {
    if (offset === 0) throw new NotFoundError(req.notFound);
    throw new DomainError(404, { location: 'querystring', name: 'offset', description: 'Offset expired/invalid' });
  }
  const data = revisions.filter((r) => r.seq > offset).map((r) => r.revision);
  const last = offset + data.length;
  const params = new URLSearchParams({ ...(req.query.limit && { limit: String(limit) }), offset: String(last) });
  const next = `${req.path}?${params.toString()}`;
  return { data, next_page: { offset: String(last), path: next, uri: `${req.baseUrl}${next}` } };
}
