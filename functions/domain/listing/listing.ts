import type { FeedReader } from '../kernel/aggregate.ts';
import { DomainError } from '../kernel/errors.ts';
import { isOneOf, pick, type JsonRecord } from '../kernel/objects.ts';
import { parseInstant, sortableUtc } from '../kernel/time.ts';

/**
 * The `dateModified` feed every registry lists with (reference-behaviour §1.5): ascending by default, `descending`,
 * `offset` = the `dateModified` of the last row seen, `limit` (default 100, at most 1000; 100 with `opt_fields`),
 * `opt_fields`, and `mode=test` for test objects. Drafts are never in the feed (the store indexes no draft).
 * The feed carries a small view of each item (LISTING_FIELDS), as upstream served `opt_fields` from its index:
 * a page reads only that, never whole items.
 */
export interface ListingRequest {
  feed: string;
  query: Record<string, string | undefined>;
  /** Path of the listing, e.g. `/api/0.1/lots`. */
  path: string;
  baseUrl: string;
}

const truthy = (v: string | undefined) => !!v && v !== '0' && v.toLowerCase() !== 'false';

/** The fields a listing can show with `opt_fields` (upstream FIELDS of lots, assets and auctions); others are dropped. */
export const LISTING_FIELDS = [
  'status',
  'mode',
  'lotID',
  'lotType',
  'assetID',
  'assetType',
  'auctionID',
  'procurementMethodType',
  'auctionPeriod',
  'next_check',
  'auctionParameters',
] as const;

/** What the feed index stores for an item. */
export const listingView = (root: JsonRecord): JsonRecord => pick(root, ['id', 'dateModified', ...LISTING_FIELDS]);

export function listingLimit(raw: string | undefined, withFields: boolean): number {
  const max = withFields ? 100 : 1000;
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 && n <= max ? n : 100;
}

function pageLink(req: ListingRequest, offset: string, descending: boolean) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) {
    if (v !== undefined && k !== 'offset' && k !== 'descending') params.set(k, v);
  }
  if (descending) params.set('descending', '1');
  params.set('offset', offset);
  const path = `${req.path}?${params.toString()}`;
  return { offset, path, uri: `${req.baseUrl}${path}` };
}

const badOffset = () =>
  new DomainError(404, { location: 'querystring', name: 'offset', description: 'Offset expired/invalid' });

/** A change feed place `<lane>:<position>`: the feed's journal lane (its feed key) and the entry's position. */
const CHANGE_KEY = /^[A-Za-z0-9.-]+(#test)?:[1-9]\d{0,11}$/;

/** The change feed's cursor is opaque: base64url of the last row's place, so clients never build one. */
const cursorOf = (key: string) => Buffer.from(key).toString('base64url');
function keyOf(cursor: string): string {
  const key = Buffer.from(cursor, 'base64url').toString();
  if (!CHANGE_KEY.test(key) || cursorOf(key) !== cursor) throw badOffset();
  return key;
}

/**
 * `feed=changes` (upstream openprocurement.api): every change of the feed's objects, in order, each row the
 * object's listing view at that change plus `revision`, its number in the object's history (`/{id}/revisions`).
 * `offset` is an opaque cursor from `next_page`: a position in the feed's journal (domain/journal), read in order.
 */
async function listChanges(reader: FeedReader, req: ListingRequest) {
  const { query } = req;
  const descending = truthy(query.descending);
  const after = query.offset ? keyOf(query.offset) : undefined;
  const limit = listingLimit(query.limit, false);
  const page = await reader.changes({ feed: req.feed, test: query.mode === 'test', after, descending, limit });
  if (page.unknownCursor) throw badOffset();
  // `revisionHash`: the hash of that revision (the object's log head after it), an anchor the platform may keep.
  const data = page.items.map((i) => ({
    ...i.view,
    id: i.id,
    revision: i.seq,
    ...(i.hash !== undefined && { revisionHash: i.hash }),
  }));
  const last = page.last;
  const out: JsonRecord = { data, next_page: pageLink(req, last ? cursorOf(last) : (query.offset ?? ''), descending) };
  if (descending || query.offset) {
    const first = page.first;
    out.prev_page = pageLink(req, first ? cursorOf(first) : (query.offset ?? ''), !descending);
  }
  return out;
}

export async function listFeed(reader: FeedReader, req: ListingRequest) {
  const { query } = req;
  if (query.feed === 'changes') return listChanges(reader, req);
  const descending = truthy(query.descending);
  const fields = (query.opt_fields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => isOneOf(LISTING_FIELDS, f));
  const limit = listingLimit(query.limit, fields.length > 0);
  let after: string | undefined;
  if (query.offset) {
    const micros = parseInstant(query.offset);
    if (micros === undefined) throw badOffset();
    after = sortableUtc(micros);
  }
  const page = await reader.page({ feed: req.feed, test: query.mode === 'test', after, descending, limit });
  const data = page.items.map((i) => ({ ...pick(i.root, fields), id: i.id, dateModified: i.dateModified }));
  const last = page.items.at(-1)?.at ?? query.offset ?? '';
  const out: JsonRecord = { data, next_page: pageLink(req, last, descending) };
  if (descending || query.offset) out.prev_page = pageLink(req, page.items[0]?.at ?? query.offset ?? '', !descending);
  return out;
}
