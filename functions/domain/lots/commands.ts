import type { Aggregate, AggregateRepository, SequenceSource } from '../kernel/aggregate.ts';
import { assertAccreditation } from '../kernel/accreditation.ts';
import { ForbiddenError, PermissionError, UnsupportedMediaTypeError } from '../kernel/errors.ts';
import { newId, newToken, sequenceId, sha256 } from '../kernel/ids.ts';
import { isOneOf, mergePatch, omit, sameJson, type JsonRecord } from '../kernel/objects.ts';
import { actingRole, authorOf, type Principal } from '../kernel/principal.ts';
import { assertEditable, assertTransition } from '../kernel/status-graph.ts';
import { withTestTitles } from '../kernel/test-mode.ts';
import { formatKyiv, kyivDate, type Micros } from '../kernel/time.ts';
import type { DocumentContext } from '../documents/docservice.ts';
import {
  currentDocuments,
  documentWithHistory,
  newDocument,
  newVersion,
  type DocumentRecord,
} from '../documents/documents.ts';
import { decideOwnership, newTransferToken, type Transfer } from '../transfers/transfer.ts';
import { checkEdited, writable } from '../protocol/model.ts';
import {
  checkLotFields,
  CREATE_FIELDS,
  editableFields,
  lotModel,
  lotStatusGraph,
  SERVER_FIELDS,
  type Lot,
  type LotRole,
} from './lot.ts';

export interface LotsContext {
  principal: Principal;
  now: Micros;
  lots: AggregateRepository<Lot>;
  sequences: SequenceSource;
  /** The document service context, on routes that write documents. */
  files?: DocumentContext;
  /** The id a create makes its object with: derived from the request's Idempotency-Key, else none (a new one). */
  createdId?: string;
}

const LOT_ROLES: readonly LotRole[] = ['owner', 'concierge', 'convoy', 'admin'];
/** Accreditation level that creates a lot (upstream lots.basic `create_accreditation`); ownership changes need it too. */
const LOT_CREATE_LEVEL = '1';

/** What GET shows: the root and the current version of each document. */
export function lotView(a: Pick<Aggregate<Lot>, 'root' | 'children'>): Lot & { documents?: DocumentRecord[] } {
  const documents = currentDocuments(a.children);
  return documents.length ? { ...a.root, documents } : a.root;
}

/**
 * Creates a lot in `draft`.
 * 1. refuses bots, unaccredited brokers, another lotType (415) and a status other than draft;
 * 2. validates the client fields (422), dropping server-owned ones;
 * 3. numbers it `UA-LR-DGF-<Kyiv date>-<n>` and stores it with the hashes of a new owner token and transfer token.
 * `id`: a new random one, unless the caller chose it (an Idempotency-Key, runtime/idempotency.ts).
 */
export async function createLot(
  ctx: LotsContext,
  data: JsonRecord,
  id: string = newId(),
): Promise<{ lot: Lot; token: string; transfer: string }> {
  if (ctx.principal.role === 'concierge' || ctx.principal.role === 'convoy') {
    throw new ForbiddenError("Can't create lot as bot", 'accreditation');
  }
  if (data.lotType !== undefined && data.lotType !== 'basic') {
    throw new UnsupportedMediaTypeError({ location: 'body', name: 'lotType', description: 'Not implemented' });
  }
  assertAccreditation(ctx.principal, LOT_CREATE_LEVEL, 'lot', data.mode);
  if (data.status !== undefined && data.status !== 'draft') {
    throw new ForbiddenError('You can create only in draft status', 'status');
  }
  const fields = omit(writable(lotModel, data, CREATE_FIELDS), ['status']);
  checkLotFields(fields);
  const day = kyivDate(ctx.now);
  const at = formatKyiv(ctx.now);
  const lot: Lot = withTestTitles({
    lotType: 'basic',
    ...fields,
    id,
    lotID: sequenceId('UA-LR-DGF', day, await ctx.sequences.next('lotID', day)),
    status: 'draft',
    owner: ctx.principal.name,
    date: at,
    dateModified: at,
  });
  const token = newToken();
  const { transfer, internal } = newTransferToken();
  await ctx.lots.create(
    { id: lot.id, root: lot, tokenHash: sha256(token), internal, children: [] },
    authorOf(ctx.principal),
  );
  return { lot, token, transfer };
}

function roleOn(ctx: LotsContext, a: Aggregate<Lot>): LotRole {
  const role = actingRole(ctx.principal, { owner: a.root.owner, tokenHash: a.tokenHash });
  if (!isOneOf(LOT_ROLES, role)) throw new PermissionError('role');
  return role;
}

/**
 * The pure decision of a lot PATCH by a role, shared by the HTTP PATCH and the bots.
 * 1. the role must be allowed to edit in the current status, and the status change allowed for it;
 * 2. fields the role may not change are dropped; the rest is merged and the whole lot re-validated;
 * 3. an unchanged lot is not written (undefined: no new `dateModified`); a status change also moves `date`.
 */
export function decideLotPatch(lot: Lot, role: LotRole, data: JsonRecord, now: Micros): Lot | undefined {
  assertEditable(lotStatusGraph, lot.status, role, 'lot');
  const patch = writable(lotModel, data, editableFields(role, lot.status));
  if (patch.status !== undefined) assertTransition(lotStatusGraph, lot.status, patch.status, role, 'lot');
  const merged = mergePatch(lot, patch);
  checkEdited(checkLotFields, omit(merged, [...SERVER_FIELDS, 'status']), patch);
  if (sameJson(merged, lot)) return undefined;
  const at = formatKyiv(now);
  return withTestTitles({ ...merged, dateModified: at, ...(merged.status !== lot.status && { date: at }) });
}

/** PATCH of a lot by its owner (token), the concierge, the convoy or an admin. */
export async function patchLot(ctx: LotsContext, id: string, data: JsonRecord): Promise<Lot> {
  const saved = await ctx.lots.modify(
    id,
    (current, now) => {
      const root = decideLotPatch(current.root, roleOn(ctx, current), data, now);
      return root && { root };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return lotView(saved);
}

/** Lot documents are written by the lot's owner, and only while the lot is `pending` (upstream lots.basic). */
function assertDocumentsWritable(ctx: LotsContext, a: Aggregate<Lot>): void {
  if (roleOn(ctx, a) !== 'owner') throw new PermissionError('role');
  if (a.root.status !== 'pending') {
    throw new ForbiddenError(`Can't update document in current (${a.root.status}) lot status`);
  }
}

export async function addLotDocument(ctx: LotsContext, id: string, data: JsonRecord): Promise<DocumentRecord> {
  let added: DocumentRecord | undefined;
  await ctx.lots.modify(
    id,
    (current, now) => {
      assertDocumentsWritable(ctx, current);
      const { document, child } = newDocument(data, {
        id: ctx.createdId,
        author: 'lot_owner',
        documentOf: 'lot',
        now,
        files: ctx.files,
      });
      added = document;
      const root = { ...current.root, dateModified: document.dateModified };
      return { root, put: [child] };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return added!;
}

export async function replaceLotDocument(
  ctx: LotsContext,
  id: string,
  documentId: string,
  data: JsonRecord,
): Promise<DocumentRecord> {
  let replaced: DocumentRecord | undefined;
  await ctx.lots.modify(
    id,
    (current, now) => {
      assertDocumentsWritable(ctx, current);
      const { document, child } = newVersion(current.children, documentId, data, { now, files: ctx.files });
      replaced = document;
      const root = { ...current.root, dateModified: document.dateModified };
      return { root, put: [child] };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return replaced!;
}

/** The ownership decision for a lot (`POST /lots/{id}/ownership`): a lot's create level is 1. */
export function lotOwnership(ctx: Pick<LotsContext, 'principal' | 'now'>, data: { id: string; transfer: string }) {
  return (object: Aggregate<Lot>, transfer: Aggregate<Transfer> | undefined, now: Micros) =>
    decideOwnership(
      ctx.principal,
      now,
      { level: LOT_CREATE_LEVEL, mode: object.root.mode, location: `/lots/${object.id}` },
      object,
      transfer,
      data,
    );
}

export { currentDocuments, documentWithHistory };
