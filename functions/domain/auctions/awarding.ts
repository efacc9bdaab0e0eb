import { ForbiddenError, NotFoundError, UnprocessableError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { pick, type JsonObject } from '../kernel/objects.ts';
import { formatKyiv, parseInstant, type Micros } from '../kernel/time.ts';
import { compileCheck } from '../kernel/validation.ts';
import { currentDocuments } from '../documents/documents.ts';
import type { Child } from '../kernel/aggregate.ts';
import { childKey, childrenOf, documentScope, putChild, type AuctionParts, type Working } from './auction.ts';
import { bidChild, bidRecords, type Bid } from './bids.ts';

/**
 * Awarding and contracting shared by the auction types (upstream awarding v3, reduced to the states the contract
 * shows): the best bid gets a `pending` award; the auction owner loads the auction protocol and activates it,
 * which creates a `pending` contract; the owner sets `dateSigned`, then activates the contract: auction `complete`.
 */
export const AWARD = 'AWARD';
export const CONTRACT = 'CONTRACT';

/** Upstream: the organizer has 4 days to load the protocol; shown as the award's verification period. */
const VERIFICATION_DAYS = 4;
const DAY: Micros = 86_400_000_000;

const stamp = (w: Working, now: Micros) => {
  const at = formatKyiv(now);
  w.root = { ...w.root, dateModified: at };
  return at;
};

/** Active bids ranked for `highestCost`: highest amount first, earlier bid first on a tie. */
export function rankBids(bids: Bid[]): Bid[] {
  return bids
    .filter((b) => b.status === 'active')
    .sort((a, b) => (b.value?.amount ?? 0) - (a.value?.amount ?? 0) || (parseInstant(a.date) ?? 0) - (parseInstant(b.date) ?? 0));
}

/** Starts qualification: the best active bid gets a `pending` award. */
export function startAwarding(w: Working, now: Micros): void {
  const at = stamp(w, now);
  const [best] = rankBids(bidRecords(w.children).map((r) => r.bid));
  w.root = { ...w.root, status: 'active.qualification', date: at, awardPeriod: { startDate: at } };
  if (!best) return;
  const award = {
    id: newId(),
    bid_id: best.id,
    status: 'pending',
    suppliers: best.tenderers,
    value: best.value,
    date: at,
    verificationPeriod: { startDate: at, endDate: formatKyiv(now + VERIFICATION_DAYS * DAY) },
    signingPeriod: { startDate: at },
    complaintPeriod: { startDate: at },
  };
  putChild(w, { key: childKey(AWARD, award.id), entity: 'award', data: award });
}

function view(a: AuctionParts, kind: string, child: Child): JsonObject {
  const documents = currentDocuments(a.children, documentScope(kind, child.data.id));
  return documents.length ? { ...child.data, documents } : child.data;
}

export const awardsOf = (a: AuctionParts) => childrenOf(a.children, AWARD).map((c) => view(a, AWARD, c));
export const contractsOf = (a: AuctionParts) => childrenOf(a.children, CONTRACT).map((c) => view(a, CONTRACT, c));

function find(a: AuctionParts, kind: string, id: string, notFound: string): Child {
  const found = childrenOf(a.children, kind).find((c) => c.data.id === id);
  if (!found) throw new NotFoundError(notFound);
  return found;
}

export const findAward = (a: AuctionParts, id: string) => find(a, AWARD, id, 'award_id');
export const findContract = (a: AuctionParts, id: string) => find(a, CONTRACT, id, 'contract_id');
export const awardView = (a: AuctionParts, id: string) => view(a, AWARD, findAward(a, id));
export const contractView = (a: AuctionParts, id: string) => view(a, CONTRACT, findContract(a, id));

function assertQualification(w: Working, what: string): void {
  if (w.root.status !== 'active.qualification') {
    throw new ForbiddenError(`Can't ${what} in current (${w.root.status}) auction status`);
  }
}

/** Award documents (the auction protocol) are the auction owner's, during qualification. */
export function assertAwardDocumentsWritable(w: Working, awardId: string): void {
  assertQualification(w, 'add document');
  const award = findAward(w, awardId);
  if (!['pending', 'active'].includes(award.data.status)) {
    throw new ForbiddenError(`Can't update award in current (${award.data.status}) status`);
  }
}

/** The owner's PATCH of an award: only `pending` → `active`, after the auction protocol; creates the contract. */
export function patchAward(w: Working, awardId: string, data: JsonObject, now: Micros): void {
  assertQualification(w, 'update award');
  const child = findAward(w, awardId);
  const award = child.data;
  const target = data.status;
  if (target === undefined || target === award.status) return;
  if (award.status !== 'pending') throw new ForbiddenError(`Can't update award in current (${award.status}) status`);
  if (target !== 'active') throw new ForbiddenError(`Can't switch award (${award.status}) status to (${target}) status`);
  const protocol = currentDocuments(w.children, documentScope(AWARD, awardId)).some(
    (d) => d.documentType === 'auctionProtocol' && d.author === 'auction_owner',
  );
  if (!protocol) throw new ForbiddenError("Can't switch award status to (active) before auction owner load auction protocol");
  const at = stamp(w, now);
  putChild(w, { ...child, data: { ...award, status: 'active', date: at, verificationPeriod: { ...award.verificationPeriod, endDate: at } } });
  const n = childrenOf(w.children, CONTRACT).length + 1;
  const contract = {
    id: newId(),
    contractID: `${w.root.auctionID}-${n}`,
    awardID: award.id,
    status: 'pending',
    suppliers: award.suppliers,
    items: w.root.items ?? [],
    value: award.value,
    date: at,
    signingPeriod: { startDate: at },
  };
  putChild(w, { key: childKey(CONTRACT, contract.id), entity: 'contract', data: contract });
  w.root = { ...w.root, awardPeriod: { ...w.root.awardPeriod, endDate: at } };
}

const checkContractPatch = compileCheck({
  type: 'object',
  additionalProperties: false,
  properties: { dateSigned: { type: 'string', format: 'date-time' }, status: { enum: ['pending', 'active'] } },
});

/** The owner's PATCH of a contract: `dateSigned`, then `status: active`, which completes the auction. */
export function patchContract(w: Working, contractId: string, data: JsonObject, now: Micros): void {
  assertQualification(w, 'update contract');
  const child = findContract(w, contractId);
  const contract = child.data;
  if (contract.status !== 'pending') throw new ForbiddenError(`Can't update contract in current (${contract.status}) status`);
  const patch = pick(data, ['dateSigned', 'status']);
  checkContractPatch(patch);
  if (patch.dateSigned !== undefined && parseInstant(patch.dateSigned)! > now) {
    throw UnprocessableError.field('dateSigned', "Contract signature date can't be in the future");
  }
  const next = { ...contract, ...patch, ...(patch.dateSigned && { dateSigned: formatKyiv(parseInstant(patch.dateSigned)!) }) };
  if (next.status === 'active' && !next.dateSigned) {
    throw new ForbiddenError("Can't switch contract status to (active) before dateSigned is set");
  }
  const at = stamp(w, now);
  putChild(w, { ...child, data: next });
  if (next.status === 'active') w.root = { ...w.root, status: 'complete', date: at };
}

/** Records the auction system's results on the bids: each reported bid takes its final value. */
export function recordResults(w: Working, results: JsonObject[], now: Micros): void {
  const at = formatKyiv(now);
  for (const { bid, child } of bidRecords(w.children)) {
    const reported = results.find((r) => r.id === bid.id);
    if (!reported) continue;
    putChild(w, bidChild({ ...bid, value: { ...bid.value, ...reported.value } }, child.internal?.tokenHash));
  }
  w.root = { ...w.root, auctionPeriod: { ...w.root.auctionPeriod, endDate: at } };
}

