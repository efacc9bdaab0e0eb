import { isOneOf, type JsonRecord } from '../kernel/objects.ts';
import { parseInstant } from '../kernel/time.ts';

/**
 * The events a subscription can ask for: `<object>.<created|updated>` for lots, assets and auctions (a status change
 * is `updated`, with `status` in the data), and the patterns that name several (`lot.*`, `*`).
 */
export const OBJECT_KINDS = ['lot', 'asset', 'auction'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];
export const EVENT_TYPES = OBJECT_KINDS.flatMap((k) => [`${k}.created`, `${k}.updated`]);
export const EVENT_PATTERNS = ['*', ...OBJECT_KINDS.map((k) => `${k}.*`), ...EVENT_TYPES];
/** The event `POST /subscriptions/{id}/ping` sends (whatever the subscription's patterns). */
export const PING = 'webhook.ping';

/** One acknowledged change of an object, as the change log records it (its `seq`: 1 is the create). */
export interface ObjectChange {
  kind: ObjectKind;
  id: string;
  seq: number;
  dateModified: string;
  status?: string;
  /** The hash of the change's revision (the object's log head after it): an anchor a platform keeps. */
  hash?: string;
  /** The owner's key of a draft: it alone hears of the change (drafts are their owner's until published). */
  draftOf?: string;
}

/** Whether a subscription of `owner`'s key hears of a change: any published one, and its own drafts. */
export const hears = (owner: string | undefined, c: ObjectChange): boolean =>
  c.draftOf === undefined || c.draftOf === owner;

export const eventType = (c: ObjectChange): string => `${c.kind}.${c.seq === 1 ? 'created' : 'updated'}`;

export const matches = (patterns: readonly string[], type: string): boolean =>
  patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));

/**
 * The thin body of an event: what changed and where to read it, nothing the object's GET does not show. `seq` orders
 * the events of one object (a replay resends old ones); `hash` is its revision's (the log's head after it: an anchor
 * for `npm run history -- verify --anchor`); `cursor` is its place in the journal (the change feed's cursor, where a
 * replay can start).
 */
export function eventBody(c: ObjectChange, cursor: string): JsonRecord {
  return {
    type: eventType(c),
    timestamp: new Date(Number(parseInstant(c.dateModified) ?? 0) / 1000).toISOString(),
    data: {
      id: c.id,
      dateModified: c.dateModified,
      ...(c.status !== undefined && { status: c.status }),
      seq: c.seq,
      ...(c.hash !== undefined && { hash: c.hash }),
      cursor,
    },
  };
}

const isKind = (k: unknown): k is ObjectKind => isOneOf(OBJECT_KINDS, k);

/**
 * The change an item of the table records, as the stream hands it (unmarshalled), or undefined for any other item.
 * Only a revision of the change log is a change: one is written exactly when an object's public view changes, so a
 * write that changes nothing public (a bot's internal mark, hidden bids) sends nothing, and `seq` is the revision's.
 */
export function changeOfItem(item: JsonRecord): ObjectChange | undefined {
  if (item.entity !== 'revision' || !isKind(item.objectKind)) return undefined;
  // The id is the key's (`REV#<KIND>#<id>`) and the date the revision's: revisions stored before carry both apart too.
  const { revision } = item;
  const revisionDate = revision && typeof revision === 'object' && 'date' in revision ? revision.date : undefined;
  return {
    kind: item.objectKind,
    id: String(item.objectId ?? String(item.PK).split('#')[2]),
    seq: Number(item.seq),
    dateModified: String(item.dateModified ?? revisionDate),
    ...(typeof item.status === 'string' && { status: item.status }),
    ...(revision && typeof revision === 'object' && 'hash' in revision && typeof revision.hash === 'string'
      ? { hash: revision.hash }
      : {}),
    ...(typeof item.draftOf === 'string' && { draftOf: item.draftOf }),
  };
}
