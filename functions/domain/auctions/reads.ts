import type { ChainHead } from '../kernel/history.ts';
import type { Aggregate, Child, ChildOwner } from '../kernel/aggregate.ts';
import { ForbiddenError, NotFoundError, PermissionError } from '../kernel/errors.ts';
import { documentList, type DocumentRecord } from '../documents/documents.ts';
import { documentScope, type Auction } from './auction.ts';
import { AWARD, CONTRACT, findAward, findContract } from './awarding.ts';
import { assertBidDocumentsReadable, BID, readBid, type Bid, type ParticipationLinks } from './bids.ts';
import { CANCELLATION, findCancellation } from './cancellations.ts';
import { findProlongation, prolongationScope, prolongationsOf, prolongationView } from './prolongations.ts';
import { auctionType } from './catalog.ts';
import type { AuctionsReadContext } from './context.ts';
import { auctionModuleView, auctionView, type AuctionView } from './view.ts';

/**
 * The read commands of auctions. They need of a type only its descriptor (catalog.ts), never its definition
 * (registry.ts), so the read routes' bundles carry no schemas, validators or calendar (test/unit/read-bundles.test.ts).
 */

type ReadContext = Pick<AuctionsReadContext, 'auctions' | 'type' | 'principal'>;
/** The reads that show participation links: with where auctions are held and the secret links are keyed with. */
type LinkReadContext = ReadContext & ParticipationLinks;

/** An auction is reachable only through the routes that serve its type (2.5 landlease, 2.3 dgfInsider). */
export function assertServedBy(type: string, auction: Auction | undefined): asserts auction is Auction {
  if (!auction || auction.procurementMethodType !== type) throw new NotFoundError('auction_id');
}

export async function loadAuction(
  ctx: Pick<AuctionsReadContext, 'auctions' | 'type'>,
  id: string,
): Promise<Aggregate<Auction>> {
  const found = await ctx.auctions.get(id);
  assertServedBy(ctx.type, found?.root);
  return found!;
}

/** Bids are hidden from all but their owners while the auction's type says so. */
const bidsHiddenIn = (auction: Auction) => auctionType(auction.procurementMethodType).bidsHidden;

/** The auction's view and the head of its change log (the GET's revision headers). */
export async function readAuction(ctx: ReadContext, id: string): Promise<{ view: AuctionView; head?: ChainHead }> {
  // A draft the caller may not read is not there: the context's reader hides it (runtime/contexts.ts).
  const a = await loadAuction(ctx, id);
  return { view: auctionView(a), ...(a.history && { head: a.history }) };
}

/**
 * Upstream core transferring `GET /auctions/{id}/extract_credentials` (for the contracting service, which Agora
 * lacks: the admin's here): the auction's `id`, `owner` and stored `transfer_token`, which is its hash, as upstream.
 */
export async function extractCredentials(
  ctx: ReadContext,
  id: string,
): Promise<{ id: string; owner: string; transfer_token: string | null }> {
  const a = await loadAuction(ctx, id);
  const hash = a.internal?.transferTokenHash;
  return {
    id: a.root.id,
    owner: a.root.owner,
    transfer_token: typeof hash === 'string' ? hash : null,
  };
}

/** One bid: its owner (bid token) always sees it, with `participationUrl`; others once bids are not hidden. */
export async function getBid(ctx: LinkReadContext, id: string, bidId: string): Promise<Bid> {
  const a = await loadAuction(ctx, id);
  return readBid(a, bidId, ctx.principal, bidsHiddenIn(a.root), ctx);
}

/** A bid's documents (current versions, `?all=1` every version), to whoever may see the bid. */
export async function listBidDocuments(
  ctx: ReadContext,
  id: string,
  bidId: string,
  query: Record<string, string>,
): Promise<DocumentRecord[]> {
  const a = await loadAuction(ctx, id);
  assertBidDocumentsReadable(a, bidId, ctx.principal, bidsHiddenIn(a.root), 'documents');
  return documentList(a.children, query, documentScope(BID, bidId));
}

/** The documents of one bid, to whoever may see the bid (404 for an unknown bid), for reading one of them. */
export async function loadBidDocuments(
  ctx: ReadContext,
  id: string,
  bidId: string,
): Promise<{ children: Child[]; scope: ChildOwner }> {
  const a = await loadAuction(ctx, id);
  assertBidDocumentsReadable(a, bidId, ctx.principal, bidsHiddenIn(a.root), 'document');
  return { children: a.children, scope: documentScope(BID, bidId) };
}

export async function getAuctionForModule(ctx: LinkReadContext, id: string): Promise<AuctionView> {
  if (ctx.principal.role !== 'auction') throw new PermissionError();
  const auction = await loadAuction(ctx, id);
  // The bidders are the auction system's business only once the auction runs (upstream validate_auction_info_view).
  if (auction.root.status !== 'active.auction') {
    throw new ForbiddenError(`Can't get auction info in current (${auction.root.status}) auction status`);
  }
  return auctionModuleView(auction, ctx);
}

/** The documents of one award (404 for an unknown award), for the read routes. */
export async function loadAwardDocuments(
  ctx: ReadContext,
  id: string,
  awardId: string,
): Promise<{ children: Child[]; scope: ChildOwner }> {
  const a = await loadAuction(ctx, id);
  findAward(a, awardId);
  return { children: a.children, scope: documentScope(AWARD, awardId) };
}

/** The documents of one contract (404 for an unknown contract), for the read routes. */
export async function loadContractDocuments(
  ctx: ReadContext,
  id: string,
  contractId: string,
): Promise<{ children: Child[]; scope: ChildOwner }> {
  const a = await loadAuction(ctx, id);
  findContract(a, contractId);
  return { children: a.children, scope: documentScope(CONTRACT, contractId) };
}

/** The documents of one cancellation (404 for an unknown cancellation), for the read routes. */
export async function loadCancellationDocuments(
  ctx: ReadContext,
  id: string,
  cancellationId: string,
): Promise<{ children: Child[]; scope: ChildOwner }> {
  const a = await loadAuction(ctx, id);
  findCancellation(a, cancellationId);
  return { children: a.children, scope: documentScope(CANCELLATION, cancellationId) };
}

/** A contract's prolongations (404 for an unknown contract). */
export async function listProlongations(ctx: ReadContext, id: string, contractId: string) {
  const a = await loadAuction(ctx, id);
  findContract(a, contractId);
  return prolongationsOf(a, contractId);
}

/** One prolongation of a contract, with its documents. */
export async function getProlongation(ctx: ReadContext, id: string, contractId: string, prolongationId: string) {
  const a = await loadAuction(ctx, id);
  findContract(a, contractId);
  return prolongationView(a, contractId, prolongationId);
}

/** The documents of one prolongation (404 for an unknown contract or prolongation), for the read routes. */
export async function loadProlongationDocuments(
  ctx: ReadContext,
  id: string,
  contractId: string,
  prolongationId: string,
): Promise<{ children: Child[]; scope: ChildOwner }> {
  const a = await loadAuction(ctx, id);
  findContract(a, contractId);
  findProlongation(a, contractId, prolongationId);
  return { children: a.children, scope: prolongationScope(prolongationId) };
}
