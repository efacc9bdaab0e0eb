import { isObject, type JsonRecord } from '#domain/kernel/objects.ts';
import { ROOT_SK } from './table-design.ts';

/**
 * THE numbered data migrations, in order: each brings a stored item written by an older release to the model of its
 * number (`schemaVersion`). A step is pure (an item in, the upgraded item or `undefined` out) and decides by the item's
 * content, not by its `schemaVersion`: an item an older release wrote and this release rewrote before the migration ran
 * is still found. Applied twice, a step changes nothing the second time. functions/store/migrations.ts runs them.
 */
export interface MigrationStep {
  /** The model version an item has after this step (and every step before it). */
  version: number;
  name: string;
  description: string;
  upgrade: (item: JsonRecord) => JsonRecord | undefined;
}

/** The partitions that hold items of the model: aggregates (roots and children) and directory entries. */
export const MODEL_PARTITIONS = ['LOT#', 'ASSET#', 'AUCTION#', 'TRANSFER#', 'ORG#'] as const;

/** Objects an owner can hand over (ownership transfer), by partition. */
const TRANSFERABLE = ['LOT#', 'ASSET#', 'AUCTION#'];

/**
 * Objects created before transfers have no transfer token, so their ownership requests answered 403. The owner's
 * token becomes the transfer token: its owner got it once, at creation, and still holds it, so no new secret has to
 * reach anyone; the first ownership change replaces both with the transfer's fresh tokens (as for any object).
 */
const transferTokens: MigrationStep = {
  version: 2,
  name: 'transfer-tokens',
  description: 'lots, assets and auctions created before transfers: the owner token is also the transfer token',
  upgrade(item) {
    if (item.SK !== ROOT_SK || !TRANSFERABLE.some((p) => String(item.PK).startsWith(p))) return undefined;
    const internal = isObject(item.internal) ? item.internal : {};
    if (typeof item.tokenHash !== 'string' || typeof internal.transferTokenHash === 'string') return undefined;
    return { ...item, internal: { ...internal, transferTokenHash: item.tokenHash } };
  },
};

/** The API's own document link as older releases stored it: absolute, on whatever host served the request. */
const ABSOLUTE_DOCUMENT_LINK =
  /^https?:\/\/[^/?#]+(\/api\/[^/?#]+\/(?:[a-z_]+\/[0-9a-f]{32}\/)+documents\/[0-9a-f]{32}\?download=[^&#]+)$/;

/** Every `url` under a value with the API's absolute document links made paths; the same object when none was. */
function linksAsPaths(value: unknown): unknown {
  if (Array.isArray(value)) {
    const mapped = value.map(linksAsPaths);
    return mapped.some((v, i) => v !== value[i]) ? mapped : value;
  }
  if (!isObject(value)) return value;
  let changed: JsonRecord | undefined;
  for (const [key, inner] of Object.entries(value)) {
    const next =
      key === 'url' && typeof inner === 'string'
        ? (ABSOLUTE_DOCUMENT_LINK.exec(inner)?.[1] ?? inner)
        : linksAsPaths(inner);
    if (next !== inner) changed = { ...(changed ?? value), [key]: next };
  }
  return changed ?? value;
}

/**
 * Document links are stored as paths (`/api/...`) and made absolute from the configured public base URL when answered;
 * older releases stored them absolute, from the request's host, so their links kept a host that may be gone.
 */
const documentLinks: MigrationStep = {
  version: 3,
  name: 'document-links',
  description: "the API's own document links stored absolute become paths",
  upgrade(item) {
    const data = linksAsPaths(item.data);
    return data === item.data ? undefined : { ...item, data };
  },
};

/** A bid's own item in its auction's partition (`BID#<id>`; its documents are `BID#<id>#DOC#...`). */
const BID_ITEM = /^BID#[^#]+$/;

/**
 * Participation links are computed for their bid's owner when answered (from the auction site and the participation
 * secret of the day); older releases also stored them on the bid, where they kept the site and the secret they were
 * made with. Nothing reads them, but they are a bidder's credential at rest: they go.
 */
const bidLinks: MigrationStep = {
  version: 4,
  name: 'bid-links',
  description: "bids' participation links stored by older releases are dropped (computed when answered)",
  upgrade(item) {
    if (!String(item.PK).startsWith('AUCTION#') || !BID_ITEM.test(String(item.SK))) return undefined;
    if (!isObject(item.data) || !('participationUrl' in item.data)) return undefined;
    const { participationUrl: _, ...data } = item.data;
    return { ...item, data };
  },
};

/**
 * Objects stored before the change log have no revision: each gets its first, its present public view. Not a pure
 * step of one item (the view holds the children): migrations.ts writes it with the whole aggregate read, and counts
 * it under this name. Budget items are carried over as they are, their counters held by their `rev`.
 */
export const FIRST_REVISIONS = 'first-revisions';
const firstRevisions: MigrationStep = {
  version: 5,
  name: FIRST_REVISIONS,
  description: 'lots, assets and auctions stored before the change log get their first revision (their present view)',
  upgrade: () => undefined,
};

/**
 * Objects whose changes came before the journal (issue 52) are not in it, so the feeds, which read it, would not list
 * them until their next change: each object's change log is taken into the journal, in order, once (the writer's
 * marks make it idempotent). Not a pure step either: migrations.ts appends it through the journal's writer.
 */
export const JOURNALED = 'journal';
const journaled: MigrationStep = {
  version: 6,
  name: JOURNALED,
  description:
    "lots, assets and auctions changed before the journal: their change log taken into it (the feeds' source)",
  upgrade: () => undefined,
};

/**
 * Webhook subscriptions made before their cursors (issue 52: a subscription is a cursor over each lane of the
 * journal) get them, at the lanes' heads: what is journaled after is sent to them. What an earlier release had queued
 * for them and not sent is not carried over (its deliveries' items are left as they were; the change feed has it).
 * Not a pure step: migrations.ts writes the cursors.
 */
export const WEBHOOK_CURSORS = 'webhook-cursors';
const webhookCursors: MigrationStep = {
  version: 7,
  name: WEBHOOK_CURSORS,
  description: "webhook subscriptions made before their cursors get them, at the journal lanes' heads",
  upgrade: () => undefined,
};

/**
 * The fan-out's list of active subscriptions was a GSI partition, which DynamoDB updates some time after a write, so a
 * fan-out could miss a subscription made a moment before (its changes waited for its next wake-up). It is now a row
 * per active subscription in the table, written with the subscription; an active one of an older release (still on
 * the index: `GSI1PK`) gets its row and leaves the index. Not a pure step: migrations.ts writes it.
 */
export const ACTIVE_LIST = 'active-list';
const activeList: MigrationStep = {
  version: 8,
  name: ACTIVE_LIST,
  description: "active webhook subscriptions of an older release get their row in the fan-out's list",
  upgrade: () => undefined,
};

export const MIGRATION_STEPS: readonly MigrationStep[] = [
  transferTokens,
  documentLinks,
  bidLinks,
  firstRevisions,
  journaled,
  webhookCursors,
  activeList,
];

/** The model version this release writes (`schemaVersion` of every new item): the last step's. */
export const CURRENT_MODEL = MIGRATION_STEPS.at(-1)!.version;

/** Whether the migrations look at this item at all (API keys, rate buckets, sequences, their own state: never). */
export const isModelItem = (item: JsonRecord) => MODEL_PARTITIONS.some((p) => String(item.PK).startsWith(p));

/**
 * The item brought to the current model, with the names of the steps that changed it; `undefined` when it is there
 * already (its content needs nothing and its `schemaVersion` is current).
 */
export function upgradeItem(item: JsonRecord): { item: JsonRecord; steps: string[] } | undefined {
  let current = item;
  const steps: string[] = [];
  for (const step of MIGRATION_STEPS) {
    const next = step.upgrade(current);
    if (next) {
      current = next;
      steps.push(step.name);
    }
  }
  const version = typeof item.schemaVersion === 'number' ? item.schemaVersion : 1;
  if (!steps.length && version >= CURRENT_MODEL) return undefined;
  return { item: { ...current, schemaVersion: Math.max(version, CURRENT_MODEL) }, steps };
}
