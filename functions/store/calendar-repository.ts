import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CalendarDocument } from '#domain/calendar/calendar-changes.ts';
import { type ChainHead, nextRevision, type RevisionAuthor } from '#domain/kernel/history.ts';
import { documentClient, tableName } from './client.ts';
import { written } from './errors.ts';
import { keys, REVISION_ENTITY, SCHEMA_VERSION } from './table-design.ts';

/**
 * The working-day calendar in the table: one item (`CALENDAR#ukraine` / `#ROOT`: the document, `dateModified`,
 * `rev`, the chain head `history`), read by one GetItem; each change is one transaction with its revision in the
 * change log (`REV#CALENDAR#ukraine`, `objectKind: calendar`), like every public object's. No item yet: the runtime
 * uses the shipped seed, and the first change stores it as revision 1 before its own.
 */
export const CALENDAR_NAME = 'ukraine';
export const CALENDAR_KIND = 'CALENDAR';

export interface StoredCalendar {
  calendar: CalendarDocument;
  dateModified: string;
  rev: number;
  history: ChainHead;
  /**
   * The mode (AGORA_CALENDAR) the last change's revision recorded in the view; none on items written before revisions
   * recorded it (the next change records it).
   */
  mode?: string;
}

/**
 * The public view a revision records: what `GET /api/calendar` answers, the document, the deployment's mode and when
 * it last changed, so that replaying the log gives the GET (`npm run history -- verify`).
 */
const viewOf = (calendar: CalendarDocument, dateModified: string, mode: string | undefined) => ({
  ...calendar,
  ...(mode !== undefined && { mode }),
  dateModified,
});

export async function readCalendar(): Promise<StoredCalendar | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.calendar(CALENDAR_NAME), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    calendar: Item.calendar as CalendarDocument, // written only by writeCalendar, from a checked document
    dateModified: String(Item.dateModified),
    rev: Number(Item.rev),
    history: Item.history as ChainHead,
    ...(typeof Item.mode === 'string' && { mode: Item.mode }),
  };
}

/**
 * Writes `next` over what was read (`current`; undefined: the seed, never stored), conditioned on its `rev` (or on
 * no item yet), with its revisions; false when another change got there first (the caller reads again).
 */
export async function writeCalendar(
  current: StoredCalendar | undefined,
  seed: CalendarDocument,
  next: CalendarDocument,
  change: { dateModified: string; author: RevisionAuthor; mode: string },
): Promise<StoredCalendar> {
  const TableName = tableName();
  const revisions: { seq: number; item: object }[] = [];
  let head = current?.history;
  let before = current ? viewOf(current.calendar, current.dateModified, current.mode) : {};
  if (!current) {
    // The seed as revision 1, so that replaying the log gives the stored calendar from its first day.
    const first = nextRevision({
      before: {},
      after: viewOf(seed, change.dateModified, change.mode),
      head: undefined,
      date: change.dateModified,
      author: { role: 'system', name: 'ukraine-calendar.json' },
    })!;
    revisions.push({ seq: first.head.seq, item: revisionItem(first.head.seq, first.revision, change.dateModified) });
    head = first.head;
    before = viewOf(seed, change.dateModified, change.mode);
  }
  const after = viewOf(next, change.dateModified, change.mode);
  const made = nextRevision({ before, after, head, date: change.dateModified, author: change.author });
  if (made) {
    revisions.push({ seq: made.head.seq, item: revisionItem(made.head.seq, made.revision, change.dateModified) });
    head = made.head;
  }
  const stored: StoredCalendar = {
    calendar: next,
    dateModified: change.dateModified,
    rev: (current?.rev ?? 0) + 1,
    history: head!,
    mode: change.mode,
  };
  const root = {
    ...keys.calendar(CALENDAR_NAME),
    entity: 'calendar',
    schemaVersion: SCHEMA_VERSION,
    ...stored,
  };
  const ok = await written(
    documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: root,
              ...(current
                ? { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': current.rev } }
                : { ConditionExpression: 'attribute_not_exists(PK)' }),
            },
          },
          ...revisions.map(({ item }) => ({
            Put: { TableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' },
          })),
        ],
      }),
    ),
  );
  if (!ok) throw new CalendarRaceError();
  return stored;
}

/** Another change of the calendar committed between the read and the write. */
export class CalendarRaceError extends Error {
  override name = 'CalendarRaceError';
}

function revisionItem(seq: number, revision: object, dateModified: string) {
  return {
    ...keys.revision(CALENDAR_KIND, CALENDAR_NAME, seq),
    entity: REVISION_ENTITY,
    schemaVersion: SCHEMA_VERSION,
    objectKind: 'calendar',
    objectId: CALENDAR_NAME,
    seq,
    dateModified,
    revision,
  };
}
