import type { Child } from '../kernel/aggregate.ts';
import { ForbiddenError, NotFoundError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { sameJson, type JsonRecord } from '../kernel/objects.ts';
import { declare, schemaOf, serverSet, text, writable } from '../protocol/model.ts';
import type { Cancellation as CancellationBody, CancellationPatch } from '../schemas/generated/request-types.ts';
import { formatKyiv, parseInstant, type Micros } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import { allDocuments, type DocumentRecord } from '../documents/documents.ts';
import {
  childPlace,
  childrenOf,
  documentScope,
  putChild,
  removeWithin,
  type Auction,
  type AuctionParts,
  type AuctionStatus,
  type Working,
} from './auction.ts';
import { BID } from './bids.ts';
import type { TimedEvent } from './timed-events.ts';

/**
 * Cancellations (reference-behaviour.md §7.4 last row, §8 "Cancellation"): the auction owner adds a `pending`
 * cancellation with a `reason`, then activates it; the auction becomes `cancelled`. Shared by the types; what
 * differs (bids removed in some statuses) is the definition's `cancellation` data.
 */
export const CANCELLATION = 'CANCELLATION';

/** What a type says about cancelling: the auction statuses in which cancelling removes every bid (landlease). */
export interface CancellationRules {
  clearBidsIn: readonly AuctionStatus[];
}

/** Cancelling leaves the bids where they are (dgfInsider). */
export const NO_BID_CLEARING: CancellationRules = { clearBidsIn: [] };

/**
 * Auction statuses in which nothing can be cancelled: the final ones (upstream "Can't add cancellation in current
 * (<status>) auction status"), a draft (nothing published yet) and an auction still waiting for the convoy.
 */
export const NOT_CANCELLABLE: readonly AuctionStatus[] = [
  'draft',
  'pending.verification',
  'complete',
  'cancelled',
  'unsuccessful',
  'invalid',
];

/** A cancellation (EA schema.py Cancellation; GEB models/schemas.py Cancellation). */
export const cancellationModel = declare({
  source: 'EA schema.py Cancellation; GEB models/schemas.py Cancellation',
  fields: {
    id: serverSet,
    date: serverSet,
    documents: serverSet,
    relatedLot: serverSet,
    reason: text(1),
    reason_en: text(1),
    reason_ru: text(1),
    status: { enum: ['pending', 'active'] },
    cancellationOf: { enum: ['tender'] },
  },
  required: ['reason'],
});

/** Fields the owner writes; the known others (id, date, documents, ...) are the server's and dropped. */
const FIELDS = ['reason', 'reason_en', 'reason_ru', 'status', 'cancellationOf'] as const;
const EDITS = FIELDS.filter((f) => f !== 'cancellationOf');

export const cancellationSchema = schemaOf(cancellationModel, { only: FIELDS });
const checkNew: CheckOf<CancellationBody> = (data) => checkWith('cancellation', cancellationSchema, data);

export const cancellationPatchSchema = schemaOf(cancellationModel, { only: EDITS, required: [] });
const checkPatch: CheckOf<CancellationPatch> = (data) => checkWith('cancellationPatch', cancellationPatchSchema, data);

/** A cancellation as stored and shown: the client's fields (typed from the schema they are checked with) and the server's. */
export type Cancellation = CancellationBody & {
  id: string;
  date: string;
  status: 'pending' | 'active';
  cancellationOf: 'tender';
};

function assertCancellable(w: Working, verb: 'add' | 'update'): void {
  if (NOT_CANCELLABLE.includes(w.root.status)) {
    throw new ForbiddenError(`Can't ${verb} cancellation in current (${w.root.status}) auction status`);
  }
}

// The children of kind CANCELLATION are the cancellations this file writes.
const cancellationChildren = (a: AuctionParts) => childrenOf<Cancellation>(a.children, CANCELLATION);

/** A cancellation as GET shows it: with its documents (every version, as upstream) when it has any. */
export type CancellationView = Cancellation & { documents?: DocumentRecord[] };

const withDocuments = (a: AuctionParts, cancellation: Cancellation): CancellationView => {
  const documents = allDocuments(a.children, documentScope(CANCELLATION, cancellation.id));
  return documents.length ? { ...cancellation, documents } : cancellation;
};

export const cancellationsOf = (a: AuctionParts): CancellationView[] =>
  cancellationChildren(a).map((c) => withDocuments(a, c.data));

export function findCancellation(a: AuctionParts, id: string): Child<Cancellation> {
  const found = cancellationChildren(a).find((c) => c.data.id === id);
  if (!found) throw new NotFoundError('cancellation_id');
  return found;
}

export const cancellationView = (a: AuctionParts, id: string): CancellationView =>
  withDocuments(a, findCancellation(a, id).data);

/**
 * Cancellation documents (upstream AC `AuctionCancellationDocumentResource`, dgfInsider and GEB alike): the auction
 * owner's, added, replaced or changed while the auction is not over, whatever the cancellation's status (checked
 * after the document itself, as upstream).
 */
export function assertCancellationDocumentsWritable(w: Working, id: string, operation: 'add' | 'update'): void {
  findCancellation(w, id);
  if (NOT_CANCELLABLE.includes(w.root.status)) {
    throw new ForbiddenError(`Can't ${operation} document in current (${w.root.status}) auction status`);
  }
}

/** The active cancellation of an auction not cancelled yet: its date, when the auction is to be cancelled. */
function pendingEffect(auction: Auction, children: readonly Child[]): Micros | undefined {
  if (NOT_CANCELLABLE.includes(auction.status)) return undefined;
  const active = childrenOf<Cancellation>(children, CANCELLATION).find((c) => c.data.status === 'active');
  return active ? parseInstant(active.data.date) : undefined;
}

/**
 * The auction is cancelled once a cancellation is active, as a timed event due at once: the command that activates
 * it runs the event itself, and the chronograph finishes it should that command stop midway. In the type's listed
 * statuses every bid (with its documents) is removed first, as many as one write holds (the event stays due until
 * none is left), then the status moves.
 */
export const cancellationTakesEffect = (rules: CancellationRules): TimedEvent => ({
  name: 'cancellation takes effect',
  at: pendingEffect,
  apply(w, ctx) {
    if (rules.clearBidsIn.includes(w.root.status)) {
      for (const bid of childrenOf(w.children, BID)) if (!removeWithin(w, bid.place)) return;
    }
    const at = formatKyiv(ctx.now);
    w.root = { ...w.root, status: 'cancelled', date: at, dateModified: at };
  },
});

/** A new cancellation (`pending`, or `active` at once when sent so, as upstream), with its server id and date. */
export function addCancellation(w: Working, data: JsonRecord, now: Micros, id = newId()): Cancellation {
  assertCancellable(w, 'add');
  const fields = writable(cancellationModel, data, FIELDS);
  checkNew(fields);
  const cancellation: Cancellation = {
    cancellationOf: 'tender',
    status: 'pending',
    ...fields,
    id,
    date: formatKyiv(now),
  };
  putChild(w, { place: childPlace(CANCELLATION, cancellation.id), entity: 'cancellation', data: cancellation });
  // An active one takes effect as a timed event due at once (`cancellationTakesEffect`), in bounded writes.
  w.root = { ...w.root, dateModified: formatKyiv(now) };
  return cancellation;
}

/** The owner edits a pending cancellation; `status: active` cancels the auction. */
export function patchCancellation(w: Working, id: string, data: JsonRecord, now: Micros): Cancellation {
  assertCancellable(w, 'update');
  const child = findCancellation(w, id);
  const current = child.data;
  if (current.status !== 'pending')
    throw new ForbiddenError(`Can't update cancellation in current (${current.status}) status`);
  const patch = writable(cancellationModel, data, EDITS);
  checkPatch(patch);
  const next: Cancellation = { ...current, ...patch };
  if (sameJson(next, current)) return current;
  putChild(w, { ...child, data: next });
  w.root = { ...w.root, dateModified: formatKyiv(now) };
  return next;
}
