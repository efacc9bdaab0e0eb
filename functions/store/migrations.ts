import { appendChanges, changeOfRoot, objectKey } from '#domain/journal/journal.ts';
import { journalPort } from './journal.ts';
import { LANES, laneHeads, newCursors, subscriptionCursors } from './cursors.ts';
import { giveListRow, onTheOldIndex } from './subscription-repository.ts';
import { GetCommand, PutCommand, ScanCommand, type ScanCommandOutput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { JsonRecord } from '#domain/kernel/objects.ts';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { ASSET_KIND } from './asset-repository.ts';
import {
  BUDGET_SK,
  createWrites,
  loadAggregate,
  retryOnConflict,
  rootItem,
  writeChange,
  type AggregateKind,
} from './aggregates.ts';
import { AUCTION_KIND } from './auction-repository.ts';
import { LOT_KIND } from './lot-repository.ts';
import {
  CURRENT_MODEL,
  FIRST_REVISIONS,
  isModelItem,
  JOURNALED,
  WEBHOOK_CURSORS,
  ACTIVE_LIST,
  MIGRATION_STEPS,
  upgradeItem,
} from './migration-steps.ts';
import { keyParts, keys, ROOT_SK } from './table-design.ts';

/**
 * Runs the data migrations (migration-steps.ts) over the whole table: a parallel Scan in segments, each item brought to
 * the current model by one conditional Put (on its revision, which it moves, so a writer that read it before loses its
 * race and retries on the upgraded item; items without a revision on their `schemaVersion`). After each page, the
 * segment's position is saved in the run's state item (`MIGRATION#<model>`): a run that crashed or ran out of time
 * resumes where each segment stopped. A dry run writes nothing and counts what a run would change.
 * `npm run migrate` (bin/migrate.ts) runs it locally or against a deployed table; functions/ops/migrate.ts in AWS.
 */
export interface MigrationOptions {
  dryRun?: boolean;
  /** Parallel Scan segments (default 4). A resumed run keeps the segments it started with. */
  segments?: number;
  /** Items read per Scan page (default 100). */
  pageSize?: number;
  /** Epoch ms after which no new page is started: the run stops with `done: false` and resumes next time. */
  deadline?: number;
  /** Scan again although a run to this model finished (the steps find nothing left to do on a migrated table). */
  again?: boolean;
}

export interface MigrationReport {
  model: number;
  dryRun: boolean;
  /** Whether every segment has been scanned to its end. */
  done: boolean;
  /** A previous run of this model had saved positions, and this one went on from them. */
  resumed: boolean;
  /** A run to this model had finished before: nothing was scanned. */
  alreadyDone?: string;
  scanned: number;
  /** Items brought to the current model (would be, in a dry run). */
  upgraded: number;
  /** Per step name: the items whose content it changed (would change). */
  steps: Record<string, number>;
  /** Writes that lost a race with the service and were redone on the item as it was then. */
  retried: number;
}

type Key = Record<string, unknown>;
interface State {
  segments: number;
  /** Per segment: the last key of the last page done, `done` at its end; absent: not started. */
  cursors: Record<string, Key | 'done'>;
  finishedAt?: string;
}

const stateKey = keys.migrationState;

async function readState(model: number): Promise<State | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: stateKey(model), ConsistentRead: true }),
  );
  return out.Item as State | undefined;
}

/**
 * What a run does to an item: the steps' upgrade (migration-steps.ts `upgradeItem`), but no rewrite of a budget item
 * that no step changes. Budget items are counters every release writes by `ADD` alone (aggregates.ts), never with a
 * `schemaVersion`: stamping them would find each new one stale again, and a run (or a dry run) on a table this release
 * wrote would rewrite, and report, items that nothing upgrades.
 */
function upgradeOf(item: JsonRecord): ReturnType<typeof upgradeItem> {
  const upgrade = upgradeItem(item);
  return upgrade && (upgrade.steps.length > 0 || item.SK !== BUDGET_SK) ? upgrade : undefined;
}

/** Writes one upgraded item unless the item changed since it was read; on a lost race, reads and upgrades it again. */
async function writeUpgrade(original: JsonRecord, report: MigrationReport): Promise<void> {
  let item = original;
  for (let attempt = 0; attempt < 5; attempt++) {
    const upgrade = upgradeOf(item);
    if (!upgrade) return;
    const { rev } = item;
    const revised = typeof rev === 'number';
    try {
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: revised ? { ...upgrade.item, rev: rev + 1 } : upgrade.item,
          // Held on what was read: its revision, else (an item read without one) that it still has none and the
          // same schemaVersion; every writer of a counter item (a budget) moves its `rev`.
          ...(revised
            ? { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': rev } }
            : item.schemaVersion === undefined
              ? {
                  ConditionExpression:
                    'attribute_exists(PK) AND attribute_not_exists(schemaVersion) AND attribute_not_exists(rev)',
                }
              : {
                  ConditionExpression: 'schemaVersion = :version AND attribute_not_exists(rev)',
                  ExpressionAttributeValues: { ':version': item.schemaVersion },
                }),
        }),
      );
      report.upgraded++;
      for (const step of upgrade.steps) report.steps[step]++;
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      report.retried++;
      const now = await documentClient().send(
        new GetCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, ConsistentRead: true }),
      );
      if (!now.Item) return; // deleted meanwhile: nothing to upgrade
      item = now.Item;
    }
  }
  throw new Error(`migration: ${original.PK} ${original.SK} kept changing; run the migration again`);
}

/** The kinds whose objects keep a change log, by partition prefix. */
const LOGGED: Record<string, AggregateKind<any>> = { 'LOT#': LOT_KIND, 'ASSET#': ASSET_KIND, 'AUCTION#': AUCTION_KIND };
const loggedKind = (item: JsonRecord) => LOGGED[String(item.PK).slice(0, String(item.PK).indexOf('#') + 1)];

/** The root of an object stored before the change log (or by a release without it): no revision yet. */
const needsFirstRevision = (item: JsonRecord) => item.SK === ROOT_SK && !!loggedKind(item) && !item.history;

/** The migration's name in the revisions it writes. */
const MIGRATION_AUTHOR = { role: 'admin', name: 'migration' };

/**
 * An object stored before the change log gets its first revision: its present public view (children included, so
 * the aggregate is read whole), written with its root, which takes the chain's head, on the revision read; a lost
 * race reads again (a change that wrote meanwhile started the chain itself: nothing left to do).
 */
async function giveFirstRevision(item: JsonRecord, report: MigrationReport): Promise<void> {
  const def = loggedKind(item);
  const id = String(item.PK).slice(def.kind.length + 1);
  await retryOnConflict(async () => {
    // Its children as this migration leaves them (those not upgraded yet are read upgraded).
    const current = await loadAggregate(def, id, (i) => upgradeItem(i)?.item ?? i);
    if (!current || current.history) return;
    const first = createWrites(def, current, MIGRATION_AUTHOR)[1]?.Put;
    if (!first) return;
    const root = rootItem(def, {
      ...current,
      rev: current.rev + 1,
      history: { seq: 1, hash: first.Item!.revision.hash },
    });
    await writeChange([
      {
        Put: {
          TableName: tableName(),
          Item: root,
          ConditionExpression: 'rev = :rev',
          ExpressionAttributeValues: { ':rev': current.rev },
        },
      },
      { Put: first },
    ]);
  });
  report.steps[FIRST_REVISIONS]++;
}

/**
 * An object's change log taken into the journal (DESIGN §4), up to its root's head as a consistent read finds it now:
 * the journal's writer reads what its mark lacks from the log and appends it in order, each change once, so a run
 * again (or the pipe taking the same root's record meanwhile) adds nothing. Counts the objects it took anything of.
 */
async function journalObject(item: JsonRecord, report: MigrationReport): Promise<void> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, ConsistentRead: true }),
  );
  const change = Item && changeOfRoot(Item);
  if (!change) return;
  const appended = await appendChanges(journalPort, [change]);
  if (appended.fresh.length) report.steps[JOURNALED]++;
}

/** Whether the journal lacks some of an object's changes (dry run: the root as read, its mark now). */
async function lacksJournal(item: JsonRecord): Promise<boolean> {
  if (needsFirstRevision(item)) return true;
  const change = changeOfRoot(item);
  if (!change) return false;
  const { marks } = await journalPort.read([change], []);
  return (marks.get(objectKey(change))?.seq ?? 0) < change.seq;
}

const subscriptionIdOf = (item: JsonRecord) => keyParts.subscriptionId(item.PK);

/** Whether a subscription lacks some of its cursors (made by a release before them). */
async function lacksCursors(item: JsonRecord): Promise<boolean> {
  return (await subscriptionCursors(subscriptionIdOf(item))).length < LANES.length;
}

/**
 * A subscription's missing cursors, at the lanes' heads as read now; each put only where none is (a run again, or a
 * second segment, adds nothing).
 */
async function giveCursors(item: JsonRecord): Promise<void> {
  const id = subscriptionIdOf(item);
  const have = new Set((await subscriptionCursors(id)).map((c) => c.lane));
  const missing = newCursors(id, await laneHeads()).filter((c) => !have.has(keyParts.cursorLane(c.SK)));
  await Promise.all(
    missing.map((Item) =>
      documentClient()
        .send(new PutCommand({ TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' }))
        .catch((error) => {
          if (!isConditionFailure(error)) throw error;
        }),
    ),
  );
}

/** The segments of one run: when one fails, the others stop at their next item, and the run ends with the failure. */
interface Run {
  state: State;
  options: MigrationOptions;
  report: MigrationReport;
  failed: boolean;
}

async function runSegment(segment: number, run: Run) {
  const { state, options, report } = run;
  const model = CURRENT_MODEL;
  const saved = state.cursors[String(segment)];
  if (saved === 'done') return;
  let start: Key | undefined = saved;
  for (;;) {
    if (run.failed || (options.deadline !== undefined && Date.now() > options.deadline)) return;
    const page: ScanCommandOutput = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        Segment: segment,
        TotalSegments: state.segments,
        Limit: options.pageSize ?? 100,
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      if (run.failed) return;
      if (keyParts.isSubscriptionRoot(item)) {
        if (await lacksCursors(item)) report.steps[WEBHOOK_CURSORS]++;
        if (onTheOldIndex(item)) report.steps[ACTIVE_LIST]++;
        if (!options.dryRun && onTheOldIndex(item)) await giveListRow(item);
        if (!options.dryRun) await giveCursors(item);
      }
      if (!isModelItem(item)) continue;
      report.scanned++;
      if (options.dryRun) {
        const upgrade = upgradeOf(item);
        if (needsFirstRevision(item)) report.steps[FIRST_REVISIONS]++;
        if (item.SK === ROOT_SK && loggedKind(item) && (await lacksJournal(item))) report.steps[JOURNALED]++;
        if (!upgrade) continue;
        report.upgraded++;
        for (const step of upgrade.steps) report.steps[step]++;
      } else {
        await writeUpgrade(item, report);
        if (needsFirstRevision(item)) await giveFirstRevision(item, report);
        if (item.SK === ROOT_SK && loggedKind(item)) await journalObject(item, report);
      }
    }
    const next: Key | undefined = page.LastEvaluatedKey;
    if (!options.dryRun)
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: stateKey(model),
          UpdateExpression: 'SET cursors.#segment = :position',
          ExpressionAttributeNames: { '#segment': String(segment) },
          ExpressionAttributeValues: { ':position': next ?? 'done' },
        }),
      );
    state.cursors[String(segment)] = next ?? 'done';
    if (!next) return;
    start = next;
  }
}

export async function migrate(options: MigrationOptions = {}): Promise<MigrationReport> {
  const model = CURRENT_MODEL;
  const report: MigrationReport = {
    model,
    dryRun: !!options.dryRun,
    done: false,
    resumed: false,
    scanned: 0,
    upgraded: 0,
    steps: Object.fromEntries(MIGRATION_STEPS.map((s) => [s.name, 0])),
    retried: 0,
  };
  const saved = await readState(model);
  if (saved?.finishedAt && !options.again && !options.dryRun)
    return { ...report, done: true, alreadyDone: saved.finishedAt };
  const resumable = saved && !saved.finishedAt && !options.dryRun;
  const state: State = resumable ? saved : { segments: options.segments ?? 4, cursors: {} };
  report.resumed = !!resumable && Object.keys(saved.cursors).length > 0;
  if (!options.dryRun && !resumable)
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...stateKey(model), ...state } }));
  const segments = Array.from({ length: state.segments }, (_, i) => i);
  const run: Run = { state, options, report, failed: false };
  const ends = await Promise.allSettled(
    segments.map((segment) =>
      runSegment(segment, run).catch((error) => {
        run.failed = true;
        throw error;
      }),
    ),
  );
  const failure = ends.find((end) => end.status === 'rejected');
  if (failure) throw failure.reason;
  report.done = segments.every((s) => state.cursors[String(s)] === 'done');
  if (report.done && !options.dryRun)
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: stateKey(model),
        UpdateExpression: 'SET finishedAt = :at',
        ExpressionAttributeValues: { ':at': new Date().toISOString() },
      }),
    );
  return report;
}
