import type { Child } from '../kernel/aggregate.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import { newDocument, newVersion, patchedDocument, type DocumentRecord } from '../documents/documents.ts';
import { documentScope, putChild, type Working } from './auction.ts';
import {
  assertAwardDocumentAuthor,
  assertAwardDocumentsOpen,
  assertContractDocumentsWritable,
  assertContractDocumentType,
  AWARD,
  awardDocumentAuthor,
  CONTRACT,
  findAward,
  findContract,
} from './awarding.ts';
import { assertBidOwner, BID, bidRecords, findBid } from './bids.ts';
import { assertCancellationDocumentsWritable, CANCELLATION } from './cancellations.ts';
import { assertOwner, assertStatus, awardActor, change, touch, type ChangeMode } from './change.ts';
import type { AuctionsContext } from './context.ts';
import type { AuctionDefinition } from './definition.ts';
import { findProlongation, prolongationDocumentBody, prolongationScope } from './prolongations.ts';

/**
 * The auction's documents and those of its children (bids, awards, contracts, prolongations, cancellations): every
 * one written by `writeDocument`, in one change, under the rules of its scope (`DocumentRules`).
 */

/** What a write does to a scope's documents: a new document, a new version (PUT) or the current one changed in place (PATCH). */
type DocumentWrite =
  | { kind: 'add'; data: JsonRecord }
  | { kind: 'replace'; documentId: string; data: JsonRecord }
  | { kind: 'patch'; documentId: string; data: JsonRecord };

/** The operation a scope's rules and refusals speak of: a new document, or a change to one. */
type DocumentOperation = 'add' | 'update';

/** Where a document goes, found (and its writer admitted) before it is made. */
interface DocumentPlace {
  /** The child the documents go under; none: the auction's own. */
  scope?: ReturnType<typeof documentScope>;
  /** Who a new document says added it. */
  author: string;
  /** What a new document's `documentOf` says. */
  documentOf: string;
  /** What the document is made of, from the request's data (as sent, unless the scope says otherwise). */
  body?: (data: JsonRecord) => JsonRecord;
  /** What must hold of the document made, and of the auction, before it is written (as upstream: after the document). */
  check?: (document: DocumentRecord) => void;
  /** The broker key of the bid the document is a bidder's for: kept beside it, it counts in that bidder's share. */
  bidder?: string;
  /** Children written again with the document (a bid, so that its revision moves). */
  with?: Child[];
  /** The auction's `dateModified` stays (a bid's document while tendering). */
  keepsDateModified?: boolean;
}

/** A scope's rules: how its writes hold (`ChangeMode`) and how a write finds and admits its place. */
interface DocumentRules {
  mode?: ChangeMode;
  place: (
    w: Working,
    def: AuctionDefinition,
    attempt: AuctionsContext,
    operation: DocumentOperation,
    data: JsonRecord,
  ) => DocumentPlace;
}

/** One write to a scope's documents, in one change: the place, the document, the scope's checks, then the write. */
async function writeDocument(
  ctx: AuctionsContext,
  id: string,
  rules: DocumentRules,
  write: DocumentWrite,
): Promise<DocumentRecord> {
  const operation: DocumentOperation = write.kind === 'add' ? 'add' : 'update';
  const { result } = await change(
    ctx,
    id,
    (w, def, ctx) => {
      const place = rules.place(w, def, ctx, operation, write.data);
      const { document, child } = made(w, place, write, ctx);
      place.check?.(document);
      putChild(w, place.bidder ? { ...child, internal: { ...child.internal, bidder: place.bidder } } : child);
      for (const other of place.with ?? []) putChild(w, other);
      if (!place.keepsDateModified) touch(w, ctx.now);
      return document;
    },
    rules.mode,
  );
  return result;
}

/** The document a write makes: a new one (by the place's author), a new version, or the current one changed. */
function made(w: Working, place: DocumentPlace, write: DocumentWrite, ctx: AuctionsContext) {
  const data = place.body ? place.body(write.data) : write.data;
  const { now, files } = ctx;
  switch (write.kind) {
    case 'add':
      return newDocument(
        data,
        { id: ctx.createdId, author: place.author, documentOf: place.documentOf, now, files },
        place.scope,
      );
    case 'replace':
      return newVersion(w.children, write.documentId, data, { now, files }, place.scope);
    case 'patch':
      return patchedDocument(w.children, write.documentId, data, place.scope);
  }
}

// ---------------------------------------------------------------------------------------------------- the scopes

/** The auction's own documents: its owner's, while the type's statuses take documents. */
const auctionDocuments: DocumentRules = {
  place: (w, def, ctx) => {
    assertOwner(ctx, w);
    assertStatus(w.root, def.statuses.documents, `Can't add document in current (${w.root.status}) auction status`);
    return { author: 'auction_owner', documentOf: def.documentOf };
  },
};

/**
 * A bid's documents: the bid's owner (bid token), when the type's rules admit a document now (`add` or `update`).
 * Like a bid, a write holds on the auction's status, not its revision, so bidders uploading at once never refuse each
 * other; it writes the bid again (moving the bid's own revision), so a withdrawal that read the bid before this
 * document was added fails and reads again, and never leaves it behind. The bid's broker key is kept beside each of
 * its documents: what that key's share of the bids' documents counts. A bid document changes the auction's
 * `dateModified` except while tendering (upstream bid document views set `auction.modified = False` in
 * `active.tendering` only: bids stay out of the feed then, not in qualification).
 */
const bidDocuments = (bidId: string): DocumentRules => ({
  mode: 'bidder',
  place: (w, def, ctx, operation, data) => {
    const { bid, child } = findBid(w.children, bidId);
    assertBidOwner(ctx.principal, bid, child);
    def.bids.assertDocumentWritable(bid, {
      auction: w.root,
      children: w.children,
      operation,
      documentType: data.documentType,
      now: ctx.now,
    });
    return {
      scope: documentScope(BID, bid.id),
      author: 'bid_owner',
      documentOf: def.bidDocumentOf,
      bidder: bid.owner,
      with: [child],
      keepsDateModified: w.root.status === 'active.tendering',
    };
  },
});

/**
 * An award's documents (the auction protocol): during qualification, the auction owner's or the awarded bid's
 * owner's; `author` says which of them added it, and only that role uploads its new versions. A bidder's award
 * document keeps its bid's broker key beside it, as a bid document does: it counts in the bidders' shares of the
 * documents' budget (limits.ts), never in the room the owner's protocols need.
 */
const awardDocuments = (awardId: string): DocumentRules => ({
  place: (w, def, ctx, operation) => {
    const author = awardDocumentAuthor(w, awardId, awardActor(ctx, w));
    return {
      scope: documentScope(AWARD, awardId),
      author,
      documentOf: def.documentOf,
      bidder: author === 'bid_owner' ? awardBidder(w, awardId) : undefined,
      check: (document) => {
        assertAwardDocumentsOpen(w, operation);
        if (operation === 'update') assertAwardDocumentAuthor(document.author, author);
      },
    };
  },
});

/** The broker key of the bid an award is for. */
function awardBidder(w: Working, awardId: string): string | undefined {
  const bidId = findAward(w, awardId).data.bid_id;
  return bidRecords(w.children).find((r) => r.bid.id === bidId)?.bid.owner;
}

/**
 * A contract's documents (the signed contract): the auction owner's, while the contract is being concluded. Its
 * documents say so, as award documents do (issue 22; the original recordings showed no author on contract documents).
 */
const contractDocuments = (contractId: string): DocumentRules => ({
  place: (w, def, ctx, operation) => {
    assertOwner(ctx, w);
    findContract(w, contractId);
    return {
      scope: documentScope(CONTRACT, contractId),
      author: 'auction_owner',
      documentOf: def.documentOf,
      check: (document) => {
        assertContractDocumentType(document.documentType, def.awarding);
        assertContractDocumentsWritable(w, contractId, operation);
      },
    };
  },
});

/**
 * A prolongation's document (its protocol, `prolongationProtocol`), added or changed in place by the auction owner
 * under the contract documents' rules (upstream `validate_contract_document`, checked after the document). A change
 * in place that names no `documentType` keeps the one it has.
 */
const prolongationDocuments = (contractId: string, prolongationId: string): DocumentRules => ({
  place: (w, def, ctx, operation) => {
    assertOwner(ctx, w);
    findContract(w, contractId);
    findProlongation(w, contractId, prolongationId);
    return {
      scope: prolongationScope(prolongationId),
      author: 'auction_owner',
      documentOf: def.documentOf,
      body: (data) =>
        operation === 'update' && data.documentType === undefined ? data : prolongationDocumentBody(data),
      check: () => assertContractDocumentsWritable(w, contractId, operation),
    };
  },
});

/**
 * A cancellation's documents (its reasons: the decision, the notice), the auction owner's: added, replaced by a new
 * version or changed in place, while the auction is not over. Documents say who added them, as the award's and
 * contract's do.
 */
const cancellationDocuments = (cancellationId: string): DocumentRules => ({
  place: (w, def, ctx, operation) => {
    assertOwner(ctx, w);
    return {
      scope: documentScope(CANCELLATION, cancellationId),
      author: 'auction_owner',
      documentOf: def.documentOf,
      check: () => assertCancellationDocumentsWritable(w, cancellationId, operation),
    };
  },
});

// ---------------------------------------------------------------------------------------------------- the commands

/** The commands of a scope under one child (`childId`: the bid, award, contract or cancellation). */
const adding =
  (rules: (childId: string) => DocumentRules) =>
  (ctx: AuctionsContext, id: string, childId: string, data: JsonRecord) =>
    writeDocument(ctx, id, rules(childId), { kind: 'add', data });
const replacing =
  (rules: (childId: string) => DocumentRules) =>
  (ctx: AuctionsContext, id: string, childId: string, documentId: string, data: JsonRecord) =>
    writeDocument(ctx, id, rules(childId), { kind: 'replace', documentId, data });
const patching =
  (rules: (childId: string) => DocumentRules) =>
  (ctx: AuctionsContext, id: string, childId: string, documentId: string, data: JsonRecord) =>
    writeDocument(ctx, id, rules(childId), { kind: 'patch', documentId, data });

export const addAuctionDocument = (ctx: AuctionsContext, id: string, data: JsonRecord) =>
  writeDocument(ctx, id, auctionDocuments, { kind: 'add', data });
/** PUT: a new version of an auction document. */
export const replaceAuctionDocument = (ctx: AuctionsContext, id: string, documentId: string, data: JsonRecord) =>
  writeDocument(ctx, id, auctionDocuments, { kind: 'replace', documentId, data });

/** The bid's owner adds a bid document, while the type's rules admit it. */
export const addBidDocument = adding(bidDocuments);
/** PUT: a new version of a bid document (same id, `datePublished` and author), under the same rules as adding. */
export const replaceBidDocument = replacing(bidDocuments);
/** PATCH: the bid owner changes the current version's descriptive fields, under the same rules as a new version. */
export const patchBidDocument = patching(bidDocuments);

/** During qualification the auction owner, or the awarded bid's owner, adds an award document (the auction protocol). */
export const addAwardDocument = adding(awardDocuments);
/** PUT: a new version of an award document, by the same role that added it, while the auction is in qualification. */
export const replaceAwardDocument = replacing(awardDocuments);

/** The auction owner adds a contract document (the signed contract) while the contract is being concluded. */
export const addContractDocument = adding(contractDocuments);
/** PUT: a new version of a contract document, under the same conditions as adding one. */
export const replaceContractDocument = replacing(contractDocuments);

/** The auction owner adds a cancellation document while the auction is not over. */
export const addCancellationDocument = adding(cancellationDocuments);
/** PUT: a new version of a cancellation document. */
export const replaceCancellationDocument = replacing(cancellationDocuments);
/** PATCH: the current version's descriptive fields change in place (no new version). */
export const patchCancellationDocument = patching(cancellationDocuments);

/** The auction owner adds a prolongation's protocol. */
export const addProlongationDocument = (
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  prolongationId: string,
  data: JsonRecord,
) => writeDocument(ctx, id, prolongationDocuments(contractId, prolongationId), { kind: 'add', data });
/** PATCH: the auction owner changes a prolongation's protocol in place. */
export const patchProlongationDocument = (
  ctx: AuctionsContext,
  id: string,
  contractId: string,
  prolongationId: string,
  documentId: string,
  data: JsonRecord,
) => writeDocument(ctx, id, prolongationDocuments(contractId, prolongationId), { kind: 'patch', documentId, data });
