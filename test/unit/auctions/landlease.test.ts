import { describe, expect, it } from 'vitest';
import { working } from '../../../functions/domain/auctions/auction.ts';
import { createHash } from 'node:crypto';
import { bidChild, bidsOf, bidView, type Bid } from '../../../functions/domain/auctions/bids.ts';
import { applyDueEvents, nextCheck, withNextCheck } from '../../../functions/domain/auctions/timed-events.ts';
import { landleaseBids } from '../../../functions/domain/auctions/types/landlease/bids.ts';
import { landlease } from '../../../functions/domain/auctions/types/landlease/definition.ts';
import type { LandleaseAuction } from '../../../functions/domain/auctions/types/landlease/record.ts';
import { ForbiddenError, UnprocessableError } from '../../../functions/domain/kernel/errors.ts';
import { formatKyiv, parseInstant, type Micros } from '../../../functions/domain/kernel/time.ts';
import { ukraineCalendar, type Calendar } from '../../../functions/domain/calendar/working-days.ts';
import type { DocumentRecord } from '../../../functions/domain/documents/documents.ts';
import { aLandleaseAuction } from '../../support/builders.ts';

const at = (text: string): Micros => parseInstant(text)!;
const martial = ukraineCalendar('martial-law');

/** A landlease draft as the kernel stores it (server fields of the kernel added by hand). */
function draft(day: string, overrides: Record<string, unknown> = {}): LandleaseAuction {
  const { status: _, ...fields } = aLandleaseAuction(day, overrides);
  return {
    ...landlease.initialize(fields, { now: 0, calendar: martial }),
    id: 'a'.repeat(32),
    auctionID: 'UA-EA-2026-01-01-000001',
    owner: 'broker',
    date: '',
    dateModified: '',
  };
}

const commit = (auction: LandleaseAuction, now: Micros, calendar: Calendar = martial) =>
  landlease.ownerPatch(auction, { status: 'active.rectification' }, { now, calendar });

describe('landlease phase commit periods', () => {
  it('ends tendering at 20:00 three business days before the auction day, across the spring DST change', () => {
    // Friday 20 March 2026 (+02:00); the auction on Monday 30 March (+03:00 since the 29th).
    const a = commit(draft('2026-03-30'), at('2026-03-20T12:00:00+02:00'));
    expect(a.rectificationPeriod).toEqual({
      startDate: '2026-03-20T12:00:00+02:00',
      endDate: '2026-03-22T12:00:00+02:00',
    });
    // Mon 30 → Fri 27, Thu 26, Wed 25 (the weekend is skipped).
    expect(a.tenderPeriod).toEqual({ startDate: '2026-03-22T12:00:00+02:00', endDate: '2026-03-25T20:00:00+02:00' });
    expect(a.enquiryPeriod?.endDate).toBe('2026-03-29T20:00:00+03:00');
    expect(a.auctionPeriod).toEqual({
      startDate: '2026-03-30T00:00:00+03:00',
      shouldStartAfter: '2026-03-30T00:00:00+03:00',
    });
  });

  it('keeps Kyiv wall-clock hours across the autumn DST change', () => {
    const a = commit(draft('2026-10-26'), at('2026-10-12T09:00:00+03:00'));
    expect(a.tenderPeriod?.endDate).toBe('2026-10-21T20:00:00+03:00');
    expect(a.enquiryPeriod?.endDate).toBe('2026-10-25T20:00:00+02:00');
    expect(a.auctionPeriod.shouldStartAfter).toBe('2026-10-26T00:00:00+02:00');
  });

  it('counts business days with the calendar it is given', () => {
    // Thursday 27 Aug 2026: Wed 26, Tue 25, then Mon 24 (Independence Day: a working day under martial law only)
    const now = at('2026-08-10T10:00:00+03:00');
    expect(commit(draft('2026-08-27'), now).tenderPeriod?.endDate).toBe('2026-08-24T20:00:00+03:00');
    expect(commit(draft('2026-08-27'), now, ukraineCalendar('peacetime')).tenderPeriod?.endDate).toBe(
      '2026-08-21T20:00:00+03:00',
    );
  });

  it('refuses an auction day that leaves no room for the periods', () => {
    expect(() => commit(draft('2026-03-25'), at('2026-03-20T12:00:00+02:00'))).toThrow(ForbiddenError);
  });

  it('refuses a day beyond the working-day calendar with a clear 403', () => {
    expect(() => commit(draft('2031-01-15'), at('2026-03-20T12:00:00+02:00'))).toThrow(
      /auctionPeriod.startDate is incorrect: the working-day calendar covers/,
    );
  });

  it('divides every period by the sandbox accelerator', () => {
    const now = at('2026-03-02T10:00:00+02:00');
    const a = commit(draft('2026-03-30', { mode: 'test', procurementMethodDetails: 'quick, accelerator=1440' }), now);
    const minutes = (text: string) => (at(text) - now) / 60_000_000;
    expect(minutes(a.rectificationPeriod!.endDate)).toBeCloseTo(2, 5);
    expect(minutes(a.tenderPeriod!.endDate)).toBeLessThan(minutes(a.enquiryPeriod!.endDate));
    expect(minutes(a.auctionPeriod.shouldStartAfter!)).toBeLessThan(30);
  });

  it('needs items', () => {
    expect(() => commit(draft('2026-03-30', { items: undefined }), at('2026-03-02T10:00:00+02:00'))).toThrow(
      "Can't switch to (active.rectification) without items",
    );
  });
});

describe('landlease timed events', () => {
  const now = at('2026-03-02T10:00:00+02:00');
  const committed = withNextCheck(landlease.events, commit(draft('2026-03-30'), now));
  const bid = (id: string, status: string, extra: Partial<Bid> = {}): Bid =>
    ({ id: id.repeat(32), status, owner: 'broker', date: formatKyiv(now), tenderers: [], ...extra }) as Bid;
  const ctx = (text: string) => ({
    now: at(text),
    calendar: martial,
    auctionSite: 'https://auction.test',
  });

  it('arms next_check at the end of the current period', () => {
    expect(committed.next_check).toBe(committed.rectificationPeriod?.endDate);
    expect(nextCheck(landlease.events, { ...committed, status: 'complete' })).toBeUndefined();
  });

  it('crosses several periods in one run, dropping draft bids and scheduling the auction', () => {
    const w = working({
      root: committed,
      children: [
        bidChild(bid('1', 'active', { bidNumber: 1 }), 'h1'),
        bidChild(bid('2', 'active', { bidNumber: 2 }), 'h2'),
        bidChild(bid('3', 'draft'), 'h3'),
      ],
    });
    const applied = applyDueEvents(landlease.events, w, ctx('2026-03-29T21:00:00+03:00'));
    expect(applied).toEqual(['rectification ends', 'tendering ends', 'enquiry ends']);
    expect(w.root).toMatchObject({
      status: 'active.auction',
      numberOfBids: 2,
      auctionUrl: `https://auction.test/texas-auctions/${committed.id}`,
    });
    expect(w.remove).toEqual([{ kind: 'BID', id: '3'.repeat(32) }]);
    // Participation links are credentials: computed for the owner's answers (bidView), never written.
    expect(w.put.filter((c) => c.entity === 'bid')).toEqual([]);
    const auctionUrl = `https://auction.test/texas-auctions/${committed.id}`;
    const links = { auctionSite: 'https://auction.test', participationSecret: 'unit-test-secret' };
    // The original texas link: the SHA-1 hex of the secret followed by the bid id.
    const hash = (bidId: string) => createHash('sha1').update(`unit-test-secret${bidId}`).digest('hex');
    for (const b of bidsOf(w.children)) {
      expect(bidView(w, b, links).participationUrl).toBe(`${auctionUrl}/login?bidder_id=${b.id}&hash=${hash(b.id)}`);
      expect(bidView(w, b)).not.toHaveProperty('participationUrl');
    }
    expect(applyDueEvents(landlease.events, w, ctx('2026-03-29T21:00:00+03:00'))).toEqual([]);
  });

  it('drops draft bids in writes of at most 97 children (room for the revision), the event due until the last of them', () => {
    const hex = (n: number) => n.toString(16).padStart(32, '0');
    const children = [
      bidChild(bid('1', 'active', { bidNumber: 1 }), 'h1'),
      bidChild(bid('2', 'active', { bidNumber: 2 }), 'h2'),
      ...Array.from({ length: 250 }, (_, i) => bidChild({ ...bid('3', 'draft'), id: hex(i) }, 'h')),
    ];
    const tenderEnds = { ...ctx('2026-03-02T10:00:00+02:00'), now: at(committed.tenderPeriod!.endDate) + 1 };
    let state = { root: { ...committed, status: 'active.tendering' } as typeof committed, children };
    const writes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const w = working(state);
      const applied = applyDueEvents(landlease.events, w, tenderEnds);
      writes.push(w.remove.length);
      const gone = new Set(w.remove.map((p) => p.id));
      state = { root: w.root, children: w.children.filter((c) => !gone.has(c.place.id)) };
      if (!w.more) {
        expect(applied).toEqual(['tendering ends']);
        break;
      }
      expect(applied).toEqual([]);
      expect(w.root.status).toBe('active.tendering');
    }
    expect(writes).toEqual([97, 97, 56]);
    expect(state.root.status).toBe('active.enquiry');
    expect(bidsOf(state.children).map((b) => b.status)).toEqual(['active', 'active']);
  });

  it('does nothing before a period ends', () => {
    const w = working({ root: committed, children: [] });
    expect(applyDueEvents(landlease.events, w, ctx('2026-03-03T10:00:00+02:00'))).toEqual([]);
    expect(w.root).toBe(committed);
  });

  it('makes the auction unsuccessful when too few bids were activated, and marks the others unsuccessful', () => {
    const enquiry = { ...committed, status: 'active.enquiry' as const };
    const w = working({
      root: enquiry,
      children: [bidChild(bid('1', 'active', { bidNumber: 1 }), 'h1'), bidChild(bid('2', 'pending'), 'h2')],
    });
    applyDueEvents(landlease.events, w, ctx('2026-03-29T21:00:00+03:00'));
    expect(w.root.status).toBe('unsuccessful');
    expect(
      bidsOf(w.children)
        .map((b) => b.status)
        .sort(),
    ).toEqual(['active', 'unsuccessful']);
  });
});

describe('landlease bid rules', () => {
  const now = at('2026-03-05T10:00:00+02:00');
  const tendering: LandleaseAuction = {
    ...commit(draft('2026-03-30'), at('2026-03-02T10:00:00+02:00')),
    status: 'active.tendering',
  };
  const pending = {
    id: '1'.repeat(32),
    status: 'pending',
    qualified: false,
    owner: 'broker',
    date: '',
    tenderers: [],
  } as Bid;
  const ctx = (documents: DocumentRecord[] = [], others: Bid[] = []) => ({
    auction: tendering,
    others,
    documents,
    now,
  });

  it('creates bids in draft with the auction value and without qualified', () => {
    const fields = landleaseBids.create(
      { qualified: true, tenderers: [draft('2026-03-30').procuringEntity] },
      tendering,
      now,
    );
    expect(fields).toMatchObject({ status: 'draft', value: tendering.value });
    expect(fields).not.toHaveProperty('qualified');
  });

  it('activates with an eligibility document, qualified and a unique bidNumber, in one PATCH or several', () => {
    // Activation reads only the document's type.
    const eligible = [{ documentType: 'eligibilityDocuments' } as DocumentRecord];
    const numbered = landleaseBids.patch(pending, { bidNumber: 3, qualified: true }, ctx(eligible));
    expect(landleaseBids.patch(numbered, { status: 'active' }, ctx(eligible))).toMatchObject({
      status: 'active',
      bidNumber: 3,
      qualified: true,
    });
    expect(() => landleaseBids.patch(pending, { status: 'active', qualified: true, bidNumber: 3 }, ctx())).toThrow(
      ForbiddenError,
    );
    expect(() =>
      landleaseBids.patch(pending, { bidNumber: 3 }, ctx(eligible, [{ ...pending, id: '2'.repeat(32), bidNumber: 3 }])),
    ).toThrow(UnprocessableError);
  });
});
