import { createHash } from 'node:crypto';
import jsonpatch, { type Operation } from 'fast-json-patch';
import type { JsonRecord } from './objects.ts';

/**
 * The change log of an object (a lot, an asset, an auction): one revision per change of its public view, each
 * chained to the one before by its hash, so that anyone holding the public history can check it was not rewritten.
 *
 * `changes` are RFC 6902 operations from the previous public view (what an anonymous reader saw; `{}` before the
 * create) to the next one, so that applying every revision in order gives the view GET shows. `hash` is the hex
 * SHA-256 of the RFC 8785 canonical JSON of the revision without `hash`.
 */
export interface Revision {
  date: string;
  author: RevisionAuthor;
  changes: RevisionChange[];
  previousHash: string;
  hash: string;
}

/** Who made the change: the role it acted in and the principal's public name (an API key's name, a bot's role). */
export interface RevisionAuthor {
  role: string;
  name: string;
}

/**
 * One RFC 6902 operation; one whose value was too large to keep carries `valueBytes` (the size of the value, as
 * JSON text) instead of `value`: recorded, never silently cut.
 */
export type RevisionChange =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; path: string; from: string }
  | { op: 'add' | 'replace'; path: string; valueBytes: number };

/** The end of an object's chain: the last revision's number (1: the create) and hash. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * What a revision's `changes` may take as JSON text: its item stays within DynamoDB's 400 KB with room for the
 * item's own attributes (keys, the feed view, the object's status).
 */
export const MAX_CHANGES_BYTES = 300_000;

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? '');

/** The RFC 6902 operations that turn `before` into `after` (both public views; `{}`: no object yet). */
export function diffViews(before: JsonRecord, after: JsonRecord): RevisionChange[] {
  // `compare` makes no `_get` (fast-json-patch's own read operation, not RFC 6902): dropped for the type's sake.
  return jsonpatch.compare(before, after).flatMap((o) => (o.op === '_get' ? [] : [o]));
}

/**
 * The changes bounded to `limit` bytes: as they are when they fit; else each operation's value larger than an even
 * share of the limit is noted by its size; else (too many operations) one replacement per top-level field touched,
 * each noted by the size of the field's new value.
 */
export function boundChanges(
  changes: RevisionChange[],
  after: JsonRecord,
  limit: number = MAX_CHANGES_BYTES,
): RevisionChange[] {
  if (bytesOf(changes) <= limit) return changes;
  const share = Math.floor(limit / changes.length);
  const noted = changes.map((c) => ('value' in c && bytesOf(c.value) > share ? sized(c.op, c.path, c.value) : c));
  if (bytesOf(noted) <= limit) return noted;
  const fields = [...new Set(changes.map((c) => c.path.split('/')[1] ?? ''))];
  return fields.map((f) =>
    f in after ? sized('replace', `/${f}`, after[f]) : ({ op: 'remove', path: `/${f}` } as const),
  );
}

const sized = (op: string, path: string, value: unknown): RevisionChange => ({
  op: op === 'add' ? 'add' : 'replace',
  path,
  valueBytes: bytesOf(value),
});

/**
 * RFC 8785 (JCS) canonical JSON of a JSON value: object members sorted by their names' UTF-16 code units (what
 * `sort()` compares), no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them (which is the
 * RFC's serialization). Written here, 10 lines: the `canonicalize` package's releases for Node 20 ship no ESM types.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hex SHA-256 of the RFC 8785 canonical JSON of a revision without its `hash`. */
export function revisionHash(revision: Omit<Revision, 'hash'> & { hash?: string }): string {
  const { hash: _, ...content } = revision;
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/**
 * The revision of one change, chained after `head` (none: the object's first revision), or undefined when the
 * public view did not change: a change nobody can see yet (a sealed bid) is recorded by the change that shows it.
 */
export function nextRevision(input: {
  before: JsonRecord;
  after: JsonRecord;
  head: ChainHead | undefined;
  date: string;
  author: RevisionAuthor;
}): { revision: Revision; head: ChainHead } | undefined {
  const changes = diffViews(input.before, input.after);
  if (!changes.length) return undefined;
  const content = {
    date: input.date,
    author: input.author,
    changes: boundChanges(changes, input.after),
    previousHash: input.head?.hash ?? '',
  };
  const hash = revisionHash(content);
  return { revision: { ...content, hash }, head: { seq: (input.head?.seq ?? 0) + 1, hash } };
}

/** The changes as RFC 6902 operations, unless one was noted by its size (`valueBytes`: it cannot be replayed). */
function replayable(changes: readonly RevisionChange[]): Operation[] | undefined {
  const operations: Operation[] = [];
  for (const change of changes) {
    if ('valueBytes' in change) return undefined;
    operations.push(change);
  }
  return operations;
}

/** A break in a chain: the revision (1-based) and what is wrong with it. */
export interface ChainBreak {
  seq: number;
  reason: string;
}

/**
 * Checks a chain as served, oldest first: each revision's hash is its content's, and each names the hash before it.
 * Also replays the changes from `{}`, and returns the view they give (undefined once a change was too large to keep).
 */
export function verifyChain(revisions: readonly Revision[]): { breaks: ChainBreak[]; view: JsonRecord | undefined } {
  const breaks: ChainBreak[] = [];
  let view: JsonRecord | undefined = {};
  revisions.forEach((r, i) => {
    const seq = i + 1;
    const previous = i === 0 ? '' : revisions[i - 1].hash;
    if (r.previousHash !== previous) breaks.push({ seq, reason: `previousHash is not the hash of revision ${i}` });
    if (revisionHash(r) !== r.hash) breaks.push({ seq, reason: 'hash does not match its content' });
    const operations = replayable(r.changes);
    if (!operations) view = undefined;
    if (view && operations) {
      try {
        view = jsonpatch.applyPatch(view, operations, true, false).newDocument;
      } catch (error) {
        breaks.push({
          seq,
          reason: `changes do not apply: ${String(error instanceof Error ? error.message : error).split('\n')[0]}`,
        });
        view = undefined;
      }
    }
  });
  return { breaks, view };
}

/**
 * A view as a revision records it: the service's own document links as paths (`/api/...`), which GET answers
 * absolute from the configured base URL. To compare a replayed chain with a GET: give the GET's view and its base.
 */
export function linksAsPaths(value: unknown, baseUrl: string): unknown {
  if (Array.isArray(value)) return value.map((v) => linksAsPaths(v, baseUrl));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'url' && typeof v === 'string' && v.startsWith(`${baseUrl}/api/`)
        ? v.slice(baseUrl.length)
        : linksAsPaths(v, baseUrl),
    ]),
  );
}
