import { ForbiddenError, NotFoundError, PermissionError, UnprocessableError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { isOneOf, omit, pick, sameJson, type JsonRecord } from '../kernel/objects.ts';
import { declare, multilingual, name, schemaOf, serverSet, writable } from '../protocol/model.ts';
import { periodSchema } from '../protocol/parts.ts';
import { requestedStatus } from '../kernel/status-graph.ts';
import { formatKyiv, parseInstant, type Micros } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import { currentDocuments, type DocumentRecord } from '../documents/documents.ts';
import type { AuctionResults, AwardPatch, ContractPatch } from '../schemas/generated/request-types.ts';
import { accelerator, awardPeriods, prolongedSigningEnd, type Timing } from '../calendar/periods.ts';
import type { Child } from '../kernel/aggregate.ts';
import {
  childPlace,
  childrenOf,
  documentScope,
  putChild,
  putWithin,
  type Auction,
  type AuctionParts,
  type AuctionStatus,
  type Period,
  type SharedStatus,
  type Working,
} from './auction.ts';
import { bidChild, bidRecords, type Bid } from './bids.ts';
import { PROLONGATION_DAYS, prolongationsOf, type ProlongationView } from './prolongations.ts';
import type { EventContext, TimedEvent } from './timed-events.ts';

/**
 * Awarding and contracting shared by the auction types (upstream awarding v3, reduced to the states the contract
 * shows): the best bid gets a `pending` award; the auction owner loads the auction protocol and activates it,
 * which creates a `pending` contract; the owner sets `dateSigned`, then activates the contract: auction `complete`.
 */
export const AWARD = 'AWARD';
export const CONTRACT = 'CONTRACT';

/** Every status an award can have under any type's rules (upstream awarding v3); the rules' graphs use these. */
export const AWARD_STATUSES = ['pending', 'pending.waiting', 'active', 'unsuccessful', 'cancelled'] as const;
export type AwardStatus = (typeof AWARD_STATUSES)[number];

/** A contract is pending until signed and activated; cancelled when its award fails. */
export type ContractStatus = 'pending' | 'active' | 'cancelled';

/** Money as awards and contracts carry it: the bid's amount in the auction's currency, with its VAT flag. */
export interface AwardValue {
  amount?: number;
  currency: string;
  valueAddedTaxIncluded: boolean;
}

/** A period that opens with its record and closes (`endDate`) when the outcome is known. */
export interface OpenPeriod {
  startDate: string;
  endDate?: string;
}

/**
 * An award (interface.md §2.6): every field is the server's (no client creates one; a PATCH only asks for a status,
 * which `patchAward` reads by the rules' graph).
 */
export type Award = {
  id: string;
  bid_id: string;
  status: AwardStatus;
  suppliers: Bid['tenderers'];
  value: AwardValue;
  date: string;
  complaintPeriod: OpenPeriod;
  /** The protocol must be loaded and the award activated within it (a `pending` award). */
  verificationPeriod?: Period;
  /** The contract must be signed within it (copied onto the contract). */
  signingPeriod?: Period;
};

/** The server's own fields of a contract. */
type ContractServer = {
  id: string;
  contractID: string;
  awardID: string;
  status: ContractStatus;
  suppliers: Award['suppliers'];
  items: NonNullable<Auction['items']>;
  value: AwardValue;
  date: string;
  signingPeriod: OpenPeriod;
};

/**
 * A contract: the fields the owner's PATCH may set (`dateSigned`; generated from the schema its check uses) and the
 * server's.
 */
export type Contract = Omit<ContractPatch, keyof ContractServer> & ContractServer;

/** Awards and contracts as GET shows them: with their documents (current versions) when they have any. */
export type AwardView = Award & { documents?: DocumentRecord[] };
export type ContractView = Contract & { documents?: DocumentRecord[]; prolongations?: ProlongationView[] };

/**
 * What differs between the types' awarding, as data (upstream awarding v3 is the richest; landlease uses a subset):
 * the award status graph, whether every ranked bid gets an award (`pending.waiting` behind the first), the auction
 * status while an award is active, and the statuses in which awards and contracts may change.
 */
export interface AwardingRules {
  /** Award status → the statuses the auction owner (or, for `byBidder`, the bid's owner) may move it to. */
  transitions: Readonly<Partial<Record<AwardStatus, readonly AwardStatus[]>>>;
  /** Moves only the bid's owner may make (from → to), e.g. cancelling a `pending.waiting` award. */
  byBidder: Readonly<Partial<Record<AwardStatus, AwardStatus>>>;
  /** Every ranked bid gets an award: the first `pending`, the rest `pending.waiting`. */
  chain: boolean;
  /** Auction statuses in which awards (and their documents) may change. */
  awardStatuses: readonly AuctionStatus[];
  /** The auction status once an award is active (and a contract pending): one every type has. */
  awardedStatus: SharedStatus;
  /** Auction statuses in which contracts may change. */
  contractStatuses: readonly AuctionStatus[];
  /**
   * Whose `auctionProtocol` lets a pending award become active: v3 (dgfInsider) only the auction owner's; v3.1
   * (landlease) any, the winner's too (upstream `check_document_existence`): `null`.
   */
  protocolAuthor: string | null;
  /**
   * Document types one of which the award must carry before the owner makes it `unsuccessful` (v3.1, landlease:
   * a `rejectionProtocol` or an `act`); empty: no document needed (v3).
   */
  rejectionDocuments: readonly string[];
  /**
   * What the contract model's documents may be: the `documentType` values its document class allows (one sent without
   * a type stays untyped) and those its list refuses, each with the refusal's text; `null`: any type.
   */
  contractDocuments: ContractDocumentRules | null;
}

export interface ContractDocumentRules {
  types: readonly string[];
  refused: Readonly<Record<string, string>>;
}

/**
 * Award documents (upstream awarding v3 / v3.1 `validate_award_document`): only while the auction is in
 * qualification, whatever the award's status; contract documents (contracting `validate_contract_document`):
 * while the auction is in qualification or awarded and the contract pending or active.
 */
const AWARD_DOCUMENT_STATUSES = ['active.qualification'];
const CONTRACT_DOCUMENT_STATUSES = ['active.qualification', 'active.awarded'];
const CONTRACT_DOCUMENT_CONTRACT_STATUSES = ['pending', 'active'];

/** Every status an award of these rules can have. */
const awardStatuses = (rules: AwardingRules): AwardStatus[] => [
  ...new Set(
    Object.entries(rules.transitions).flatMap(([from, to]) => (isOneOf(AWARD_STATUSES, from) ? [from, ...to] : to)),
  ),
];

/**
 * Landlease: one award for the best bid; pending → active (or unsuccessful), which makes the auction `active.awarded` (upstream GEB's
 * status between qualification and signing) until the contract is activated (complete).
 */
export const SINGLE_AWARD: AwardingRules = {
  // v3.1: an active award is final; a pending one fails on the owner's rejection protocol or act (then, with no
  // award left to qualify, the auction is unsuccessful).
  transitions: { pending: ['active', 'unsuccessful'] },
  byBidder: {},
  rejectionDocuments: ['rejectionProtocol', 'act'],
  chain: false,
  awardStatuses: ['active.qualification', 'active.awarded'],
  awardedStatus: 'active.awarded',
  contractStatuses: ['active.awarded'],
  protocolAuthor: null,
  // Not settled from the GEB model yet (AC contracting v3.1 contractV3_1Document has its own list): as before.
  contractDocuments: null,
};

const stamp = (w: Working, now: Micros) => {
  const at = formatKyiv(now);
  w.root = { ...w.root, dateModified: at };
  return at;
};

/** Active bids ranked for `highestCost`: highest amount first, earlier bid first on a tie. */
export function rankBids(bids: Bid[]): Bid[] {
  return bids
    .filter((b) => b.status === 'active')
    .sort(
      (a, b) =>
        (b.value?.amount ?? 0) - (a.value?.amount ?? 0) || (parseInstant(a.date) ?? 0) - (parseInstant(b.date) ?? 0),
    );
}

/**
 * The periods a `pending` award gets when its turn comes (calendar/periods.ts `awardPeriods`, accelerated in the
 * sandbox): the protocol must be loaded and the award activated by the end of `verificationPeriod`, the contract
 * signed by the end of `signingPeriod`; both count from now, as upstream v3.
 */
function pendingPeriods(w: Working, at: string, { now, calendar }: Timing) {
  const { verificationEnd, signingEnd } = awardPeriods({
    now,
    calendar,
    accelerator: accelerator(w.root.procurementMethodDetails, w.root.mode),
  });
  return {
    verificationPeriod: { startDate: at, endDate: formatKyiv(verificationEnd) },
    signingPeriod: { startDate: at, endDate: formatKyiv(signingEnd) },
  };
}

/**
 * An award's value: the bid's amount in the auction's money (upstream awards carry a full Value; a dgfInsider bid
 * reported by the auction system has only its amount).
 */
function awardValue(w: Working, bid: Bid): AwardValue {
  const { currency = 'UAH', valueAddedTaxIncluded = true } = w.root.value ?? {};
  return {
    amount: bid.value?.amount,
    currency: bid.value?.currency ?? currency,
    valueAddedTaxIncluded: bid.value?.valueAddedTaxIncluded ?? valueAddedTaxIncluded,
  };
}

/** The award's complaint period closes when its outcome is known (activated, disqualified, cancelled), as upstream. */
const closeComplaints = (award: Award, at: string) => ({
  complaintPeriod: { ...award.complaintPeriod, endDate: at },
});

/**
 * Starts qualification (or, with no active bid, ends the auction unsuccessful): the best active bid gets a `pending` award; with `chain`, every other ranked bid gets a
 * `pending.waiting` award behind it (upstream v3 `create_awards`), in rank order. As many awards as one write holds
 * (`w.more` when some are left): bids that have their award already are skipped, and the auction moves to
 * qualification with the last of them, so a run that stops midway resumes where it stopped.
 */
export function startAwarding(w: Working, timing: Timing, rules: AwardingRules): void {
  const at = formatKyiv(timing.now);
  const ranked = rankBids(bidRecords(w.children).map((r) => r.bid));
  // No bid left active (nobody took a Dutch step, every bid invalid): nothing to qualify, the auction is unsuccessful
  // (upstream INS `collection_post` of the auction results: `pendify_auction_status('unsuccessful')`).
  if (!ranked.length) {
    w.root = { ...w.root, status: 'unsuccessful', date: at, dateModified: at };
    return;
  }
  const awarded = new Set(awardsIn(w.children).map((a) => a.bid_id));
  for (const [rank, bid] of (rules.chain ? ranked : ranked.slice(0, 1)).entries()) {
    if (awarded.has(bid.id)) continue;
    const award: Award = {
      id: newId(),
      bid_id: bid.id,
      status: rank === 0 ? 'pending' : 'pending.waiting',
      suppliers: bid.tenderers,
      value: awardValue(w, bid),
      date: at,
      // Every award is open to complaints from its creation (upstream `create_awards`).
      complaintPeriod: { startDate: at },
      ...(rank === 0 && pendingPeriods(w, at, timing)),
    };
    // The rank is kept beside the award (ids are random): awards are shown, and waiting ones promoted, in rank order.
    if (!putWithin(w, { place: childPlace(AWARD, award.id), entity: 'award', data: award, internal: { rank } })) return;
  }
  w.root = { ...w.root, status: 'active.qualification', date: at, dateModified: at, awardPeriod: { startDate: at } };
}

function view<D extends Award | Contract>(
  a: AuctionParts,
  kind: string,
  child: Child<D>,
): D & { documents?: DocumentRecord[] } {
  const documents = currentDocuments(a.children, documentScope(kind, child.data.id));
  return documents.length ? { ...child.data, documents } : child.data;
}

// The children of kind AWARD (CONTRACT) are the awards (contracts) this file writes.
const awardChildren = (children: readonly Child[]) => childrenOf<Award>(children, AWARD);
const contractChildren = (children: readonly Child[]) => childrenOf<Contract>(children, CONTRACT);

/** The awards among an auction's children (without their documents). */
export const awardsIn = (children: readonly Child[]): Award[] => awardChildren(children).map((c) => c.data);

const rankOf = (c: Child): number => c.internal?.rank ?? 0;
const rankedAwards = (a: AuctionParts): Child<Award>[] =>
  [...awardChildren(a.children)].sort((x, y) => rankOf(x) - rankOf(y));

export const awardsOf = (a: AuctionParts): AwardView[] => rankedAwards(a).map((c) => view(a, AWARD, c));
/** A contract with its documents and, when it has any, its prolongations (contracting v3). */
const contractWithProlongations = (a: AuctionParts, c: Child<Contract>): ContractView => {
  const prolongations = prolongationsOf(a, c.data.id);
  return prolongations.length ? { ...view(a, CONTRACT, c), prolongations } : view(a, CONTRACT, c);
};
export const contractsOf = (a: AuctionParts): ContractView[] =>
  contractChildren(a.children).map((c) => contractWithProlongations(a, c));

function find<D extends Award | Contract>(children: Child<D>[], id: string, notFound: string): Child<D> {
  const found = children.find((c) => c.data.id === id);
  if (!found) throw new NotFoundError(notFound);
  return found;
}

export const findAward = (a: AuctionParts, id: string) => find(awardChildren(a.children), id, 'award_id');
export const findContract = (a: AuctionParts, id: string) => find(contractChildren(a.children), id, 'contract_id');
export const awardView = (a: AuctionParts, id: string) => view(a, AWARD, findAward(a, id));
export const contractView = (a: AuctionParts, id: string) => contractWithProlongations(a, findContract(a, id));

function assertAuctionStatus(w: Working, allowed: readonly string[], what: string): void {
  if (!allowed.includes(w.root.status)) {
    throw new ForbiddenError(`Can't ${what} in current (${w.root.status}) auction status`);
  }
}

/**
 * Who adds an award document, as its `author` (upstream: the authenticated role): the auction owner, or the owner of
 * the awarded bid (the winner signs the auction protocol too; only the owner's protocol lets the award become
 * active). Anyone else: 403.
 */
export function awardDocumentAuthor(w: Working, awardId: string, actor: AwardActor): 'auction_owner' | 'bid_owner' {
  const award = findAward(w, awardId);
  const author = actor.auctionOwner ? 'auction_owner' : actor.bidOwner(award.data.bid_id) ? 'bid_owner' : undefined;
  if (!author) throw new PermissionError();
  return author;
}

/** Award documents are added or updated only while the auction is in qualification (checked after the document, as upstream). */
export const assertAwardDocumentsOpen = (w: Working, operation: 'add' | 'update' = 'add'): void =>
  assertAuctionStatus(w, AWARD_DOCUMENT_STATUSES, `${operation} document`);

/** Only the role that added an award document may upload its new versions (upstream: checked after the auction status). */
export function assertAwardDocumentAuthor(previousAuthor: unknown, author: string): void {
  if (previousAuthor !== author) throw new ForbiddenError('Can update document only author', 'role', 'url');
}

/**
 * Contract documents are the auction owner's (the caller checks that), while the contract may still be signed
 * (checked after the document itself, as upstream).
 */
export function assertContractDocumentsWritable(w: Working, contractId: string, operation: 'add' | 'update'): void {
  assertAuctionStatus(w, CONTRACT_DOCUMENT_STATUSES, `${operation} document`);
  const contract = findContract(w, contractId);
  if (!CONTRACT_DOCUMENT_CONTRACT_STATUSES.includes(contract.data.status)) {
    throw new ForbiddenError(`Can't ${operation} document in current contract status`);
  }
}

/**
 * A contract document's `documentType` as the type's contract model allows it (upstream: the document is validated
 * against the contract's document class before the statuses are checked; the refused types fail the contract's
 * `documents` validator).
 */
export function assertContractDocumentType(documentType: unknown, rules: AwardingRules): void {
  const allowed = rules.contractDocuments;
  if (!allowed || documentType === undefined) return;
  if (typeof documentType !== 'string' || !allowed.types.includes(documentType))
    throw UnprocessableError.field(
      'documentType',
      `Value must be one of [${allowed.types.map((t) => `'${t}'`).join(', ')}].`,
    );
  const refusal = allowed.refused[documentType];
  if (refusal) throw UnprocessableError.field('documents', refusal);
}

/** Who is changing an award: the auction owner, the owner of the awarded bid, both or neither. */
export interface AwardActor {
  auctionOwner: boolean;
  bidOwner(bidId: string): boolean;
}

/**
 * A PATCH of an award's `status`, by the type's award graph (upstream v3 `change_award` texts):
 * - pending → active: after the owner's `auctionProtocol`; creates the contract; the auction becomes awarded;
 * - pending/active → unsuccessful: refused once the contract is signed; the contract is cancelled and the next
 *   waiting award becomes pending, or, with none left, the auction is unsuccessful;
 * - pending.waiting → cancelled: only by the bid's owner.
 */
export function patchAward(
  w: Working,
  awardId: string,
  data: JsonRecord,
  timing: Timing,
  rules: AwardingRules,
  actor?: AwardActor,
): void {
  const sent = writable(awardModel, data, [...AWARD_EDITS, 'status']);
  const child0 = findAward(w, awardId);
  const byBidder = rules.byBidder[child0.data.status];
  const bidOwner = actor?.bidOwner(child0.data.bid_id) ?? false;
  if (actor && !actor.auctionOwner && !(byBidder && bidOwner)) throw new PermissionError();
  assertAuctionStatus(w, rules.awardStatuses, 'update award');
  checkAwardPatch(omit(sent, ['status']));
  // The owner's title and description go on the award whatever its status does (the bidder writes only the status).
  const edits = !actor || actor.auctionOwner ? pick(sent, AWARD_EDITS) : {};
  const child: Child<Award> = { ...child0, data: { ...child0.data, ...edits } };
  const award = child.data;
  if (Object.keys(edits).length > 0 && !sameJson(award, child0.data)) putChild(w, child);
  const target = requestedStatus(data, awardStatuses(rules));
  if (target === undefined || target === award.status) return;
  const allowed = rules.transitions[award.status];
  if (!allowed) throw new ForbiddenError(`Can't update award in current (${award.status}) status`);
  if (!isOneOf(allowed, target))
    throw new ForbiddenError(`Can't switch award (${award.status}) status to (${target}) status`);
  if (byBidder === target && actor && !bidOwner) {
    throw new ForbiddenError(`Only bid owner may cancel award in current (${award.status}) status`);
  }
  if (actor && !actor.auctionOwner && byBidder !== target) throw new PermissionError();
  const at = stamp(w, timing.now);
  if (target === 'active') activateAward(w, child, at, rules);
  else if (target === 'unsuccessful') {
    assertRejectionDocument(w, award.id, rules);
    disqualify(w, child, at, timing);
  } else putChild(w, { ...child, data: { ...award, status: target, date: at, ...closeComplaints(award, at) } });
}

function activateAward(w: Working, child: Child<Award>, at: string, rules: AwardingRules): void {
  const award = child.data;
  const protocol = currentDocuments(w.children, documentScope(AWARD, award.id)).some(
    (d) => d.documentType === 'auctionProtocol' && (rules.protocolAuthor === null || d.author === rules.protocolAuthor),
  );
  if (!protocol)
    throw new ForbiddenError("Can't switch award status to (active) before auction owner load auction protocol");
  putChild(w, {
    ...child,
    data: {
      ...award,
      status: 'active',
      date: at,
      ...(award.verificationPeriod && { verificationPeriod: { ...award.verificationPeriod, endDate: at } }),
      ...closeComplaints(award, at),
    },
  });
  const n = contractChildren(w.children).length + 1;
  const contract: Contract = {
    id: newId(),
    contractID: `${w.root.auctionID}-${n}`,
    awardID: award.id,
    status: 'pending',
    suppliers: award.suppliers,
    items: w.root.items ?? [],
    value: award.value,
    date: at,
    // The contract is signed within the award's signing period (upstream v3 copies it onto the contract).
    signingPeriod: award.signingPeriod ?? { startDate: at },
  };
  putChild(w, { place: childPlace(CONTRACT, contract.id), entity: 'contract', data: contract });
  w.root = {
    ...w.root,
    awardPeriod: { startDate: w.root.awardPeriod?.startDate ?? at, endDate: at },
    ...(w.root.status !== rules.awardedStatus && { status: rules.awardedStatus, date: at }),
  };
}

/** Upstream v3.1 `check_document_existence`: any author's document of one of the rule's types will do. */
function assertRejectionDocument(w: Working, awardId: string, rules: AwardingRules): void {
  const types = rules.rejectionDocuments;
  if (!types.length) return;
  if (!currentDocuments(w.children, documentScope(AWARD, awardId)).some((d) => isOneOf(types, d.documentType))) {
    throw new ForbiddenError(
      "Can't switch award status to (unsuccessful) before auction owner load reject protocol or act",
    );
  }
}

/** The award fails: its contract (if any) is cancelled and the next waiting award takes its turn. */
function disqualify(w: Working, child: Child<Award>, at: string, timing: Timing): void {
  const award = child.data;
  const contracts = contractChildren(w.children).filter(
    (c) => c.data.awardID === award.id && c.data.status !== 'cancelled',
  );
  if (contracts.some((c) => c.data.dateSigned)) {
    throw new ForbiddenError('You cannot disqualify the bidder the contract for whom has already been downloaded.');
  }
  for (const c of contracts) putChild(w, { ...c, data: { ...c.data, status: 'cancelled' } });
  // The period the award failed in ends now (upstream: verification for a pending award, signing for an active one).
  const failedIn =
    award.status === 'pending' ? 'verificationPeriod' : award.status === 'active' ? 'signingPeriod' : undefined;
  const failedPeriod = failedIn && award[failedIn];
  putChild(w, {
    ...child,
    data: {
      ...award,
      status: 'unsuccessful',
      date: at,
      ...(failedIn && failedPeriod && { [failedIn]: { ...failedPeriod, endDate: at } }),
      ...closeComplaints(award, at),
    },
  });
  const next = rankedAwards(w).find((c) => c.data.status === 'pending.waiting');
  if (next) {
    putChild(w, { ...next, data: { ...next.data, status: 'pending', date: at, ...pendingPeriods(w, at, timing) } });
    w.root = {
      ...w.root,
      status: 'active.qualification',
      date: at,
      awardPeriod: { startDate: w.root.awardPeriod?.startDate ?? at },
    };
  } else {
    w.root = {
      ...w.root,
      status: 'unsuccessful',
      date: at,
      awardPeriod: { startDate: w.root.awardPeriod?.startDate ?? at, endDate: at },
    };
  }
}

/** An award (AC plugins/awarding/v3/models.py Award on AC models/schema.py Award). */
export const awardModel = declare({
  source: 'AC plugins/awarding/v3/models.py Award; AC models/schema.py Award',
  fields: {
    ...Object.fromEntries(
      [
        'id',
        'bid_id',
        'lotID',
        'date',
        'value',
        'suppliers',
        'items',
        'documents',
        'complaints',
        'complaintPeriod',
        'verificationPeriod',
        'signingPeriod',
        'paymentPeriod',
      ].map((f) => [f, serverSet]),
    ),
    ...multilingual('title', name()),
    ...multilingual('description'),
    status: { enum: ['pending', 'active', 'unsuccessful', 'cancelled'] },
  },
});
/** What the owner edits on an award besides its status (insider `award-active-disqualify.http`). */
const AWARD_EDITS = ['title', 'title_en', 'title_ru', 'description', 'description_en', 'description_ru'] as const;
export const awardPatchSchema = schemaOf(awardModel, { only: [...AWARD_EDITS, 'status'] });
const checkAwardPatch: CheckOf<AwardPatch> = (data) => checkWith('awardPatch', awardPatchSchema, data);

/** A contract (AC plugins/contracting/v3/models.py Contract on AC models/schema.py Contract). */
export const contractModel = declare({
  source: 'AC plugins/contracting/v3/models.py Contract; AC models/schema.py Contract',
  fields: {
    ...Object.fromEntries(
      [
        'id',
        'awardID',
        'contractID',
        'contractNumber',
        'value',
        'items',
        'suppliers',
        'date',
        'documents',
        'complaints',
        'signingPeriod',
        'datePaid',
        'prolongations',
        ...['title', 'description'].flatMap((f) => [f, `${f}_en`, `${f}_ru`]),
      ].map((f) => [f, serverSet]),
    ),
    dateSigned: { type: 'string', format: 'date-time' },
    status: { enum: ['pending', 'active'] },
    period: periodSchema,
  },
});
/** What the owner edits on a contract (AC contracting v3 `edit` role, less what Agora sets itself). */
const CONTRACT_EDITS = ['dateSigned', 'status', 'period'] as const;
export const contractPatchSchema = schemaOf(contractModel, { only: CONTRACT_EDITS });
const checkContractPatch: CheckOf<ContractPatch> = (data) => checkWith('contractPatch', contractPatchSchema, data);

/**
 * A prolongation applied (its `nth` on the contract): the contract's signing period ends `PROLONGATION_DAYS[nth - 1]`
 * working days after it started, at 18:00 Kyiv (accelerated in the sandbox); the chronograph's deadline follows it.
 */
export function prolongSigning(w: Working, contractId: string, nth: number, timing: Timing): void {
  const child = findContract(w, contractId);
  const { signingPeriod } = child.data;
  const endDate = prolongedSigningEnd({
    start: parseInstant(signingPeriod.startDate)!,
    days: PROLONGATION_DAYS[nth - 1]!,
    accelerator: accelerator(w.root.procurementMethodDetails, w.root.mode),
    calendar: timing.calendar,
  });
  putChild(w, { ...child, data: { ...child.data, signingPeriod: { ...signingPeriod, endDate: formatKyiv(endDate) } } });
}

/** The owner's PATCH of a contract: `dateSigned`, then `status: active`, which completes the auction. */
export function patchContract(
  w: Working,
  contractId: string,
  data: JsonRecord,
  now: Micros,
  rules: AwardingRules,
): void {
  assertAuctionStatus(w, rules.contractStatuses, 'update contract');
  const child = findContract(w, contractId);
  const contract = child.data;
  if (contract.status !== 'pending')
    throw new ForbiddenError(`Can't update contract in current (${contract.status}) status`);
  const patch = writable(contractModel, data, CONTRACT_EDITS);
  checkContractPatch(patch);
  if (patch.dateSigned !== undefined && parseInstant(patch.dateSigned)! > now) {
    throw UnprocessableError.field('dateSigned', "Contract signature date can't be in the future");
  }
  const next: Contract = {
    ...contract,
    ...patch,
    ...(patch.dateSigned && { dateSigned: formatKyiv(parseInstant(patch.dateSigned)!) }),
  };
  if (next.status === 'active' && !next.dateSigned) {
    throw new ForbiddenError("Can't switch contract status to (active) before dateSigned is set");
  }
  const at = stamp(w, now);
  putChild(w, { ...child, data: next });
  if (next.status === 'active') w.root = { ...w.root, status: 'complete', date: at };
}

/**
 * Records the auction system's results on the bids: each reported bid takes its final value and the date of its
 * last bid (ties go to the earlier date); a bid reported without a value made none and becomes `invalid`. As many as
 * one write holds (`w.more` when some are left; a bid that has its result already is skipped).
 */
export function recordResults(w: Working, results: AuctionResults['bids'], now: Micros): void {
  const reported = new Map(results.map((r) => [r.id, r]));
  for (const { bid, child } of bidRecords(w.children)) {
    const result = reported.get(bid.id);
    if (!result) continue;
    const { value, date } = result;
    const next: Bid = value
      ? { ...bid, value: { ...bid.value, ...value }, ...(date && { date: formatKyiv(parseInstant(date)!) }) }
      : { ...bid, status: 'invalid' };
    if (sameJson(next, bid)) continue;
    if (!putWithin(w, bidChild(next, child.internal?.tokenHash))) return;
  }
  w.root = { ...w.root, auctionPeriod: { ...w.root.auctionPeriod, endDate: formatKyiv(now) } };
}

// ---------------------------------------------------------------------------------------------------- deadlines

/**
 * The award an overdue deadline concerns, and when (upstream v3 `check_award_status`, reference-behaviour.md §7.4):
 * - a `pending` award whose `verificationPeriod` ends before the protocol is loaded and the award activated;
 * - an `active` award whose contract is not signed (no `dateSigned`) by the end of the contract's `signingPeriod`
 *   (the award's, unless a prolongation moved it: upstream `contract_overdue_predicate` reads the contract).
 * A signed contract has no deadline left: only its activation remains, which no clock forces.
 */
function awardDeadlines(a: AuctionParts): { child: Child<Award>; at: Micros }[] {
  const contracts = contractChildren(a.children).map((c) => c.data);
  const deadline = (child: Child<Award>): Micros | undefined => {
    const award = child.data;
    if (award.status === 'pending') return parseInstant(award.verificationPeriod?.endDate ?? '');
    if (award.status !== 'active') return undefined;
    const open = contracts.filter((c) => c.awardID === award.id && c.status === 'pending');
    return open.length && !open.some((c) => c.dateSigned)
      ? parseInstant(open[0]!.signingPeriod.endDate ?? award.signingPeriod?.endDate ?? '')
      : undefined;
  };
  return awardChildren(a.children)
    .map((child) => ({ child, at: deadline(child) }))
    .filter((d): d is { child: Child<Award>; at: Micros } => d.at !== undefined)
    .sort((x, y) => x.at - y.at);
}

/**
 * The chronograph's awarding event, shared by the types: while awards may change, the earliest overdue award
 * becomes `unsuccessful` as if the owner had disqualified it (its contract cancelled; the next waiting award
 * becomes pending with its own periods, or, with none left, the auction is unsuccessful).
 */
export const awardingDeadlines = (rules: AwardingRules): TimedEvent => ({
  name: 'award deadline passes',
  at: (auction, children) =>
    rules.awardStatuses.includes(auction.status)
      ? awardDeadlines({ root: auction, children: [...children] })[0]?.at
      : undefined,
  apply(w: Working, ctx: EventContext) {
    const due = awardDeadlines(w)[0];
    if (!due || due.at > ctx.now) return;
    disqualify(w, due.child, stamp(w, ctx.now), ctx);
  },
});
