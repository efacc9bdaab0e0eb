import { describe, expect, it } from 'vitest';
import { working } from '../../../functions/domain/auctions/auction.ts';
import { awardsOf, startAwarding } from '../../../functions/domain/auctions/awarding.ts';
import { bidChild, type Bid } from '../../../functions/domain/auctions/bids.ts';
import { nextCheck } from '../../../functions/domain/auctions/timed-events.ts';
import { AWARDING_V3, dgfInsider } from '../../../functions/domain/auctions/types/dgf-insider/definition.ts';
import type { DgfInsiderAuction } from '../../../functions/domain/auctions/types/dgf-insider/record.ts';
import { ForbiddenError } from '../../../functions/domain/kernel/errors.ts';
import { parseInstant, type Micros } from '../../../functions/domain/kernel/time.ts';
import { ukraineCalendar, type Calendar } from '../../../functions/domain/calendar/working-days.ts';
import { anInsiderAuction } from '../../support/builders.ts';

const at = (text: string): Micros => parseInstant(text)!;
const martial = ukraineCalendar('martial-law');
const peacetime = ukraineCalendar('peacetime');

function created(
  day: string,
  now: Micros,
  overrides: Record<string, unknown> = {},
  calendar: Calendar = martial,
): DgfInsiderAuction {
  return {
    ...dgfInsider.initialize(anInsiderAuction(day, overrides), { now, calendar }),
    id: 'a'.repeat(32),
    auctionID: 'UA-EA-2026-01-01-000001',
    owner: 'broker',
    date: '',
    dateModified: '',
  };
}

describe('dgfInsider creation periods', () => {
  it('ends the enquiry at 20:00 Kyiv the day before, tendering at 16:15 on the day, rectification after 2 working days', () => {
    // Thursday 19 March 2026; the auction on Monday 30 March (+03:00 since the 29th).
    const a = created('2026-03-30', at('2026-03-19T12:00:00+02:00'));
    expect(a.status).toBe('active.tendering');
    expect(a.enquiryPeriod).toEqual({ startDate: '2026-03-19T12:00:00+02:00', endDate: '2026-03-29T20:00:00+03:00' });
    expect(a.tenderPeriod?.endDate).toBe('2026-03-30T16:15:00+03:00');
    // Thu → Fri, (weekend), Mon: two working days later, same wall-clock time.
    expect(a.rectificationPeriod?.endDate).toBe('2026-03-23T12:00:00+02:00');
    expect(a.auctionPeriod).toEqual({ shouldStartAfter: '2026-03-30T00:00:00+03:00' });
    expect(nextCheck(dgfInsider.events, a)).toBe(at(a.enquiryPeriod?.endDate ?? ''));
  });

  it('counts the rectification working days with the calendar it is given', () => {
    // Thursday 20 Aug 2026: Fri 21, then Mon 24 (Independence Day: a working day under martial law only) or Tue 25.
    const now = at('2026-08-20T12:00:00+03:00');
    expect(created('2026-09-10', now).rectificationPeriod?.endDate).toBe('2026-08-24T12:00:00+03:00');
    expect(created('2026-09-10', now, {}, peacetime).rectificationPeriod?.endDate).toBe('2026-08-25T12:00:00+03:00');
  });

  it('refuses an auction day whose enquiry period is already over', () => {
    expect(() => created('2026-03-19', at('2026-03-19T12:00:00+02:00'))).toThrow(ForbiddenError);
  });
});

describe('dgfInsider owner PATCH', () => {
  const now = at('2026-03-19T12:00:00+02:00');
  it('takes rectification fields during rectification and drops the rest', () => {
    const a = created('2026-03-30', now);
    const next = dgfInsider.ownerPatch(
      a,
      { dgfID: 'N-2', value: { amount: 1, currency: 'UAH' }, enquiryPeriod: {} },
      { now: now + 1, calendar: martial },
    );
    expect(next.dgfID).toBe('N-2');
    expect(next.value).toEqual(a.value);
    expect(next.enquiryPeriod).toEqual(a.enquiryPeriod);
  });

  it('ignores edits after rectification', () => {
    const a = created('2026-03-30', now);
    expect(
      dgfInsider.ownerPatch(a, { dgfID: 'N-2' }, { now: at('2026-03-24T12:00:00+02:00'), calendar: martial }),
    ).toBe(a);
  });
});

describe('awarding v3 chain', () => {
  const bid = (id: string, amount: number, date: string): Bid => ({
    id,
    status: 'active',
    owner: 'b',
    date,
    tenderers: [],
    value: { amount },
  });
  const threeBids = () =>
    working({
      root: { ...created('2026-03-30', at('2026-03-19T12:00:00+02:00')), status: 'active.auction' },
      children: [
        bidChild(bid('low', 10, '2026-03-19T10:00:00+02:00'), 'h'),
        bidChild(bid('high', 30, '2026-03-19T11:00:00+02:00'), 'h'),
        bidChild(bid('mid', 20, '2026-03-19T09:00:00+02:00'), 'h'),
      ],
    });

  it('gives the best bid a pending award and the others waiting awards, in rank order', () => {
    const w = threeBids();
    startAwarding(w, { now: at('2026-03-30T18:00:00+03:00'), calendar: martial }, AWARDING_V3);
    expect(w.root.status).toBe('active.qualification');
    expect(awardsOf(w).map((a) => [a.bid_id, a.status])).toEqual([
      ['high', 'pending'],
      ['mid', 'pending.waiting'],
      ['low', 'pending.waiting'],
    ]);
  });

  it('counts the working days of the pending award with the calendar it is given', () => {
    // Thursday 20 Aug 2026; 4 working days: Fri 21, Mon 24 (a day off in peacetime only), Tue 25, Wed 26 (Thu 27).
    const now = at('2026-08-20T12:00:00+03:00');
    const verificationEnd = (calendar: Calendar) => {
      const w = threeBids();
      startAwarding(w, { now, calendar }, AWARDING_V3);
      return awardsOf(w)[0]?.verificationPeriod?.endDate;
    };
    expect(verificationEnd(martial)).toBe('2026-08-26T18:00:00+03:00');
    expect(verificationEnd(peacetime)).toBe('2026-08-27T18:00:00+03:00');
  });
});
