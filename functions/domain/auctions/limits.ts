import type { Child, ChildBudgets } from '../kernel/aggregate.ts';
import { ForbiddenError, UnprocessableError } from '../kernel/errors.ts';

/**
 * What one auction holds, so that its largest view stays under 5 MB (a Lambda answers at most 6 MB) whatever its
 * brokers send. Bytes are the children as stored, counted as JSON text (UTF-8, escapes included: what a view answers
 * of them, a control character 6 bytes where DynamoDB keeps 1); a view shows no more than is stored, and the
 * server's own children (awards, contracts) follow from the bids:
 *
 *   root, as JSON (store/aggregates.ts ROOT_JSON_BYTES)        ≤   400 KB
 *   questions (with their answers)                            ≤   400 KB
 *   documents: the auction's, bids', awards', contracts',
 *     every version                                           ≤   600 KB
 *   bids (at most 1,000), without their documents            ≤ 1,000 KB
 *   cancellations                                             ≤    50 KB
 *   contract prolongations (dgfInsider)                       ≤    50 KB
 *   awards: one per active bid, each its bid's `tenderers`
 *     (≤ the bids' bytes) and ≤ 800 bytes of its own         ≤ 1,800 KB
 *   contracts: the live one (`items` ≤ the root)              ≤   410 KB
 *   -------------------------------------------------------------------
 *   the largest view                                          ≤ 4,710 KB
 *
 * The store keeps the totals by kind beside the children, in the same transactions, so concurrent brokers cannot
 * overrun them; each child is bounded on its own too (`CHILD_BYTES`), so that one cannot take a whole budget. And no
 * one can take a whole budget from the others: the bidders' documents (their bids', and the awards' they add) take at
 * most half the documents' (the owner's notices, award protocols, rejection protocols, contracts and prolongations
 * always have the other half, and the room's audit counts in none: so no bidder, the winner included, can stall the
 * qualification, the award or the sale), and
 * one broker's key at most a tenth of the bids and a fifth of their bytes, and a fifth of the bids' documents (so that
 * no broker, nor two together, shuts the others out of an auction: whatever two keys send, a third broker's bidder
 * still registers, adds its eligibility documents and activates), and the questions as asked at most three quarters
 * of the questions' 400 KB (the organizer's answers always have the rest), one broker's key at most a third of those.
 */
export const BID_DOCUMENT_BYTES = 300_000;
export const BIDS_OF_ONE_BROKER = 100;
export const BID_BYTES_OF_ONE_BROKER = 200_000;
export const BID_DOCUMENT_BYTES_OF_ONE_BROKER = 60_000;
export const ASKED_QUESTION_BYTES = 300_000;
export const QUESTIONS_OF_ONE_BROKER = 100_000;

export const AUCTION_BUDGETS: ChildBudgets = {
  bytes: { QUESTION: 400_000, DOC: 600_000, BID: 1_000_000, CANCELLATION: 50_000, PROLONGATION: 50_000 },
  count: { BID: 1_000 },
  shares: ({ place, data, internal }) => {
    if (place.kind === 'DOC' && (place.under?.kind === 'BID' || (place.under?.kind === 'AWARD' && isBidders(data))))
      return [
        { name: BIDS_DOCUMENTS, bytes: BID_DOCUMENT_BYTES },
        // Documents added before keys were counted have no bidder: they count in the bids' documents alone.
        ...(internal?.bidder ? [{ name: `BID_DOC@${internal.bidder}`, bytes: BID_DOCUMENT_BYTES_OF_ONE_BROKER }] : []),
      ];
    if (place.kind === 'BID' && !place.under)
      return [
        {
          name: `BID@${String(data.owner)}`,
          count: BIDS_OF_ONE_BROKER,
          bytes: BID_BYTES_OF_ONE_BROKER,
        },
      ];
    // A question counts here as it is asked; its answer grows it in the questions' budget alone.
    if (place.kind === 'QUESTION' && data.answer === undefined)
      return [
        { name: ASKED_QUESTIONS, bytes: ASKED_QUESTION_BYTES },
        // Questions asked before keys were counted have no asker: they count in the questions' shares alone.
        ...(internal?.asker ? [{ name: `QUESTION@${internal.asker}`, bytes: QUESTIONS_OF_ONE_BROKER }] : []),
      ];
    return [];
  },
  refusal: (name) =>
    new ForbiddenError(FULL[name] ?? ONE_BROKER[name.split('@')[0]] ?? 'The auction holds no more of these'),
};

/** An award document the awarded bid's owner added (upstream's `bid_owner` author): the bidders' share, not the owner's. */
const isBidders = (data: Record<string, unknown>) => data.author === 'bid_owner';
const BIDS_DOCUMENTS = 'BID_DOC';
const ASKED_QUESTIONS = 'QUESTION_ASKED';
/** The refusals of one broker key's shares (`BID@<key>`, `BID_DOC@<key>`, `QUESTION@<key>`). */
const ONE_BROKER: Record<string, string> = {
  BID: `One broker's key places at most ${BIDS_OF_ONE_BROKER} bids, of at most ${BID_BYTES_OF_ONE_BROKER / 1000} KB in all, on an auction`,
  BID_DOC: `The bids of one broker's key hold at most ${BID_DOCUMENT_BYTES_OF_ONE_BROKER / 1000} KB of documents on an auction (their awards' too; every version counts)`,
  QUESTION: `One broker's key asks at most ${QUESTIONS_OF_ONE_BROKER / 1000} KB of questions on an auction`,
};
const FULL: Record<string, string> = {
  QUESTION: 'The auction holds at most 400 KB of questions',
  [ASKED_QUESTIONS]: `The auction takes at most ${ASKED_QUESTION_BYTES / 1000} KB of questions (the rest of its 400 KB is kept for the answers)`,
  DOC: 'The auction holds at most 600 KB of documents (every version counts)',
  [BIDS_DOCUMENTS]: `The bids of an auction hold at most ${BID_DOCUMENT_BYTES / 1000} KB of documents (their awards' too; every version counts)`,
  BID: 'The auction takes at most 1000 bids, of at most 1000 KB in all',
  CANCELLATION: 'The auction holds at most 50 KB of cancellations',
  PROLONGATION: 'The auction holds at most 50 KB of contract prolongations',
};

/** The most one question, document, bid or cancellation may take as stored (JSON text, UTF-8). */
export const CHILD_BYTES: Readonly<Record<string, number>> = {
  QUESTION: 20_000,
  DOC: 8_000,
  BID: 8_000,
  CANCELLATION: 8_000,
  PROLONGATION: 8_000,
};

const NOUN: Record<string, string> = {
  QUESTION: 'question',
  DOC: 'document',
  BID: 'bid',
  CANCELLATION: 'cancellation',
  PROLONGATION: 'prolongation',
};

/** A client's child larger than its kind allows: 422, nothing written. */
export function assertChildSizes(children: readonly Child[]): void {
  for (const c of children) {
    const most = CHILD_BYTES[c.place.kind];
    if (most === undefined) continue;
    const bytes = new TextEncoder().encode(JSON.stringify(c.data)).length;
    if (bytes > most)
      throw UnprocessableError.data(`The ${NOUN[c.place.kind]} is too large: at most ${most / 1000} KB as JSON`);
  }
}
