import { childrenWhere, type Child, type ChildOwner } from '../kernel/aggregate.ts';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { sameJson, type JsonRecord } from '../kernel/objects.ts';
import { code, declare, schemaOf, serverSet, text, writable } from '../protocol/model.ts';
import type { Prolongation as ProlongationBody, ProlongationPatch } from '../schemas/generated/request-types.ts';
import { formatKyiv, parseInstant, type Micros } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import { currentDocuments, type DocumentRecord } from '../documents/documents.ts';
import { putChild, type AuctionParts, type Working } from './auction.ts';

/**
 * Contract prolongations (upstream AC contracting v3, dgfInsider's contracting): the auction owner records a decision
 * that gives the buyer more time to sign (`draft`), attaches its protocol, then applies it: the contract's signing
 * period then ends 42 working days after it started (the first), 132 (the second), at 18:00 Kyiv; there is no third.
 * A prolongation is a child under its contract; its documents are children under it.
 */
export const PROLONGATION = 'PROLONGATION';

/** Upstream PROLONGATION_SHORT_PERIOD, PROLONGATION_LONG_PERIOD: working days from the signing period's start. */
export const PROLONGATION_DAYS = [42, 132] as const;
/** Upstream PROLONGATION_DATE_PUBLISHED_LIMIT_PERIOD: the decision came in force at most 20 days before. */
const DATE_PUBLISHED_LIMIT: Micros = 20 * 86_400 * 1_000_000;

/** A prolongation (AC plugins/contracting/v3/models.py Prolongation). */
export const prolongationModel = declare({
  source: 'AC plugins/contracting/v3/models.py Prolongation',
  fields: {
    id: serverSet,
    dateCreated: serverSet,
    // Documents are added through their own route, where their files are checked; a body's list is dropped.
    documents: serverSet,
    decisionID: code(1),
    description: text(10),
    datePublished: { type: 'string', format: 'date-time' },
    reason: { enum: ['dgfPaymentImpossibility', 'dgfLackOfDocuments', 'dgfLegalObstacles', 'other'] },
    status: { enum: ['draft', 'applied'] },
  },
  required: ['decisionID', 'description', 'datePublished', 'reason'],
});

/** Upstream roles: `create` blacklists id, dateCreated, status; `edit` id and dateCreated. */
const CREATE_FIELDS = ['decisionID', 'description', 'datePublished', 'reason'] as const;
const EDIT_FIELDS = [...CREATE_FIELDS, 'status'] as const;

export const prolongationSchema = schemaOf(prolongationModel, { only: CREATE_FIELDS });
const checkNew: CheckOf<ProlongationBody> = (data) => checkWith('prolongation', prolongationSchema, data);
export const prolongationPatchSchema = schemaOf(prolongationModel, { only: EDIT_FIELDS, required: [] });
const checkPatch: CheckOf<ProlongationPatch> = (data) => checkWith('prolongationPatch', prolongationPatchSchema, data);

export type Prolongation = ProlongationBody & {
  id: string;
  dateCreated: string;
  status: 'draft' | 'applied';
};
export type ProlongationView = Prolongation & { documents?: DocumentRecord[] };

/** Upstream awarding statuses in which prolongations (and their documents) may change. */
const PROLONGATION_AUCTION_STATUSES = ['active.qualification', 'active.awarded'];

function assertAuctionStatus(w: Working, verb: 'create' | 'update'): void {
  if (!PROLONGATION_AUCTION_STATUSES.includes(w.root.status))
    throw new ForbiddenError(`Can't ${verb} prolongation in current (${w.root.status}) auction status`);
}

const prolongationChildren = (a: AuctionParts, contractId: string) =>
  childrenWhere<Prolongation>(a.children, (c) => c.place.kind === PROLONGATION && c.place.under?.id === contractId);

export function findProlongation(a: AuctionParts, contractId: string, id: string): Child<Prolongation> {
  const found = prolongationChildren(a, contractId).find((c) => c.data.id === id);
  if (!found) throw new NotFoundError('prolongation_id');
  return found;
}

export const prolongationScope = (id: string): ChildOwner => ({ kind: PROLONGATION, id });

const withDocuments = (a: AuctionParts, p: Prolongation): ProlongationView => {
  const documents = currentDocuments(a.children, prolongationScope(p.id));
  return documents.length ? { ...p, documents } : p;
};

/** A contract's prolongations as its view shows them (in the order they were made), each with its documents. */
export const prolongationsOf = (a: AuctionParts, contractId: string): ProlongationView[] =>
  prolongationChildren(a, contractId)
    .map((c) => withDocuments(a, c.data))
    .sort((x, y) => (parseInstant(x.dateCreated) ?? 0) - (parseInstant(y.dateCreated) ?? 0));

export const prolongationView = (a: AuctionParts, contractId: string, id: string): ProlongationView =>
  withDocuments(a, findProlongation(a, contractId, id).data);

/** The decision came in force at most 20 days before the prolongation is made (upstream `validate_datePublished`). */
function assertDatePublished(datePublished: string | undefined, dateCreated: Micros): void {
  if (datePublished === undefined) return;
  if (parseInstant(datePublished)! + DATE_PUBLISHED_LIMIT < dateCreated)
    throw UnprocessableError.field('datePublished', 'datePublished must be no less on 20 days, than dateCreated');
}

/** A new `draft` prolongation of a contract (the caller found the contract); `applied` cannot be sent. */
export function addProlongation(
  w: Working,
  contract: ChildOwner,
  data: JsonRecord,
  now: Micros,
  id = newId(),
): Prolongation {
  if (data.status === 'applied') throw new ForbiddenError(`Can't create prolongation in ${w.root.status} status`);
  assertAuctionStatus(w, 'create');
  const fields = writable(prolongationModel, data, CREATE_FIELDS);
  checkNew(fields);
  assertDatePublished(fields.datePublished, now);
  const prolongation: Prolongation = {
    ...fields,
    datePublished: formatKyiv(parseInstant(fields.datePublished)!),
    id,
    dateCreated: formatKyiv(now),
    status: 'draft',
  };
  putChild(w, {
    place: { kind: PROLONGATION, id: prolongation.id, under: contract },
    entity: 'prolongation',
    data: prolongation,
  });
  w.root = { ...w.root, dateModified: formatKyiv(now) };
  return prolongation;
}

/**
 * The owner edits a draft prolongation, or applies it (upstream `ProlongationManager.apply`): with a document, at
 * most twice a contract. Returns how many prolongations of the contract are applied with this one (0: not applied
 * now), for the caller to move the contract's signing period.
 */
export function patchProlongation(
  w: Working,
  contractId: string,
  id: string,
  data: JsonRecord,
  now: Micros,
): { prolongation: Prolongation; applied: number } {
  assertAuctionStatus(w, 'update');
  const child = findProlongation(w, contractId, id);
  const current = child.data;
  if (current.status === 'applied')
    throw new ForbiddenError(`Can't patch prolongation in current ${current.status} status`);
  const patch = writable(prolongationModel, data, EDIT_FIELDS);
  checkPatch(patch);
  assertDatePublished(patch.datePublished, parseInstant(current.dateCreated)!);
  const next: Prolongation = {
    ...current,
    ...patch,
    ...(patch.datePublished && { datePublished: formatKyiv(parseInstant(patch.datePublished)!) }),
  };
  let applied = 0;
  if (next.status === 'applied') {
    if (!currentDocuments(w.children, prolongationScope(id)).length)
      throw new ForbiddenError('Prolongation must have documents to apply');
    applied = prolongationChildren(w, contractId).filter((c) => c.data.status === 'applied').length + 1;
    if (applied > PROLONGATION_DAYS.length) throw new ForbiddenError('Contract can be prolongated for 2 times only.');
  }
  if (sameJson(next, current)) return { prolongation: current, applied };
  putChild(w, { ...child, data: next });
  w.root = { ...w.root, dateModified: formatKyiv(now) };
  return { prolongation: next, applied };
}

/** A prolongation's documents are its protocols: `prolongationProtocol` unless sent, and no other type. */
export function prolongationDocumentBody(data: JsonRecord): JsonRecord {
  if (data.documentType !== undefined && data.documentType !== 'prolongationProtocol')
    throw UnprocessableError.field('documentType', "Value must be one of ['prolongationProtocol'].");
  return { ...data, documentType: 'prolongationProtocol' };
}
