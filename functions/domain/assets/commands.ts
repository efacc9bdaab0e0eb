import type { Aggregate, AggregateRepository, SequenceSource } from '../kernel/aggregate.ts';
import { assertAccreditation } from '../kernel/accreditation.ts';
import { ForbiddenError, NotFoundError, PermissionError } from '../kernel/errors.ts';
import { newId, newToken, sequenceId, sha256 } from '../kernel/ids.ts';
import { isOneOf, mergePatch, omit, pick, sameJson, type JsonRecord } from '../kernel/objects.ts';
import { completeOrganization, readDirectory, type OrganizationDirectory } from '../kernel/organization-directory.ts';
import { actingRole, authorOf, type Principal } from '../kernel/principal.ts';
import { checkEdited, writable } from '../protocol/model.ts';
import { assertEditable, assertTransition } from '../kernel/status-graph.ts';
import { withTestTitles } from '../kernel/test-mode.ts';
import { formatKyiv, kyivDate, type Micros } from '../kernel/time.ts';
import type { DocumentContext } from '../documents/docservice.ts';
import { currentDocuments, newDocument, serverDocument, type DocumentRecord } from '../documents/documents.ts';
import {
  assetStatusGraph,
  decisionsOf,
  editableFields,
  OWNER_EDIT_STATUSES,
  itemsOf,
  SERVER_FIELDS,
  type Asset,
  type AssetRole,
  type AssetTypeDefinition,
} from './asset.ts';
import { assertKeepsLot, rectificationEnded } from './rules.ts';
import { assertServed, assetView } from './reads.ts';
import { notImplemented } from './types/catalog.ts';
import { decideOwnership, newTransferToken, type Transfer } from '../transfers/transfer.ts';

export interface AssetsContext {
  principal: Principal;
  now: Micros;
  assets: AggregateRepository<Asset>;
  sequences: SequenceSource;
  organizations: OrganizationDirectory;
  /** The asset type served at the request's API path (`bounce` at 2.4, `basic` at 0.1). */
  type: AssetTypeDefinition;
  /** The document service context, on routes that write documents. */
  files?: DocumentContext;
  /** The id a create makes its object with: derived from the request's Idempotency-Key, else none (a new one). */
  createdId?: string;
}

const ASSET_ROLES: readonly AssetRole[] = ['owner', 'concierge', 'admin'];

/** Completes the organizations of `fields` (only those listed in `touched`) from the directory entries read. */
async function organizationsReader(ctx: AssetsContext, data: JsonRecord) {
  const entries = await readDirectory(
    ctx.organizations,
    ctx.type.organizations.map((f) => data[f]),
  );
  return <T extends JsonRecord>(fields: T, touched: JsonRecord): T =>
    ctx.type.organizations.reduce(
      (out, f) => (touched[f] === undefined ? out : completeOrganization(out, f, entries)),
      fields,
    );
}

/**
 * Creates an asset of the served type in `draft`.
 * 1. refuses another assetType (415) and a broker without the type's accreditation (403);
 * 2. drops server-owned fields, completes organizations from the directory, validates (422);
 * 3. numbers it `<prefix>-<Kyiv date>-<n>`, adds the type's initial documents, stores it with the hashes of its
 *    owner token and its transfer token (answered once, as upstream `set_ownership`).
 * `id`: a new random one, unless the caller chose it (an Idempotency-Key, runtime/idempotency.ts).
 */
export async function createAsset(
  ctx: AssetsContext,
  data: JsonRecord,
  id: string = newId(),
): Promise<{ asset: Asset; token: string; transfer: string }> {
  const { type } = ctx;
  if (data.assetType !== undefined && data.assetType !== type.assetType) throw notImplemented();
  assertAccreditation(ctx.principal, type.createLevel, 'asset', data.mode);
  const complete = await organizationsReader(ctx, data);
  const sent = writable(type.model, data, [...type.ownerFields, 'assetType', 'mode']);
  const fields = type.accept(complete(sent, sent));
  const day = kyivDate(ctx.now);
  const at = formatKyiv(ctx.now);
  // The fields the type's `accept` checked by its schema, with its assetType and the server's: an asset of that type.
  const asset = withTestTitles({
    assetType: type.assetType,
    ...fields,
    id,
    assetID: sequenceId(type.idPrefix, day, await ctx.sequences.next(type.idPrefix, day)),
    status: 'draft',
    owner: ctx.principal.name,
    date: at,
    dateModified: at,
  } as Asset);
  const documents = type.initialDocuments.map((seed) => serverDocument(seed, { documentOf: 'asset', now: ctx.now }));
  const token = newToken();
  const { transfer, internal } = newTransferToken();
  const children = documents.map((d) => d.child);
  await ctx.assets.create(
    { id: asset.id, root: asset, tokenHash: sha256(token), internal, children },
    authorOf(ctx.principal),
  );
  return { asset: assetView({ root: asset, children }), token, transfer };
}

function roleOn(ctx: AssetsContext, a: Aggregate<Asset>): AssetRole {
  const role = actingRole(ctx.principal, { owner: a.root.owner, tokenHash: a.tokenHash });
  if (!isOneOf(ASSET_ROLES, role)) throw new PermissionError('role');
  return role;
}

/** The owner's content edits end with the rectification period (interface.md §3.2, §8). */
function assertOwnerMayChange(now: Micros, asset: Asset, role: AssetRole, what: string): void {
  if (role === 'owner' && rectificationEnded(asset, now)) {
    throw new ForbiddenError(`You can't change ${what} after rectification period`, 'mode');
  }
}

/**
 * PATCH of an asset by its owner (token), the concierge or an admin.
 * 1. the role must be allowed to edit in this status; fields it may not change are dropped; after the
 *    rectification period the owner may only change `status` (a content change is a 403, nothing saved);
 * 2. a status change must be in the graph for the role, and passes the type's rules for that transition
 *    (guards such as items and decisions for bounce; effects such as the rectification period, the lot link);
 * 3. organizations are completed from the directory, the whole asset re-validated (422);
 * 4. an unchanged asset is not written; a status change also moves `date`.
 */
export async function patchAsset(ctx: AssetsContext, id: string, data: JsonRecord): Promise<Asset> {
  const { type } = ctx;
  const complete = await organizationsReader(ctx, data);
  const saved = await ctx.assets.modify(
    id,
    (current, now) => {
      assertServed(type, current);
      const root = decideAssetPatch(current, roleOn(ctx, current), data, type, now, complete);
      return root && { root };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return assetView(saved);
}

/**
 * The pure decision of an asset PATCH by a role, shared by the HTTP PATCH and the concierge bot; undefined when
 * nothing changes. `complete` fills organizations from the directory (the bot changes none).
 */
export function decideAssetPatch(
  current: Pick<Aggregate<Asset>, 'root' | 'children'>,
  role: AssetRole,
  data: JsonRecord,
  type: AssetTypeDefinition,
  now: Micros,
  complete: <T extends JsonRecord>(fields: T, touched: JsonRecord) => T = (fields) => fields,
): Asset | undefined {
  const asset = current.root;
  assertEditable(assetStatusGraph, asset.status, role, 'asset');
  const patch = writable(type.model, data, editableFields(role, asset.status, type.ownerFields));
  if (!sameJson(mergePatch(asset, omit(patch, ['status'])), asset)) assertOwnerMayChange(now, asset, role, 'asset');
  if (patch.status !== undefined) assertTransition(assetStatusGraph, asset.status, patch.status, role, 'asset');
  let merged = complete(mergePatch(asset, patch), patch);
  if (merged.status !== asset.status) {
    const env = { now, documents: currentDocuments(current.children) };
    for (const rule of type.transitions[`${asset.status}->${merged.status}`] ?? []) merged = rule(merged, env);
  }
  assertKeepsLot(asset, merged);
  // The server's fields as stored and the rest as the type's `accept` checked them: an asset of its type.
  const next = {
    ...pick(merged, SERVER_FIELDS),
    ...acceptEdited(type, omit(merged, SERVER_FIELDS), asset, patch),
  } as Asset;
  if (sameJson(next, asset)) return undefined;
  const at = formatKyiv(now);
  return withTestTitles({ ...next, dateModified: at, ...(next.status !== asset.status && { date: at }) });
}

/**
 * The type's check of a PATCHed asset, holding the client to what it wrote (protocol `checkEdited`): an asset stored
 * by an earlier release keeps fields the model now refuses until a PATCH writes them.
 */
function acceptEdited(type: AssetTypeDefinition, fields: JsonRecord, asset: Asset, patch: JsonRecord): JsonRecord {
  let accepted: JsonRecord = fields;
  checkEdited(() => (accepted = type.accept(fields, asset)), fields, patch);
  return accepted;
}

/** The asset whose items the owner changes now: its own type, its owner, an editable status, within rectification. */
function ownerEditingItems(ctx: AssetsContext, current: Aggregate<Asset>, now: Micros): Asset {
  assertServed(ctx.type, current);
  const asset = current.root;
  if (roleOn(ctx, current) !== 'owner') throw new PermissionError('role');
  if (!OWNER_EDIT_STATUSES.includes(asset.status)) {
    throw new ForbiddenError(`Can't update or create item in current (${asset.status}) asset status`);
  }
  assertOwnerMayChange(now, asset, 'owner', 'items');
  return asset;
}

/**
 * PATCH of one item (types with an items sub-resource) by the owner, in draft or pending, during rectification.
 * The item keeps its id; the merged item is validated with its `schema_properties`. Returns the item.
 */
export async function patchAssetItem(
  ctx: AssetsContext,
  id: string,
  itemId: string,
  data: JsonRecord,
): Promise<JsonRecord> {
  const items = ctx.type.items;
  if (!items) throw new NotFoundError('item_id');
  let result: JsonRecord | undefined;
  await ctx.assets.modify(
    id,
    (current, now) => {
      const asset = ownerEditingItems(ctx, current, now);
      const stored: JsonRecord[] = itemsOf(asset) ?? [];
      const previous = stored.find((i) => i.id === itemId);
      if (!previous) throw new NotFoundError('item_id');
      const item = items.accept({ ...mergePatch(previous, omit(data, ['id'])), id: itemId });
      result = item;
      if (sameJson(item, previous)) return undefined;
      // Only types with items get here (ctx.type.items), so the record stays of its type.
      return {
        root: {
          ...asset,
          items: stored.map((i) => (i === previous ? item : i)),
          dateModified: formatKyiv(now),
        } as Asset,
      };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return result!;
}

/** The owner may add a decision now: draft or pending (upstream `validate_decision_update_in_not_allowed_status`), in rectification. */
function ownerEditingDecisions(ctx: AssetsContext, current: Aggregate<Asset>, now: Micros): Asset {
  assertServed(ctx.type, current);
  const asset = current.root;
  if (roleOn(ctx, current) !== 'owner') throw new PermissionError('role');
  if (!OWNER_EDIT_STATUSES.includes(asset.status)) {
    throw new ForbiddenError(`Can't update decisions in current (${asset.status}) asset status`);
  }
  if (rectificationEnded(asset, now)) {
    throw new ForbiddenError("You can't change or add decisions after rectification period", 'mode');
  }
  return asset;
}

/** A list of an asset that its owner adds to by POST (items, decisions): where it is, who may add, what the server sets. */
const ADDABLE = {
  items: { list: itemsOf, editable: ownerEditingItems, serverFields: ['id'] },
  decisions: { list: decisionsOf, editable: ownerEditingDecisions, serverFields: ['id', 'decisionOf'] },
} as const;

/**
 * POST of one member of an asset's list (types with that sub-resource; upstream bounce `views/asset_item.py`,
 * `views/asset_decisions.py`) by the owner, in draft or pending, during rectification: a new member with a server id,
 * validated like the asset's. Returns the member.
 */
async function addToAsset(
  ctx: AssetsContext,
  id: string,
  data: JsonRecord,
  key: keyof typeof ADDABLE,
): Promise<JsonRecord> {
  const part = ctx.type[key];
  if (!part) throw new NotFoundError('asset_id');
  const { list, editable, serverFields } = ADDABLE[key];
  let result: JsonRecord | undefined;
  await ctx.assets.modify(
    id,
    (current, now) => {
      const asset = editable(ctx, current, now);
      result = part.accept({ ...omit(data, [...serverFields]), id: ctx.createdId ?? newId() });
      // Only types with this list get here (ctx.type[key]), so the record stays of its type.
      return { root: { ...asset, [key]: [...(list(asset) ?? []), result], dateModified: formatKyiv(now) } as Asset };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return result!;
}

/** POST of one item (types with an items sub-resource). */
export const addAssetItem = (ctx: AssetsContext, id: string, data: JsonRecord) => addToAsset(ctx, id, data, 'items');

/** POST of one decision (types with a decisions sub-resource). */
export const addAssetDecision = (ctx: AssetsContext, id: string, data: JsonRecord) =>
  addToAsset(ctx, id, data, 'decisions');

/**
 * POST of a document by the owner while the asset is `pending`; after the rectification period only a
 * `cancellationDetails` document (the way to delete the asset). `author`, `documentOf` and dates are the server's.
 */
export async function addAssetDocument(ctx: AssetsContext, id: string, data: JsonRecord): Promise<DocumentRecord> {
  let added: DocumentRecord | undefined;
  await ctx.assets.modify(
    id,
    (current, now) => {
      assertServed(ctx.type, current);
      const asset = current.root;
      if (roleOn(ctx, current) !== 'owner') throw new PermissionError('role');
      if (asset.status !== 'pending')
        throw new ForbiddenError(`Can't update document in current (${asset.status}) asset status`);
      const { document, child } = newDocument(data, {
        id: ctx.createdId,
        author: 'asset_owner',
        documentOf: 'asset',
        now: now,
        files: ctx.files,
      });
      if (rectificationEnded(asset, now) && document.documentType !== 'cancellationDetails') {
        throw new ForbiddenError(
          'You can add only document with cancellationDetails after rectification period',
          'mode',
        );
      }
      added = document;
      return { root: { ...asset, dateModified: document.dateModified }, put: [child] };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return added!;
}

/** The ownership decision for an asset served at the request's path (`POST /assets/{id}/ownership`). */
export function assetOwnership(
  ctx: Pick<AssetsContext, 'principal' | 'now' | 'type'>,
  data: { id: string; transfer: string },
) {
  return (object: Aggregate<Asset>, transfer: Aggregate<Transfer> | undefined, now: Micros) => {
    assertServed(ctx.type, object);
    const target = { level: ctx.type.createLevel, mode: object.root.mode, location: `/assets/${object.id}` };
    return decideOwnership(ctx.principal, now, target, object, transfer, data);
  };
}
