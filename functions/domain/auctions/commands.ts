import type { Aggregate } from '../kernel/aggregate.ts';
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
import { currentDocuments, serverDocument } from '../documents/documents.ts';
import { documentScope, removeWithBelongings, working, putChild, type Auction, type Working } from './auction.ts';
import {
  awardView,
  CONTRACT,
  contractView,
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
  prolongationView,
  type Prolongation,
  type ProlongationView,
} from './prolongations.ts';
import {
  addCancellation as newCancellation,
  cancellationView,
  patchCancellation,
  type Cancellation,
  type CancellationView,
} from './cancellations.ts';

/**
 * The auction's own commands: the auction, its questions, bids, results, awards, contracts, prolongations and
 * cancellations, and its timed events. Their documents are written by document-commands.ts; each command is one
 * `change` (change.ts).
 */

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
