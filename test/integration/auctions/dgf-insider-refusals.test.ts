import { afterEach, describe, expect, it } from 'vitest';
import { aDocument, anInsiderAuction, anInsiderBid, aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, INSIDER, insiderBid, kyivDayIn, SANDBOX, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const forbidden = (description: string, name = 'data') => ({
  status: 'error',
  errors: [{ location: 'body', name, description }],
});
const PERMISSION = { status: 'error', errors: [{ location: 'url', name: 'permission', description: 'Forbidden' }] };

/** A sandbox auction with active bids (by these brokers, in this order), moved by the chronograph to `active.auction`. */
async function runningAuction(bidders: string[]) {
  const a = await tenderingInsider(api);
  const bids = [];
  for (const as of bidders) bids.push({ ...(await insiderBid(api, a.id, as)), as });
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  return { ...a, url: `${INSIDER}/${a.id}`, bids };
}

/** A running auction whose results rank the bids in the order given (highest first): awards in qualification. */
async function qualifyingAuction(bidders: string[]) {
  const a = await runningAuction(bidders);
  const results = a.bids.map((b, i) => ({ id: b.id, value: { amount: 200000 - i * 10000 } }));
  const res = await api.post(`${a.url}/auction`, { bids: results }, { as: 'auction' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const awards = (await api.get(`${a.url}/awards`)).body.data as { id: string; status: string; bid_id: string }[];
  return { ...a, awards };
}

describe('dgfInsider auction creation refusals', () => {
  it('requires the 2.3 fields and the auction start date', async () => {
    const body: Record<string, unknown> = anInsiderAuction(kyivDayIn(14), SANDBOX);
    for (const key of ['dgfID', 'dgfDecisionID', 'dgfDecisionDate', 'auctionPeriod']) delete body[key];
    const res = await api.post(INSIDER, body);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const sorted = [...res.body.errors].sort((x: { name: string }, y: { name: string }) => (x.name < y.name ? -1 : 1));
    expect(sorted).toEqual(
      ['auctionPeriod', 'dgfDecisionDate', 'dgfDecisionID', 'dgfID'].map((name) => ({
        location: 'body',
        name,
        description: ['This field is required.'],
      })),
    );
  });

  it('accepts only UAH and a date for dgfDecisionDate', async () => {
    const res = await api.post(
      INSIDER,
      anInsiderAuction(kyivDayIn(14), {
        ...SANDBOX,
        value: { amount: 1, currency: 'USD' },
        dgfDecisionDate: 'yesterday',
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { name: string }) => e.name).sort()).toEqual(['dgfDecisionDate', 'value']);
    expect(JSON.stringify(res.body)).toContain('currency should be only UAH');
  });

  it('refuses an auction day whose enquiry period would already be over', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(0), SANDBOX));
    expect(res.body).toEqual(
      forbidden('auctionPeriod.startDate is incorrect, it does not allow to create periods correctly'),
    );
  });

  it('keeps 2.3 and 2.5 auctions apart', async () => {
    const { id } = await tenderingInsider(api);
    expect((await api.get(`/api/2.5/auctions/${id}`)).body.errors[0]).toMatchObject({
      name: 'auction_id',
      description: 'Not Found',
    });
  });
});

describe('dgfInsider auction PATCH refusals', () => {
  it('allows a draft only the commit to active.tendering', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { ...SANDBOX, status: 'draft' }));
    const url = `${INSIDER}/${res.body.data.id}`;
    const token = res.body.access.token;
    expect((await api.patch(url, { title: 'Інша назва' }, { token })).body).toEqual(
      forbidden("Can't update auction in current (draft) status"),
    );
    expect((await api.patch(url, { status: 'active.auction' }, { token })).body).toEqual(
      forbidden("Can't update auction in current (draft) status"),
    );
    expect((await api.get(url)).body.data.status).toBe('draft');
  });

  it('refuses items after the rectification period, and refuses malformed fields during it', async () => {
    const { id, token, auction } = await tenderingInsider(api);
    const url = `${INSIDER}/${id}`;
    const bad = await api.patch(url, { tenderAttempts: 'twice' }, { token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].name).toBe('tenderAttempts');
    await clock.passTo(auction.rectificationPeriod.endDate);
    const { startDate, endDate } = auction.rectificationPeriod;
    expect((await api.patch(url, { items: auction.items }, { token })).body).toEqual(
      forbidden(
        `Item can be edited only during the rectification period of the auction: from (${startDate}) to (${endDate}).`,
      ),
    );
  });

  it('refuses edits once the auction has left tendering', async () => {
    const a = await runningAuction(['broker2']);
    expect((await api.patch(a.url, { title: 'x' }, { token: a.token })).body).toEqual(
      forbidden("Can't update auction in current (active.auction) status"),
    );
  });
});

describe('dgfInsider questions and bids refusals', () => {
  it('takes no answer once the auction runs', async () => {
    const a = await tenderingInsider(api);
    const question = (await api.post(`${INSIDER}/${a.id}/questions`, aQuestion(), { as: 'broker2' })).body.data;
    const answerUrl = `${INSIDER}/${a.id}/questions/${question.id}`;
    await insiderBid(api, a.id);
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.patch(answerUrl, { answer: 'Ні' }, { token: a.token })).body).toEqual(
      forbidden("Can't update question in current (active.auction) auction status"),
    );
  });

  it('requires qualified and eligible to be true', async () => {
    const { id } = await tenderingInsider(api);
    const res = await api.post(`${INSIDER}/${id}/bids`, anInsiderBid({ qualified: false, eligible: undefined }));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { name: string }) => e.name).sort()).toEqual(['eligible', 'qualified']);
    expect(res.body.errors.find((e: { name: string }) => e.name === 'eligible').description).toEqual([
      'This field is required.',
    ]);
    // Too many tenderers, each also invalid: the list's own error, not a 500 (found by the fuzzer).
    const two = await api.post(`${INSIDER}/${id}/bids`, anInsiderBid({ tenderers: [{}, {}] }));
    expect(two.body.errors).toEqual([
      { location: 'body', name: 'tenderers', description: ['Please provide at most 1 item.'] },
    ]);
  });

  it('lets a bid move only to active, and takes no bid once the auction runs', async () => {
    const { id } = await tenderingInsider(api);
    const bid = await insiderBid(api, id, 'broker2', { status: 'draft' });
    const bidUrl = `${INSIDER}/${id}/bids/${bid.id}`;
    expect((await api.patch(bidUrl, { status: 'pending' }, { as: 'broker2', token: bid.token })).body).toEqual(
      forbidden("Can't update bid to (pending) status", 'bid'),
    );
    const odd = await api.patch(bidUrl, { status: { toString: {} } }, { as: 'broker2', token: bid.token });
    expect([odd.status, odd.body.errors[0].name]).toEqual([422, 'status']);
    expect((await api.get(bidUrl, { as: 'broker2', token: bid.token })).body.data.status).toBe('draft');
    expect((await api.patch(bidUrl, { status: 'active' }, { as: 'broker' })).body).toEqual(PERMISSION);
    const a = await runningAuction(['broker2']);
    expect((await api.post(`${a.url}/bids`, anInsiderBid())).body).toEqual(
      forbidden("Can't add bid in current (active.auction) auction status"),
    );
  });

  it('makes an auction without active bids unsuccessful when the enquiry period ends', async () => {
    const a = await tenderingInsider(api);
    await insiderBid(api, a.id, 'broker2', { status: 'draft' });
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(`${INSIDER}/${a.id}`)).body.data).toMatchObject({ status: 'unsuccessful', numberOfBids: 0 });
  });
});

describe('dgfInsider results and award chain refusals', () => {
  it('lets only the bid owner cancel a waiting award, and promotes the next waiting award when one fails', async () => {
    const a = await qualifyingAuction(['broker2', 'broker', 'broker2']);
    const [first, second, third] = a.awards;
    expect(a.awards.map((w) => w.status)).toEqual(['pending', 'pending.waiting', 'pending.waiting']);
    const awardUrl = (w: { id: string }) => `${a.url}/awards/${w.id}`;

    // The auction owner may not cancel a waiting award; its bidder may.
    expect((await api.patch(awardUrl(second), { status: 'cancelled' }, { token: a.token })).body).toEqual(
      forbidden('Only bid owner may cancel award in current (pending.waiting) status'),
    );
    expect((await api.patch(awardUrl(second), { status: 'active' }, { token: a.token })).body).toEqual(
      forbidden("Can't switch award (pending.waiting) status to (active) status"),
    );
    expect(
      (await api.patch(awardUrl(second), { status: 'cancelled' }, { token: a.bids[1].token })).body.data.status,
    ).toBe('cancelled');
    expect(
      (await api.patch(awardUrl(first), { status: 'unsuccessful' }, { token: a.bids[0].token, as: 'broker2' })).body,
    ).toEqual(PERMISSION);

    // Protocol rule; the owner disqualifies the first: the third (the cancelled second skipped) becomes pending.
    expect((await api.patch(awardUrl(first), { status: 'active' }, { token: a.token })).body).toEqual(
      forbidden("Can't switch award status to (active) before auction owner load auction protocol"),
    );
    expect((await api.patch(awardUrl(first), { status: 'cancelled' }, { token: a.token })).body).toEqual(
      forbidden("Can't switch award (pending) status to (cancelled) status"),
    );
    const odd = await api.patch(awardUrl(first), { status: { toString: '7' } }, { token: a.token });
    expect([odd.status, odd.body.errors[0].name]).toEqual([422, 'status']);
    expect((await api.patch(awardUrl(first), { status: 'unsuccessful' }, { token: a.token })).body.data.status).toBe(
      'unsuccessful',
    );
    const after = (await api.get(`${a.url}/awards`)).body.data;
    expect(after.map((w: { status: string }) => w.status)).toEqual(['unsuccessful', 'cancelled', 'pending']);
    expect(after[2].verificationPeriod).toHaveProperty('startDate');
    expect((await api.patch(awardUrl(first), { status: 'active' }, { token: a.token })).body).toEqual(
      forbidden("Can't update award in current (unsuccessful) status"),
    );

    // The third is activated, its contract signed: it can no longer be disqualified; nothing else signs early.
    await api.post(`${awardUrl(third)}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token: a.token });
    expect((await api.patch(awardUrl(third), { status: 'active' }, { token: a.token })).status).toBe(200);
    const [contract] = (await api.get(`${a.url}/contracts`)).body.data;
    const contractUrl = `${a.url}/contracts/${contract.id}`;
    expect((await api.patch(contractUrl, { status: 'active' }, { token: a.token })).body).toEqual(
      forbidden("Can't switch contract status to (active) before dateSigned is set"),
    );
    await api.patch(contractUrl, { dateSigned: clock.now() }, { token: a.token });
    expect((await api.patch(awardUrl(third), { status: 'unsuccessful' }, { token: a.token })).body).toEqual(
      forbidden('You cannot disqualify the bidder the contract for whom has already been downloaded.'),
    );
    expect((await api.get(a.url)).body.data.status).toBe('active.awarded');
  });

  it('makes the auction unsuccessful when the last award fails, cancelling an unsigned contract', async () => {
    const a = await qualifyingAuction(['broker2']);
    const awardUrl = `${a.url}/awards/${a.awards[0].id}`;
    await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token: a.token });
    await api.patch(awardUrl, { status: 'active' }, { token: a.token });
    expect((await api.patch(awardUrl, { status: 'unsuccessful' }, { token: a.token })).body.data.status).toBe(
      'unsuccessful',
    );
    const done = (await api.get(a.url)).body.data;
    expect(done.status).toBe('unsuccessful');
    expect(done.contracts).toMatchObject([{ status: 'cancelled' }]);
  });
});

describe('dgfInsider cancellation', () => {
  it('is refused once the auction ended unsuccessful', async () => {
    const { id, token, auction } = await tenderingInsider(api);
    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(`${INSIDER}/${id}`)).body.data.status).toBe('unsuccessful');
    expect((await api.post(`${INSIDER}/${id}/cancellations`, { reason: 'Пізно' }, { token })).body).toEqual(
      forbidden("Can't add cancellation in current (unsuccessful) auction status"),
    );
  });

  it('keeps the bids of a cancelled auction, and may be created active at once', async () => {
    const { id, token } = await tenderingInsider(api);
    await insiderBid(api, id, 'broker2');
    const created = await api.post(
      `${INSIDER}/${id}/cancellations`,
      { reason: 'Рішення', status: 'active' },
      { token },
    );
    expect(created.body.data.status).toBe('active');
    const cancelled = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.bids).toHaveLength(1);
  });
});

describe('dgfInsider items sent malformed', () => {
  it('answers 422 on items for a null item during rectification, never a crash', async () => {
    const { id, token } = await tenderingInsider(api);
    for (const items of [[null], [[]]]) {
      const res = await api.patch(`${INSIDER}/${id}`, { items }, { token });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { name: string }) => e.name)).toContain('items');
    }
  });
});
