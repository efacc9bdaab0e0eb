import type { Aggregate, Child } from '../kernel/aggregate.ts';
import { assertAccreditation } from '../kernel/accreditation.ts';
import { ForbiddenError, PermissionError, UnprocessableError } from '../kernel/errors.ts';
import { newId, newToken, sequenceId, sha256 } from '../kernel/ids.ts';
import { omit, sameJson, type JsonRecord } from '../kernel/objects.ts';
import { authorOf, botAuthor } from '../kernel/principal.ts';
import { withTestTitles } from '../kernel/test-mode.ts';
import { formatKyiv, kyivDate, type Micros } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import { code, declare, list, schemaOf } from '../protocol/model.ts';
import { valueSchema } from '../protocol/parts.ts';
import type { AuctionResults } from '../schemas/generated/request-types.ts';
import {
  currentDocuments,
  newDocument,
  newVersion,
  patchedDocument,
  serverDocument,
  type DocumentRecord,
} from '../documents/documents.ts';
import { documentScope, removeWithBelongings, working, putChild, type Auction, type Working } from './auction.ts';
import {
  assertAwardDocumentAuthor,
  assertAwardDocumentsOpen,
  assertContractDocumentsWritable,
  assertContractDocumentType,
  AWARD,
  awardDocumentAuthor,
  awardView,
  CONTRACT,
  contractView,
  findAward,
  findContract,
  patchAward,
  patchContract,
  prolongSigning,
  recordResults,
  type AwardView,
  type ContractView,
} from './awarding.ts';
import {
  assertBidOwner,
  BID,
  bidChild,
  bidRecords,
  bidView,
  findBid,
  type Bid,
  type ParticipationLinks,
} from './bids.ts';
import { assertOwner, assertStatus, awardActor, change, touch } from './change.ts';
import type { AuctionDefinition } from './definition.ts';
import {
  answered,
  assertQuestionsOpen,
  findQuestion,
  newQuestion,
  publicQuestion,
  type PublicQuestion,
  type Question,
} from './questions.ts';
import { definitionForCreate, definitionOf } from './registry.ts';
import type { AuctionsContext, PeriodsContext } from './context.ts';

import { applyDueEvents, withNextCheck, type EventContext } from './timed-events.ts';
import { auctionModuleView, auctionView, type AuctionView } from './view.ts';
import { fromLotOnCreate } from './from-lot.ts';
import { listed } from './texts.ts';
import {
  addProlongation,
  patchProlongation,
  prolongationDocumentBody,
  prolongationScope,
  prolongationView,
  findProlongation,
  type Prolongation,
  type ProlongationView,
} from './prolongations.ts';
import {
  addCancellation as newCancellation,
  assertCancellationDocumentsWritable,
  CANCELLATION,
  cancellationView,
  patchCancellation,
  type Cancellation,
  type CancellationView,
} from './cancellations.ts';

/** The server fields every type shares; a client sending them is ignored. */
const KERNEL_SERVER_FIELDS = [
  'id',
  'auctionID',
  'owner',
  'date',
  'dateModified',
  'next_check',
  'documents',
  'questions',
  'bids',
  'awards',
  'contracts',
  'cancellations',
];

// ---------------------------------------------------------------------------------------------------- the auction

/**
 * Creates an auction of the type the route's API version serves, in the status its definition starts with.
 * 1. type (415), accreditation, `status` and the client's fields (422) by the definition;
 * 2. numbers it `UA-EA-<Kyiv date>-<n>`; stores the owner and transfer tokens as hashes only.
 * `id`: a new random one, unless the caller chose it (an Idempotency-Key, runtime/idempotency.ts).
 */
export async function createAuction(
  ctx: PeriodsContext,
  data: JsonRecord,
  id: string = newId(),
): Promise<{ auction: AuctionView; token: string; transfer?: string }> {
  const def = definitionForCreate(ctx.type, data.procurementMethodType);
  assertAccreditation(ctx.principal, def.accreditation, 'auction', data.mode);
  const created = def.createStatus(data.status);
  const fromLot = fromLotOnCreate(data);
  const status = fromLot?.status ?? created;
  // An auction from a lot gets its items from the lot's assets (convoy), never from the client.
  const sent = omit(data, [...KERNEL_SERVER_FIELDS, 'status', ...(fromLot ? ['items'] : [])]);
  const fields = { ...def.initialize(sent, ctx), ...(status && { status }) };
  const day = kyivDate(ctx.now);
  const at = formatKyiv(ctx.now);
  // The definition's fields with the kernel's stamps: a record of the definition's type, its status the one the
  // type starts in (`createStatus`) or the shared `pending.verification` (TypeScript cannot pair them across the union).
  const auction = withNextCheck(
    def.events,
    withTestTitles({
      ...fields,
      id,
      auctionID: sequenceId('UA-EA', day, await ctx.sequences.next('auctionID', day)),
      owner: ctx.principal.name,
      date: at,
      dateModified: at,
    } as Auction),
  );
  const token = newToken();
  const transfer = def.transferToken ? newToken() : undefined;
  const documents = def.serverDocuments().map((d) => serverDocument(d, { documentOf: def.documentOf, now: ctx.now }));
  await ctx.auctions.create(
    {
      id: auction.id,
      root: auction,
      tokenHash: sha256(token),
      ...(transfer && { internal: { transferTokenHash: sha256(transfer) } }),
      children: documents.map((d) => d.child),
    },
    authorOf(ctx.principal),
  );
  return {
    auction: documents.length ? { ...auction, documents: documents.map((d) => d.document) } : auction,
    token,
    transfer,
  };
}

/** The owner's PATCH, by the type's rules; an unchanged auction is not written; a status change moves `date`. */
export async function patchAuction(ctx: PeriodsContext, id: string, data: JsonRecord): Promise<AuctionView> {
  const { saved } = await change(ctx, id, (w, def, ctx) => {
    assertOwner(ctx, w);
    const next = withTestTitles(def.ownerPatch(w.root, data, ctx));
    if (sameJson(next, w.root)) return;
    const at = formatKyiv(ctx.now);
    w.root = { ...next, dateModified: at, ...(next.status !== w.root.status && { date: at }) };
  });
  return auctionView(saved);
}

// ---------------------------------------------------------------------------------------------------- documents

function assertDocumentsWritable(ctx: AuctionsContext, w: Working, def: AuctionDefinition): void {
  assertOwner(ctx, w);
  assertStatus(w.root, def.statuses.documents, `Can't add document in current (${w.root.status}) auction status`);
}

export async function addAuctionDocument(ctx: AuctionsContext, id: string, data: JsonRecord): Promise<DocumentRecord> {
  const { result } = await change(ctx, id, (w, def, ctx) => {
    assertDocumentsWritable(ctx, w, def);
    const { document, child } = newDocument(data, {
      id: ctx.createdId,
      author: 'auction_owner',
      documentOf: def.documentOf,
      now: ctx.now,
      files: ctx.files,
    });
    putChild(w, child);
    touch(w, ctx.now);
    return document;
  });
  return result;
}

export async function replaceAuctionDocument(
  ctx: AuctionsContext,
  id: string,
  documentId: string,
  data: JsonRecord,
): Promise<DocumentRecord> {
  const { result } = await change(ctx, id, (w, def, ctx) => {
    assertDocumentsWritable(ctx, w, def);
    const { document, child } = newVersion(w.children, documentId, data, { now: ctx.now, files: ctx.files });
    putChild(w, child);
    touch(w, ctx.now);
    return document;
  });
  return result;
}

// ---------------------------------------------------------------------------------------------------- questions

/** Any broker may ask while the type's statuses and question period allow. */
export async function addQuestion(ctx: AuctionsContext, id: string, data: JsonRecord): Promise<Question> {
  const { result } = await change(ctx, id, (w, def, ctx) => {
    assertQuestionsOpen(w.root, def.statuses.questions, def.questionPeriod, ctx.now, 'add', def.questionRefusal);
    const itemIds = (w.root.items ?? []).flatMap((i) => (typeof i.id === 'string' ? [i.id] : []));
    const child = newQuestion(data, ctx.now, ctx.principal.name, itemIds, def.questionsAbout, ctx.createdId);
    putChild(w, child);
    touch(w, ctx.now);
    return child.data;
  });
  return result;
}

/** The organizer answers, under the same conditions as asking. */
export async function answerQuestion(
  ctx: AuctionsContext,
  id: string,
  questionId: string,
  data: JsonRecord,
): Promise<PublicQuestion> {
  const { result } = await change(ctx, id, (w, def, ctx) => {
    assertOwner(ctx, w);
    const question = findQuestion(w, questionId);
    const period = def.answerWithinQuestionPeriod ? def.questionPeriod : undefined;
    assertQuestionsOpen(w.root, def.statuses.questions, period, ctx.now, 'update', def.questionRefusal);
    const child = answered(question, data, ctx.now);
    putChild(w, child);
    touch(w, ctx.now);
    return publicQuestion(child.data);
  });
  return result;
}

// ---------------------------------------------------------------------------------------------------- bids

/**
 * Bids are written while the auction's status takes them and no timed event has closed it (it reads the bids in
 * several writes: those that reached the auction before it closed are all seen, none lands after).
 */
function assertBidsOpen(w: Working, statuses: readonly string[], refusal: string): void {
  if (!statuses.includes(w.root.status) || w.closed) throw new ForbiddenError(refusal);
}

/**
 * A broker registers a bid and gets its own token once; the auction itself is not modified (upstream). Two requests
 * to DynamoDB whatever the auction's size: a new bid reads none of the others, so only the auction's root is read
 * (`newBid`), and the write holds on its status, not its revision: bidders never refuse each other.
 */
export async function addBid(ctx: AuctionsContext, id: string, data: JsonRecord): Promise<{ bid: Bid; token: string }> {
  const token = newToken();
  const { result } = await change(
    ctx,
    id,
    (w, def, ctx) => {
      assertBidsOpen(w, def.bids.addStatuses, `Can't add bid in current (${w.root.status}) auction status`);
      const fields = def.bids.create(data, w.root, ctx.now);
      const bid: Bid = {
        ...fields,
        id: ctx.createdId ?? newId(),
        owner: ctx.principal.name,
        date: formatKyiv(ctx.now),
      };
      putChild(w, bidChild(bid, sha256(token)));
      return bidView(w, bid, linksOf(ctx));
    },
    'newBid',
  );
  return { bid: result, token };
}

/** The links of a route that holds the participation secret (one answering a bid's owner); none elsewhere. */
const linksOf = (ctx: AuctionsContext): ParticipationLinks | undefined =>
  ctx.participationSecret === undefined
    ? undefined
    : { auctionSite: ctx.auctionSite, participationSecret: ctx.participationSecret };

/** Bid operations need the bid's own token and an auction status that admits bid changes. */
function ownBid(ctx: AuctionsContext, w: Working, def: AuctionDefinition, bidId: string, refusal: string) {
  const record = findBid(w.children, bidId);
  assertBidOwner(ctx.principal, record.bid, record.child);
  assertBidsOpen(w, def.bids.changeStatuses, refusal);
  return record;
}

export async function patchBid(ctx: AuctionsContext, id: string, bidId: string, data: JsonRecord): Promise<Bid> {
  const { result } = await change(
    ctx,
    id,
    (w, def, ctx) => {
      const refusal = `Can't change bid, it can be done only in ${listed(def.bids.changeStatuses)} auction statuses`;
      const { bid, child } = ownBid(ctx, w, def, bidId, refusal);
      const others = bidRecords(w.children)
        .map((r) => r.bid)
        .filter((b) => b.id !== bid.id);
      const documents = currentDocuments(w.children, documentScope(BID, bid.id));
      const next = def.bids.patch(bid, data, { auction: w.root, others, documents, now: ctx.now });
      if (!sameJson(next, bid)) putChild(w, bidChild(next, child.internal?.tokenHash));
      // A `bidNumber` must be unique among the bids: two bidders claiming one are ordered by the revision.
      if (next.bidNumber !== bid.bidNumber) w.serialize = true;
      return bidView(w, next, linksOf(ctx));
    },
    'bidder',
  );
  return result;
}

/** The owner withdraws a bid: it and its documents are removed; the answer shows it as it was. */
export async function deleteBid(ctx: AuctionsContext, id: string, bidId: string): Promise<Bid> {
  const { result } = await change(
    ctx,
    id,
    (w, def, ctx) => {
      const { bid } = ownBid(ctx, w, def, bidId, `Can't delete bid in current (${w.root.status}) auction status`);
      const shown = bidView(w, bid, linksOf(ctx));
      removeWithBelongings(w, { kind: BID, id: bid.id });
      return shown;
    },
    'serialized',
  );
  return result;
}

/** The bid's owner (bid token), when the type's rules admit a document now (`add` or `update`). */
function documentableBid(
  ctx: AuctionsContext,
  w: Working,
  def: AuctionDefinition,
  bidId: string,
  operation: 'add' | 'update',
  data: JsonRecord,
): ReturnType<typeof findBid> {
  const record = findBid(w.children, bidId);
  const { bid, child } = record;
  assertBidOwner(ctx.principal, bid, child);
  def.bids.assertDocumentWritable(bid, {
    auction: w.root,
    children: w.children,
    operation,
    documentType: data.documentType,
    now: ctx.now,
  });
  return record;
}

/**
 * A bid document changes the auction's `dateModified` except while tendering (upstream bid document views set
 * `auction.modified = False` in `active.tendering` only: bids stay out of the feed then, not in qualification).
 */
const touchUnlessTendering = (w: Working, now: Micros) => {
  if (w.root.status !== 'active.tendering') touch(w, now);
};

/**
 * One write to a bid's documents, under the type's rules for the bid and the auction (`documentableBid`); the
 * auction moves its `dateModified` outside tendering. Like a bid, it holds on the auction's status, not its revision,
 * so bidders uploading at once never refuse each other; it writes the bid again (moving the bid's own revision), so a
 * withdrawal that read the bid before this document was added fails and reads again, and never leaves it behind.
 */
async function writeBidDocument(
  ctx: AuctionsContext,
  id: string,
  bidId: string,
  verb: 'add' | 'update',
  data: JsonRecord,
  write: (
    w: Working,
    def: AuctionDefinition,
    scope: ReturnType<typeof documentScope>,
    attempt: AuctionsContext,
  ) => { document: DocumentRecord; child: Child },
): Promise<DocumentRecord> {
  const { result } = await change(
    ctx,
    id,
    (w, def, ctx) => {
      const bid = documentableBid(ctx, w, def, bidId, verb, data);
      const { document, child } = write(w, def, documentScope(BID, bid.bid.id), ctx);
      // The bid's broker key is kept beside each of its documents: what that key's share of the bids' documents counts.
      putChild(w, { ...child, internal: { ...child.internal, bidder: bid.bid.owner } });
      putChild(w, bid.child);
      touchUnlessTendering(w, ctx.now);
      return document;
    },
    'bidder',
  );
  return result;
}

export const addBidDocument = (ctx: AuctionsContext, id: string, bidId: string, data: JsonRecord) =>
  writeBidDocument(ctx, id, bidId, 'add', data, (_w, def, scope, { now }) =>
    newDocument(
      data,
      { id: ctx.createdId, author: 'bid_owner', documentOf: def.bidDocumentOf, now, files: ctx.files },
      scope,
    ),
  );

/** PUT: a new version of a bid document (same id, `datePublished` and author), under the same rules as adding. */
export const replaceBidDocument = (
  ctx: AuctionsContext,
  id: string,
  bidId: string,
  documentId: string,
  data: JsonRecord,
) =>
  writeBidDocument(ctx, id, bidId, 'update', data, (w, _def, scope, { now }) =>
    newVersion(w.children, documentId, data, { now, files: ctx.files }, scope),
  );

/** PATCH: the bid owner changes the current version's descriptive fields, under the same rules as a new version. */
export const patchBidDocument = (
  ctx: AuctionsContext,
  id: string,
  bidId: string,
  documentId: string,
  data: JsonRecord,
) =>
  writeBidDocument(ctx, id, bidId, 'update', data, (w, _def, scope) =>
    patchedDocument(w.children, documentId, data, scope),
  );

// ---------------------------------------------------------------------------------------------------- the auction system

/**
 * The auction system's results (AC models/schema.py Auction `auction_post` role: `bids`; each bid's `auction_post`
 * role: `id`, `value`, `date`, `lotValues`): each bid's full value as `GET /auction` shows it, and its date.
 */
export const auctionResultsModel = declare({
  source: 'AC models/roles.py auction_post_role; AC models/schema.py Bid auction_post role',
  fields: {
    bids: list(
      schemaOf(
        declare({
          source: 'AC models/schema.py Bid (auction_post)',
          fields: { id: code(), value: valueSchema, date: { type: 'string', format: 'date-time' }, lotValues: {} },
        }),
        { only: ['id', 'value', 'date'], required: ['id'] },
      ),
      1_000,
    ),
  },
  required: ['bids'],
});
export const auctionResultsSchema = schemaOf(auctionResultsModel);
const checkResults: CheckOf<AuctionResults> = (data) => checkWith('auctionResults', auctionResultsSchema, data);

/**
 * The auction system reports the final value of each active bid; the type then moves on (landlease: awarding).
 * Upstream texts for a mismatching report.
 */
export async function postAuctionResults(ctx: PeriodsContext, id: string, data: JsonRecord): Promise<AuctionView> {
  if (ctx.principal.role !== 'auction') throw new PermissionError();
  checkResults(data);
  // In as many bounded writes as the bids and awards take, each resuming where the last stopped (a report sent
  // again after a failure does the same); the auction moves on with the last of them.
  for (;;) {
    const { result: more, saved } = await reportResults(ctx, id, data);
    if (!more) return auctionModuleView(saved, linksOf(ctx));
  }
}

/** One bounded write of a results report (the server's: never refused by the auction's budgets): true when more. */
async function reportResults(ctx: PeriodsContext, id: string, data: AuctionResults) {
  return change(
    ctx,
    id,
    (w, def, ctx) => {
      assertStatus(
        w.root,
        [def.statuses.auction],
        `Can't report auction results in current (${w.root.status}) auction status`,
      );
      const active = bidRecords(w.children)
        .filter((r) => r.bid.status === 'active')
        .map((r) => r.bid.id);
      const reported = data.bids.map((b) => b.id);
      if (reported.length !== active.length)
        throw UnprocessableError.field('bids', 'Number of auction results did not match the number of auction bids');
      if (!active.every((bidId) => reported.includes(bidId)))
        throw UnprocessableError.field('bids', 'Auction bids should be identical to the auction bids');
      recordResults(w, data.bids, ctx.now);
      if (!w.more) def.onResults(w, ctx);
      return w.more === true;
    },
    'server',
  );
}

// ---------------------------------------------------------------------------------------------------- awards, contracts

export async function updateAward(
  ctx: PeriodsContext,
  id: string,
  awardId: string,
  data: JsonRecord,
): Promise<AwardView> {
  const { saved } = await change(ctx, id, (w, def, ctx) => {
    patchAward(w, awardId, data, ctx, def.awarding, awardActor(ctx, w));
  });
  return awardView(saved, awardId);
}

/** The documents of awards and contracts say what the type's own documents say (upstream: `tender` on 2.3, `auction` on 2.5). */

/**
 * A bidder's award document keeps its bid's broker key beside it, as a bid document does: it counts in the bidders'
 * shares of the documents' budget (limits.ts), never in the room the owner's protocols need.
 */
function awardDocumentChild(w: Working, awardId: string, author: string, child: Child): Child {
  if (author !== 'bid_owner') return child;
  const bidId = findAward(w, awardId).data.bid_id;
  const bidder = bidRecords(w.children).find((r) => r.bid.id === bidId)?.bid.owner;
  return bidder ? { ...child, internal: { ...child.internal, bidder } } : child;
}

/**
 * During qualification the auction owner, or the awarded bid's owner, adds an award document (the auction protocol);
 * its `author` says which of them did.
 */
export async function addAwardDocument(
  ctx: AuctionsContext,
  id: string,
  awardId: string,
  data: JsonRecord,
): Promise<DocumentRecord> {
  const { result } = await change(ctx, id, (w, def, ctx) => {
    const author = awardDocumentAuthor(w, awardId, awardActor(ctx, w));
    const { document, child } = newDocument(
      data,
      { id: ctx.createdId, author, documentOf: def.documentOf, now: ctx.now, files: ctx.files },
      documentScope(AWARD, awardId),
    );
    assertAwardDocumentsOpen(w);
    putChild(w, awardDocumentChild(w, awardId, author, child));
    touch(w, ctx.now);
    return document;
  });
  return result;
}

/**
 * PUT: a new version of an award document, by the same role that added it (auction owner or the awarded bid's
 * owner), while the auction is in qualification.
 */
export async function replaceAwardDocument(
  ctx: AuctionsContext,
  id: string,
  awardId: string,
  documentId: string,
  data: JsonRecord,
): Promise<DocumentRecord> {
  const { result } = await change(ctx, id, (w, _def, ctx) => {
    const author = awardDocumentAuthor(w, awardId, awardActor(ctx, w));
    const { document, child } = newVersion(
      w.children,
      documentId,
      data,
      { now: ctx.now, files: ctx.files },
      documentScope(AWARD, awardId),
    );
    assertAwardDocumentsOpen(w, 'update');
    assertAwardDocumentAuthor(document.author, author);
    putChild(w, awardDocumentChild(w, awardId, author, child));
    touch(w, ctx.now);
    return document;
  });
  return result;
}

/** The auction owner adds a contract document (the signed contract) while the contract is being concluded. */
export async function addContractDocument(
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  data: JsonRecord,
): Promise<DocumentRecord> {
  const { result } = await change(ctx, id, (w, def, ctx) => {
    assertOwner(ctx, w);
    findContract(w, contractId);
    // Only the auction owner uploads here: its documents say so, as award documents do (issue 22; the original
    // recordings showed no author on contract documents).
    const { document, child } = newDocument(
      data,
      { id: ctx.createdId, author: 'auction_owner', documentOf: def.documentOf, now: ctx.now, files: ctx.files },
      documentScope(CONTRACT, contractId),
    );
    assertContractDocumentType(document.documentType, def.awarding);
    assertContractDocumentsWritable(w, contractId, 'add');
    putChild(w, child);
    touch(w, ctx.now);
    return document;
  });
  return result;
}

/** PUT: a new version of a contract document, under the same conditions as adding one. */
export async function replaceContractDocument(
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  documentId: string,
  data: JsonRecord,
): Promise<DocumentRecord> {
  const { result } = await change(ctx, id, (w, def, ctx) => {
    assertOwner(ctx, w);
    findContract(w, contractId);
    const { document, child } = newVersion(
      w.children,
      documentId,
      data,
      { now: ctx.now, files: ctx.files },
      documentScope(CONTRACT, contractId),
    );
    assertContractDocumentType(document.documentType, def.awarding);
    assertContractDocumentsWritable(w, contractId, 'update');
    putChild(w, child);
    touch(w, ctx.now);
    return document;
  });
  return result;
}

export async function updateContract(
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  data: JsonRecord,
): Promise<ContractView> {
  const { saved } = await change(ctx, id, (w, def, ctx) => {
    assertOwner(ctx, w);
    patchContract(w, contractId, data, ctx.now, def.awarding);
  });
  return contractView(saved, contractId);
}

// ---------------------------------------------------------------------------------------------------- prolongations

/** The auction owner records a contract prolongation (`draft`; dgfInsider, contracting v3). */
export async function addContractProlongation(
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  data: JsonRecord,
): Promise<Prolongation> {
  const { result } = await change(ctx, id, (w, _def, ctx) => {
    assertOwner(ctx, w);
    findContract(w, contractId);
    return addProlongation(w, documentScope(CONTRACT, contractId), data, ctx.now, ctx.createdId);
  });
  return result;
}

/** The owner edits a draft prolongation or applies it: the contract's signing period is moved in the same write. */
export async function updateContractProlongation(
  ctx: PeriodsContext,
  id: string,
  contractId: string,
  prolongationId: string,
  data: JsonRecord,
): Promise<ProlongationView> {
  const { saved } = await change(ctx, id, (w, _def, ctx) => {
    assertOwner(ctx, w);
    findContract(w, contractId);
    const { applied } = patchProlongation(w, contractId, prolongationId, data, ctx.now);
    if (applied) prolongSigning(w, contractId, applied, ctx);
  });
  return prolongationView(saved, contractId, prolongationId);
}

/**
 * A prolongation's document (its protocol, `prolongationProtocol`), added or changed in place by the auction owner
 * under the contract documents' rules (upstream `validate_contract_document`, checked after the document).
 */
async function writeProlongationDocument(
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  prolongationId: string,
  operation: 'add' | 'update',
  write: (
    w: Working,
    def: AuctionDefinition,
    scope: ReturnType<typeof documentScope>,
  ) => { document: DocumentRecord; child: Child },
): Promise<DocumentRecord> {
  return writeOwnerDocument(ctx, id, write, {
    scope: prolongationScope(prolongationId),
    find: (w) => {
      findContract(w, contractId);
      findProlongation(w, contractId, prolongationId);
    },
    writable: (w) => assertContractDocumentsWritable(w, contractId, operation),
  });
}

/** A document the auction owner writes under a child: where it goes, the child it needs, and what must hold after. */
interface OwnerDocumentPlace {
  scope: ReturnType<typeof documentScope>;
  find?: (w: Working) => void;
  writable: (w: Working) => void;
}

/** One owner's document write, in one change: the owner, the child it goes under, the document, then its rules. */
async function writeOwnerDocument(
  ctx: AuctionsContext,
  id: string,
  write: (
    w: Working,
    def: AuctionDefinition,
    scope: ReturnType<typeof documentScope>,
  ) => { document: DocumentRecord; child: Child },
  place: OwnerDocumentPlace,
): Promise<DocumentRecord> {
  const { result } = await change(ctx, id, (w, def, ctx) => {
    assertOwner(ctx, w);
    place.find?.(w);
    const { document, child } = write(w, def, place.scope);
    place.writable(w);
    putChild(w, child);
    touch(w, ctx.now);
    return document;
  });
  return result;
}

export const addProlongationDocument = (
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  prolongationId: string,
  data: JsonRecord,
) =>
  writeProlongationDocument(ctx, id, contractId, prolongationId, 'add', (_w, def, scope) =>
    newDocument(
      prolongationDocumentBody(data),
      { id: ctx.createdId, author: 'auction_owner', documentOf: def.documentOf, now: ctx.now, files: ctx.files },
      scope,
    ),
  );

export const patchProlongationDocument = (
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  prolongationId: string,
  documentId: string,
  data: JsonRecord,
) =>
  writeProlongationDocument(ctx, id, contractId, prolongationId, 'update', (w, _def, scope) =>
    patchedDocument(
      w.children,
      documentId,
      data.documentType === undefined ? data : prolongationDocumentBody(data),
      scope,
    ),
  );

// ---------------------------------------------------------------------------------------------------- cancellations

/**
 * The auction owner adds a cancellation (`pending`; `active` cancels at once): an active one takes effect as a timed
 * event, run here in as many writes as clearing the bids takes (the chronograph finishes it if this request stops).
 */
export async function addCancellation(ctx: PeriodsContext, id: string, data: JsonRecord): Promise<Cancellation> {
  const { result } = await change(
    ctx,
    id,
    (w, _def, ctx) => {
      assertOwner(ctx, w);
      return newCancellation(w, data, ctx.now, ctx.createdId);
    },
    'serialized',
  );
  if (result.status === 'active') await runTimedEvents(ctx, id);
  return result;
}

/** The auction owner edits or activates a pending cancellation; activation cancels the auction (as on adding). */
export async function updateCancellation(
  ctx: PeriodsContext,
  id: string,
  cancellationId: string,
  data: JsonRecord,
): Promise<CancellationView> {
  const { result, saved } = await change(ctx, id, (w, _def, ctx) => {
    assertOwner(ctx, w);
    return patchCancellation(w, cancellationId, data, ctx.now);
  });
  if (result.status === 'active') await runTimedEvents(ctx, id);
  return cancellationView(saved, cancellationId);
}

/**
 * A cancellation document (its reasons: the decision, the notice), the auction owner's: added, replaced by a new
 * version or changed in place, while the auction is not over. Documents say who added them, as the award's and
 * contract's do.
 */
async function writeCancellationDocument(
  ctx: AuctionsContext,
  id: string,
  cancellationId: string,
  operation: 'add' | 'update',
  write: (
    w: Working,
    def: AuctionDefinition,
    scope: ReturnType<typeof documentScope>,
  ) => { document: DocumentRecord; child: Child },
): Promise<DocumentRecord> {
  return writeOwnerDocument(ctx, id, write, {
    scope: documentScope(CANCELLATION, cancellationId),
    writable: (w) => assertCancellationDocumentsWritable(w, cancellationId, operation),
  });
}

export const addCancellationDocument = (ctx: AuctionsContext, id: string, cancellationId: string, data: JsonRecord) =>
  writeCancellationDocument(ctx, id, cancellationId, 'add', (_w, def, scope) =>
    newDocument(
      data,
      { id: ctx.createdId, author: 'auction_owner', documentOf: def.documentOf, now: ctx.now, files: ctx.files },
      scope,
    ),
  );

/** PUT: a new version of a cancellation document. */
export const replaceCancellationDocument = (
  ctx: AuctionsContext,
  id: string,
  cancellationId: string,
  documentId: string,
  data: JsonRecord,
) =>
  writeCancellationDocument(ctx, id, cancellationId, 'update', (w, _def, scope) =>
    newVersion(w.children, documentId, data, { now: ctx.now, files: ctx.files }, scope),
  );

/** PATCH: the current version's descriptive fields change in place (no new version). */
export const patchCancellationDocument = (
  ctx: AuctionsContext,
  id: string,
  cancellationId: string,
  documentId: string,
  data: JsonRecord,
) =>
  writeCancellationDocument(ctx, id, cancellationId, 'update', (w, _def, scope) =>
    patchedDocument(w.children, documentId, data, scope),
  );

// ---------------------------------------------------------------------------------------------------- chronograph

/**
 * Applies the auction's due timed events (any type, any API version) and re-arms `next_check`, in as many bounded
 * writes as they take. While bids may still change, the first write only closes the auction to them, so that the
 * events read every bid that reached it and none lands after; the write that finishes the events opens it again.
 * Each write is a consistent state: a run stopped midway leaves the auction due (its status unchanged, still
 * closed), and the next run resumes it. Idempotent: run twice, the second run finds nothing due. Returns the names
 * of the events applied, in order.
 */
export async function runTimedEvents(
  ctx: Pick<AuctionsContext, 'auctions'> & EventContext,
  id: string,
): Promise<string[]> {
  const applied: string[] = [];
  for (let more = true; more; ) {
    let names: string[] = [];
    more = false;
    await ctx.auctions.modify(
      id,
      (current, now) => {
        names = [];
        more = false;
        const def = definitionOf(current.root);
        const w = working(current);
        if (!isDue(def, current, now)) return undefined;
        if (!current.closed && bidsMayChange(def, current.root)) {
          more = true;
          return { root: current.root, close: true, unbudgeted: true };
        }
        names = applyDueEvents(def.events, w, { ...ctx, now });
        more = w.more === true;
        if (more && !w.put.length && !w.remove.length) throw new Error(`auction ${id}: a timed event cannot progress`);
        const root = withNextCheck(def.events, w.root, w.children);
        return { root, put: w.put, remove: w.remove, close: more, unbudgeted: true };
      },
      { at: ctx.now, by: botAuthor('chronograph') },
    );
    applied.push(...names);
  }
  return applied;
}

/** Some event of the auction is due at `now`. */
const isDue = (def: AuctionDefinition, a: Aggregate<Auction>, now: Micros): boolean =>
  def.events.some((e) => (e.at(a.root, a.children) ?? Number.POSITIVE_INFINITY) <= now);

/** Bids may be added or changed in the auction's status. */
const bidsMayChange = (def: AuctionDefinition, auction: Auction): boolean =>
  def.bids.addStatuses.includes(auction.status) || def.bids.changeStatuses.includes(auction.status);
