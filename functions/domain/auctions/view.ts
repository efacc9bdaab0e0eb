import type { Indexing } from '../kernel/aggregate.ts';
import { parseInstant } from '../kernel/time.ts';
import { currentDocuments } from '../documents/documents.ts';
import type { Auction, AuctionParts } from './auction.ts';
import { awardsOf, contractsOf } from './awarding.ts';
import { bidsOf, bidView, visibleBids } from './bids.ts';
import { questionsOf } from './questions.ts';
import { definitionOf } from './registry.ts';

const nonEmpty = <T>(list: T[] | undefined) => (list?.length ? list : undefined);

/** What GET shows: the root with its documents, questions, visible bids, awards and contracts (one Query). */
export function auctionView(a: AuctionParts): Auction {
  const def = definitionOf(a.root);
  const parts = {
    documents: nonEmpty(currentDocuments(a.children)),
    questions: nonEmpty(questionsOf(a)),
    bids: visibleBids(a, def.statuses.bidsHidden),
    awards: nonEmpty(awardsOf(a)),
    contracts: nonEmpty(contractsOf(a)),
  };
  const out: Auction = { ...a.root };
  for (const [key, value] of Object.entries(parts)) if (value) out[key] = value;
  return out;
}

/** What the auction system reads: the procedure and its active bids with their participation links. */
export function auctionModuleView(a: AuctionParts): Auction {
  const bids = bidsOf(a.children).filter((b) => b.status === 'active').map((b) => bidView(a, b, true));
  return { ...a.root, bids };
}

/** The listing feed (never drafts) and, while a timed event is pending, the chronograph's work index. */
export function auctionIndexing(auction: Auction): Indexing {
  const due = auction.next_check ? parseInstant(auction.next_check) : undefined;
  return {
    ...(auction.status !== 'draft' && { feed: { name: definitionOf(auction).feed, test: auction.mode === 'test' } }),
    ...(due !== undefined && { work: { bot: 'chronograph', due } }),
  };
}
