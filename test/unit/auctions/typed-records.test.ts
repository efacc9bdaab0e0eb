import { describe, expectTypeOf, it } from 'vitest';
import type { Auction, AuctionStatus } from '../../../functions/domain/auctions/auction.ts';
import type { Cancellation } from '../../../functions/domain/auctions/cancellations.ts';
import type { Question } from '../../../functions/domain/auctions/questions.ts';
import type { DocumentRecord } from '../../../functions/domain/documents/documents.ts';

// Checked by `npm run typecheck` (tsc covers test/): the record types come from the schemas the validators use.
describe('typed domain records', () => {
  it('derives a question from its schema', () => {
    expectTypeOf<Question['title']>().toEqualTypeOf<string>();
    expectTypeOf<Question['author']['identifier']['scheme']>().toEqualTypeOf<string>();
    expectTypeOf<Question['questionOf']>().toEqualTypeOf<'tender' | 'item' | 'lot'>();
  });

  it('derives a cancellation from its schema', () => {
    expectTypeOf<Cancellation['reason']>().toEqualTypeOf<string>();
    expectTypeOf<Cancellation['status']>().toEqualTypeOf<'pending' | 'active'>();
  });

  it('derives a document from the properties its validator checks: a link or a file may be absent (offline documents)', () => {
    expectTypeOf<DocumentRecord['title']>().toEqualTypeOf<string>();
    expectTypeOf<DocumentRecord['title_en']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<DocumentRecord['url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<DocumentRecord['index']>().toEqualTypeOf<number | undefined>();
  });

  it('gives auctions the status union', () => {
    expectTypeOf<Auction['status']>().toEqualTypeOf<AuctionStatus>();
    expectTypeOf<'active.tendering'>().toMatchTypeOf<AuctionStatus>();
    expectTypeOf<'active.tender'>().not.toMatchTypeOf<AuctionStatus>();
  });
});
