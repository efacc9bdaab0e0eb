import type { Aggregate, AggregateRepository, Change } from '../kernel/aggregate.ts';
import { ForbiddenError, NotFoundError, PermissionError, UnprocessableError } from '../kernel/errors.ts';
import { newId, newToken, sha256, tokenMatches } from '../kernel/ids.ts';
import { isObject, type JsonRecord } from '../kernel/objects.ts';
import { authorOf, readsDraft, type Principal } from '../kernel/principal.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';

/**
 * Ownership transfer (upstream `plugins/transferring`, reference-behaviour.md §1.7). A broker that is to take an
 * object over creates a transfer: it holds the hashes of a fresh owner token and a fresh transfer token, answered in
 * clear once. `POST /<objects>/{id}/ownership` with the transfer's id and the object's own transfer token then gives
 * the object to that broker: the object's token and transfer token become the transfer's (hashes copied, never the
 * clear values), and the transfer records the object's path in `usedFor`.
 */
export interface Transfer extends JsonRecord {
  id: string;
  owner: string;
  date: string;
  /** The object's path without the API prefix (`/lots/<id>`), once used. */
  usedFor?: string;
}

/** Where an object keeps its transfer token's hash (server-only state, never shown). */
export interface TransferInternal extends JsonRecord {
  transferTokenHash?: string;
}

/** The upstream view role: `id`, `date`, `usedFor`; the owner and the hashes are never shown. */
export const transferView = (t: Transfer): JsonRecord => ({
  id: t.id,
  date: t.date,
  ...(t.usedFor && { usedFor: t.usedFor }),
});

/** A new transfer token for an object being created: its hash goes into the object's `internal`. */
export function newTransferToken(): { transfer: string; internal: TransferInternal } {
  const transfer = newToken();
  return { transfer, internal: { transferTokenHash: sha256(transfer) } };
}

export interface TransfersContext {
  principal: Principal;
  now: Micros;
  transfers: AggregateRepository<Transfer>;
}

/** POST /transfers by a broker: the new transfer and, once, its owner token and transfer token (`id`: as createLot's). */
export async function createTransfer(
  ctx: TransfersContext,
  id: string = newId(),
): Promise<{ transfer: JsonRecord; token: string; transferToken: string }> {
  if (ctx.principal.role !== 'broker') throw new PermissionError();
  const token = newToken();
  const { transfer: transferToken, internal } = newTransferToken();
  const transfer: Transfer = { id, owner: ctx.principal.name, date: formatKyiv(ctx.now) };
  await ctx.transfers.create(
    { id: transfer.id, root: transfer, tokenHash: sha256(token), internal, children: [] },
    authorOf(ctx.principal),
  );
  return { transfer: transferView(transfer), token, transferToken };
}

export async function getTransfer(ctx: Pick<TransfersContext, 'transfers'>, id: string): Promise<JsonRecord> {
  const found = await ctx.transfers.get(id);
  if (!found) throw new NotFoundError('transfer_id');
  return transferView(found.root);
}

/** The body of an ownership request: `id` (the transfer) and `transfer` (the object's transfer token), both required. */
export function readOwnershipData(data: JsonRecord): { id: string; transfer: string } {
  const missing = ['id', 'transfer'].filter((f) => !data[f]);
  if (missing.length)
    throw new UnprocessableError(
      missing.map((name) => ({ location: 'body', name, description: 'This field is required.' })),
    );
  const wrong = ['id', 'transfer'].filter((f) => typeof data[f] !== 'string');
  if (wrong.length)
    throw new UnprocessableError(
      wrong.map((name) => ({ location: 'body', name, description: ['Value must be of type string.'] })),
    );
  return { id: String(data.id), transfer: String(data.transfer) }; // both proven strings just above
}

const NOT_PERMITTED = 'Broker Accreditation level does not permit ownership change';

/**
 * What an ownership change finds: a draft is there for who may read it and for who holds its transfer token (the
 * one who may take it over); to anyone else it is not there (404 at `notFound`, as an unknown id), checked before
 * the transfer is read, so the answer and its cost are an unknown id's.
 */
export const draftFoundBy =
  (principal: Principal, data: { transfer: string }, notFound: string) =>
  (object: Aggregate<{ status?: unknown; owner?: unknown }>): void => {
    if (object.root.status !== 'draft' || readsDraft(principal, object.root.owner)) return;
    const internal: TransferInternal = isObject(object.internal) ? object.internal : {};
    if (!tokenMatches(data.transfer, internal.transferTokenHash)) throw new NotFoundError(notFound);
  };

/** What an object needs to be taken over: its create level, its `mode`, where it lives. */
export interface OwnershipTarget {
  /** The accreditation level that creates objects of its type (upstream checks the create level). */
  level: string;
  mode?: unknown;
  /** `/lots/<id>`: recorded in the transfer's `usedFor`. */
  location: string;
}

/**
 * The pure decision of an ownership change, in upstream's order: the broker's accreditation for the object's type
 * (a test-only broker takes only test objects), the object's transfer token ("Invalid transfer"), the transfer
 * itself (404), not used for another object ("Transfer already used"; the same object again is allowed, so a retry
 * after a lost answer succeeds), and, ours, created by this very broker. Returns the two changes to write together.
 */
export function decideOwnership<T extends object>(
  principal: Principal,
  now: Micros,
  target: OwnershipTarget,
  object: Aggregate<T>,
  transfer: Aggregate<Transfer> | undefined,
  data: { id: string; transfer: string },
): { object: Change<T>; transfer: Change<Transfer> } {
  if (principal.role !== 'broker') throw new PermissionError();
  if (!principal.levels.includes(target.level)) throw new ForbiddenError(NOT_PERMITTED);
  if (target.mode !== 'test' && principal.levels.includes('t')) throw new ForbiddenError(NOT_PERMITTED);
  const internal: TransferInternal = isObject(object.internal) ? object.internal : {};
  if (!tokenMatches(data.transfer, internal.transferTokenHash))
    throw new ForbiddenError('Invalid transfer', 'transfer');
  if (!transfer) throw new NotFoundError('transfer_id');
  if (transfer.root.usedFor && transfer.root.usedFor !== target.location)
    throw new ForbiddenError('Transfer already used', 'transfer');
  if (transfer.root.owner !== principal.name)
    throw new ForbiddenError('Transfer was created by another broker', 'transfer');
  const at = formatKyiv(now);
  return {
    object: {
      root: { ...object.root, owner: principal.name, dateModified: at },
      tokenHash: transfer.tokenHash,
      internal: { ...internal, transferTokenHash: transfer.internal?.transferTokenHash },
    },
    transfer: { root: { ...transfer.root, usedFor: target.location, date: at } },
  };
}
