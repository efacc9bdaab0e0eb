import { PutCommand, QueryCommand, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { FeedReader } from '#domain/kernel/aggregate.ts';
import type { JsonRecord } from '#domain/kernel/objects.ts';
import { type Micros, sortableUtc } from '#domain/kernel/time.ts';
import { requestNow } from '#runtime/clock.ts';
import { config, FEED_SETTLE_MS } from '#runtime/config.ts';
import { documentClient, tableName } from './client.ts';
import { NotStoredError, OutcomeUnknownError } from './errors.ts';
import { lanePage } from './journal.ts';
import { FEED_VIEW, keys } from './table-design.ts';

/**
 * Feeds that never miss a change (issue 33). A row's place in the feed is its change's stamp (`dateModified`, the
 * request's `now`), taken *before* the write commits; a crawler that has read past a stamp would never see a row
 * committed with it later. So the bound "stamp → visible in the index" is enforced, and pages never read into it:
 *
 * - a write whose stamp is older than SEND_BUDGET_MS is not sent, at any attempt (the SDK's retries included: the
 *   check runs inside them, right before each attempt goes out); the request answers 503, nothing stored;
 * - DynamoDB applies a write it received, and the index shows it, within COMMIT_ALLOWANCE_MS (the one part we cannot
 *   enforce: DynamoDB's own processing, GSI propagation, usually well under a second, and the clock skew of two
 *   Lambdas, a few ms under NTP);
 * - a page shows no row stamped later than now − the settle window (FEED_SETTLE_MS = SEND_BUDGET_MS +
 *   COMMIT_ALLOWANCE_MS = 3 s): every row stamped at or before the horizon is visible by then.
 *
 * The price is freshness: a change reaches the feed 3 s after its `dateModified`, no sooner (an object's own GET is
 * not delayed). The originals measured the same loss and took a 1 s watermark (openprocurement.api feed_ordering).
 */
export const SEND_BUDGET_MS = 1000;
export const COMMIT_ALLOWANCE_MS = FEED_SETTLE_MS - SEND_BUDGET_MS;

/**
 * The local runtime's stand-in for the one part of the bound AWS keeps and DynamoDB Local under load does not (a write
 * it received is applied within COMMIT_ALLOWANCE_MS: a starved JVM took longer): the stamps of the writes sent and not
 * yet answered, counted per stamp, so a page's horizon stays below the oldest. On globalThis (every bundle's copy of
 * this module sees it); installed by the local gateway (`watchCommitsLocally`), never in Lambda.
 */
const COMMITS_UNDER_WAY = Symbol.for('agora.localCommitsUnderWay');
const globals = globalThis as Record<symbol, Map<Micros, number> | undefined>;
export function watchCommitsLocally(): void {
  globals[COMMITS_UNDER_WAY] ??= new Map();
}

/** Runs `send` (an attempt that passed the budget) with its stamp among the commits under way, when they are watched. */
export async function underWay<R>(stamp: Micros, send: () => Promise<R>): Promise<R> {
  const commits = globals[COMMITS_UNDER_WAY];
  if (!commits) return send();
  commits.set(stamp, (commits.get(stamp) ?? 0) + 1);
  try {
    return await send();
  } finally {
    const left = (commits.get(stamp) ?? 1) - 1;
    if (left > 0) commits.set(stamp, left);
    else commits.delete(stamp);
  }
}

/** The newest stamp a page may show now: rows stamped later are held back until they settle (and, watched, commit). */
export const horizon = (): string => {
  const settled = requestNow() - config().feedSettleMs * 1000;
  const commits = globals[COMMITS_UNDER_WAY];
  const oldest = commits?.size ? Math.min(...commits.keys()) : Number.POSITIVE_INFINITY;
  return sortableUtc(Math.min(settled, oldest - 1));
};

/** A write refused because its stamp is older than the budget: nothing was sent, so nothing is stored. */
export class LateWriteError extends NotStoredError {}

/**
 * A retry refused for the same reason after an attempt whose answer never came: that attempt may have been stored
 * (writeChange reads which).
 */
export class LateRetryError extends OutcomeUnknownError {}

/**
 * Sends a write whose rows are stamped `stamp` (a change's new `dateModified`), refusing each attempt that would go
 * out later than SEND_BUDGET_MS after it. Without a stamp (a change that moves no feed row) it is sent as it is.
 * (The middleware is anonymous: the document client copies a command's stack into the low-level command's.)
 */
export async function sendStamped(command: PutCommand | TransactWriteCommand, stamp: Micros | undefined) {
  // With no settle window (AGORA_FEED_SETTLE_MS=0) the feeds promise nothing, and no write is refused for time.
  if (stamp !== undefined && config().feedSettleMs > 0) {
    const inTime =
      <A, R>(next: (args: A) => Promise<R>) =>
      (args: A) => {
        if (requestNow() - stamp > SEND_BUDGET_MS * 1000) throw new LateWriteError();
        return underWay(stamp, () => next(args));
      };
    // After the SDK's retry middleware: once per attempt, right before it is sent.
    const options = { step: 'finalizeRequest', priority: 'low' } as const;
    if (command instanceof PutCommand) command.middlewareStack.add((next) => inTime(next), options);
    else command.middlewareStack.add((next) => inTime(next), options);
  }
  if (command instanceof PutCommand) await documentClient().send(command);
  else await documentClient().send(command);
}

/** The instant part of a feed sort key `<utc>#<id>`. */
const instantOf = (sk: string) => sk.slice(0, sk.indexOf('#'));

const queryIndex = (pk: string, descending: boolean, condition: string, values: JsonRecord, max?: number) =>
  documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: `GSI1PK = :pk AND ${condition}`,
      ExpressionAttributeValues: { ':pk': pk, ...values },
      ScanIndexForward: !descending,
      Limit: max,
    }),
  );

/**
 * One Query of a feed's partition on GSI1 (both feeds' sort keys start with their change's stamp), never past the
 * settle horizon. `beyond` is a key prefix the page starts strictly beyond, in its direction: every key that starts
 * with it is skipped (an instant for the dateModified feed, a whole key for the change feed).
 */
async function settledRows(
  pk: string,
  { beyond, descending, max }: { beyond?: string; descending: boolean; max: number },
) {
  // '~' sorts after '#<id>': `<instant>#~` is above every row of that instant, and no key ends in '~'.
  const settled = `${horizon()}#~`;
  if (descending) {
    const below = beyond !== undefined && beyond < settled ? beyond : settled;
    return (await queryIndex(pk, true, 'GSI1SK < :to', { ':to': below }, max)).Items ?? [];
  }
  if (beyond === undefined) return (await queryIndex(pk, false, 'GSI1SK <= :to', { ':to': settled }, max)).Items ?? [];
  const from = `${beyond}~`;
  if (from > settled) return []; // an offset past the horizon: nothing settled there
  return (
    (await queryIndex(pk, false, 'GSI1SK BETWEEN :from AND :to', { ':from': from, ':to': settled }, max)).Items ?? []
  );
}

/** The position a change feed cursor names in this lane; null: a cursor of another lane. */
function positionIn(lane: string, cursor: string): number | null {
  const at = cursor.lastIndexOf(':');
  return cursor.slice(0, at) === lane ? Number(cursor.slice(at + 1)) : null;
}

/**
 * One Query on the listing index per page, whatever the table size. The next page starts strictly after the
 * offset's instant, so a page never ends inside a tie (items written at the same instant, e.g. a lot's assets
 * settled in one transaction): it reads one row more than asked and, only when that row ties with the last one,
 * a second Query completes the tie. No page reads past the settle horizon.
 *
 * The change feed needs no tie rule: its keys (`<date>#<id>#<seq>`) are unique, so its cursor is the last key.
 */
export const feedReader: FeedReader = {
  async page({ feed, test, after, descending, limit }) {
    const pk = keys.feed(feed, test);
    const first = await settledRows(pk, { beyond: after, descending, max: limit + 1 });
    let rows = first;
    if (rows.length > limit) {
      const last = rows[limit - 1].GSI1SK as string;
      const tie = instantOf(last);
      rows = rows.slice(0, limit);
      if (instantOf(first[limit].GSI1SK) === tie) {
        const bounds = descending ? { ':from': `${tie}#`, ':to': last } : { ':from': last, ':to': `${tie}#~` };
        const rest = await queryIndex(pk, descending, 'GSI1SK BETWEEN :from AND :to', bounds);
        rows.push(...(rest.Items ?? []).filter((i) => i.GSI1SK !== last));
      }
    }
    return {
      items: rows.map((i) => ({ id: i[FEED_VIEW].id, dateModified: i[FEED_VIEW].dateModified, root: i[FEED_VIEW] })),
    };
  },

  async changes({ feed, test, after, descending, limit }) {
    const lane = keys.feed(feed, test);
    // A cursor is `<lane>:<position>`: one of another feed (or mode) is no cursor of this one.
    const at = after === undefined ? undefined : positionIn(lane, after);
    if (at === null) return { items: [], unknownCursor: true };
    const page = await lanePage(lane, { after: at, descending, limit });
    return {
      ...(page.unknownCursor && { unknownCursor: true }),
      items: page.entries.map((e) => ({
        cursor: `${lane}:${e.pos}`,
        id: e.change.id,
        seq: e.change.seq,
        view: e.change.view ?? { id: e.change.id, dateModified: e.change.dateModified },
      })),
    };
  },
};
