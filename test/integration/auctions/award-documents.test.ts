import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, qualifyingInsider, qualifyingLandlease } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const forbidden = (description: string) => ({
  status: 'error',
  errors: [{ location: 'body', name: 'data', description }],
});
const PERMISSION = { status: 'error', errors: [{ location: 'url', name: 'permission', description: 'Forbidden' }] };
const protocol = () => aDocument({ documentType: 'auctionProtocol' });

describe('dgfInsider awards', () => {
  it('carry a full value in the auction money and an open complaint period, waiting awards too', async () => {
    const { auction } = await qualifyingInsider(api, service, clock);
    const [pending, waiting] = auction.awards;
    expect(pending.value).toEqual({ amount: 200000, currency: 'UAH', valueAddedTaxIncluded: true });
    expect(waiting.value).toEqual({ amount: 190000, currency: 'UAH', valueAddedTaxIncluded: true });
    expect(pending.complaintPeriod).toEqual({ startDate: pending.date });
    expect(waiting.complaintPeriod).toEqual({ startDate: waiting.date });
  });

  it('lets the winning bidder upload the auction protocol (author bid_owner), then the owner, who activates the award', async () => {
    const { url, token, bids, auction } = await qualifyingInsider(api, service, clock);
    const [pending, waiting] = auction.awards;
    const awardUrl = `${url}/awards/${pending.id}`;
    const winner = bids.find((b) => b.id === pending.bid_id)!;
    const other = bids.find((b) => b.id !== pending.bid_id)!;

    const byBidder = await api.post(`${awardUrl}/documents`, protocol(), { as: winner.as, token: winner.token });
    expect(byBidder.status).toBe(201);
    expect(byBidder.headers.get('location')).toMatch(
      new RegExp(`/awards/${pending.id}/documents/${byBidder.body.data.id}$`),
    );
    expect(byBidder.body.data).toMatchObject({
      documentType: 'auctionProtocol',
      author: 'bid_owner',
      documentOf: 'tender',
    });

    // The bidder's protocol alone does not let the award become active.
    expect((await api.patch(awardUrl, { status: 'active' }, { token })).body).toEqual(
      forbidden("Can't switch award status to (active) before auction owner load auction protocol"),
    );
    // Another bidder, a broker without a token, a wrong token: 403.
    expect((await api.post(`${awardUrl}/documents`, protocol(), { as: other.as, token: other.token })).body).toEqual(
      PERMISSION,
    );
    expect((await api.post(`${awardUrl}/documents`, protocol())).body).toEqual(PERMISSION);
    expect((await api.post(`${awardUrl}/documents`, protocol(), { token: '0'.repeat(32) })).body).toEqual(PERMISSION);
    // The waiting award's own bidder may add to it too (upstream: any award's bid owner, while in qualification).
    expect(
      (await api.post(`${url}/awards/${waiting.id}/documents`, protocol(), { as: other.as, token: other.token })).body
        .data.author,
    ).toBe('bid_owner');

    const byOwner = await api.post(`${awardUrl}/documents`, protocol(), { token });
    expect(byOwner.body.data).toMatchObject({ author: 'auction_owner', documentOf: 'tender' });
    const activated = await api.patch(awardUrl, { status: 'active' }, { token });
    expect(activated.body.data.status).toBe('active');
    expect(activated.body.data.complaintPeriod).toEqual({ startDate: pending.date, endDate: activated.body.data.date });
    expect(activated.body.data.documents.map((d: { author: string }) => d.author)).toEqual([
      'bid_owner',
      'auction_owner',
    ]);

    // Awarded: award documents are closed, for both.
    const done = (await api.get(url)).body.data;
    expect(done.status).toBe('active.awarded');
    expect(done.contracts[0].value).toEqual({ amount: 200000, currency: 'UAH', valueAddedTaxIncluded: true });
    expect((await api.post(`${awardUrl}/documents`, protocol(), { token })).body).toEqual(
      forbidden("Can't add document in current (active.awarded) auction status"),
    );
    expect((await api.post(`${awardUrl}/documents`, protocol(), { as: winner.as, token: winner.token })).body).toEqual(
      forbidden("Can't add document in current (active.awarded) auction status"),
    );
    // As upstream, the document itself is checked before the auction status.
    expect((await api.post(`${awardUrl}/documents`, { title: 'no file' }, { token })).status).toBe(422);
  });

  it('closes the complaint period of a cancelled waiting award and of a disqualified one', async () => {
    const { url, token, bids, auction } = await qualifyingInsider(api, service, clock);
    const [pending, waiting] = auction.awards;
    const second = bids.find((b) => b.id === waiting.bid_id)!;
    const cancelled = (
      await api.patch(`${url}/awards/${waiting.id}`, { status: 'cancelled' }, { as: second.as, token: second.token })
    ).body.data;
    expect(cancelled.complaintPeriod).toEqual({ startDate: waiting.date, endDate: cancelled.date });
    const failed = (await api.patch(`${url}/awards/${pending.id}`, { status: 'unsuccessful' }, { token })).body.data;
    expect(failed.complaintPeriod).toEqual({ startDate: pending.date, endDate: failed.date });
    expect(failed.verificationPeriod.endDate).toBe(failed.date);
    expect((await api.get(url)).body.data.status).toBe('unsuccessful');
  });

  it('answers 404 for an unknown award', async () => {
    const { url, token } = await qualifyingInsider(api, service, clock, ['broker2']);
    const res = await api.post(`${url}/awards/${'0'.repeat(32)}/documents`, protocol(), { token });
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ location: 'url', name: 'award_id', description: 'Not Found' });
  });
});

describe('landlease awards', () => {
  it('say documentOf auction, take the winner’s protocol as enough to activate, and close the complaint period then', async () => {
    const { url, token, bids, auction } = await qualifyingLandlease(api, service, clock);
    const [award] = auction.awards;
    expect(award.value).toEqual({ amount: 151000, currency: 'UAH', valueAddedTaxIncluded: true });
    expect(award.complaintPeriod).toEqual({ startDate: award.date });
    const awardUrl = `${url}/awards/${award.id}`;
    const winner = bids.find((b) => b.id === award.bid_id)!;
    const loser = bids.find((b) => b.id !== award.bid_id)!;

    expect(
      (await api.post(`${awardUrl}/documents`, protocol(), { as: winner.as, token: winner.token })).body.data,
    ).toMatchObject({ author: 'bid_owner', documentOf: 'auction' });
    expect((await api.post(`${awardUrl}/documents`, protocol(), { as: loser.as, token: loser.token })).body).toEqual(
      PERMISSION,
    );
    // Awarding v3.1 (landlease) takes any auction protocol, the winner's too; only the owner activates the award.
    expect((await api.patch(awardUrl, { status: 'active' }, { as: winner.as, token: winner.token })).body).toEqual(
      PERMISSION,
    );
    const active = (await api.patch(awardUrl, { status: 'active' }, { token })).body.data;
    expect(active.complaintPeriod).toEqual({ startDate: award.date, endDate: active.date });
    expect((await api.post(`${awardUrl}/documents`, protocol(), { token })).body).toEqual(
      forbidden("Can't add document in current (active.awarded) auction status"),
    );
  });

  it('is not found through the other type’s routes, and a malformed document is a 422', async () => {
    const { url, token, auction } = await qualifyingLandlease(api, service, clock);
    // Not found on another auction's path of the other type.
    const res = await api.post(`/api/2.3/auctions/${auction.id}/awards/${auction.awards[0].id}/documents`, protocol(), {
      token,
    });
    expect(res.status).toBe(404);
    expect((await api.post(`${url}/awards/${auction.awards[0].id}/documents`, { title: 'x' }, { token })).status).toBe(
      422,
    );
  });
});

describe.each([
  ['dgfInsider', qualifyingInsider, 'tender'],
  ['landlease', qualifyingLandlease, 'auction'],
] as const)('%s award documents: reads and versions', (_type, qualifying, documentOf) => {
  it('lists and reads them, and takes a new version from the author alone while in qualification', async () => {
    const { url, token, bids, auction } = await qualifying(api, service, clock);
    const award = auction.awards.find((w: { status: string }) => w.status === 'pending');
    const awardUrl = `${url}/awards/${award.id}`;
    const winner = bids.find((b) => b.id === award.bid_id)!;
    const other = bids.find((b) => b.id !== award.bid_id)!;
    const mine = (await api.post(`${awardUrl}/documents`, protocol(), { as: winner.as, token: winner.token })).body
      .data;
    const theirs = (
      await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol', title: 'owner.pdf' }), {
        token,
      })
    ).body.data;
    expect((await api.get(`${awardUrl}/documents`)).body.data.map((d: { id: string }) => d.id)).toEqual([
      mine.id,
      theirs.id,
    ]);

    // A new version by its author: same id, author and datePublished.
    const put = await api.put(
      `${awardUrl}/documents/${mine.id}`,
      aDocument({ documentType: 'auctionProtocol', title: 'v2.pdf' }),
      { as: winner.as, token: winner.token },
    );
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      id: mine.id,
      title: 'v2.pdf',
      author: 'bid_owner',
      documentOf,
      datePublished: mine.datePublished,
    });
    expect(put.body.data.dateModified >= mine.dateModified).toBe(true);

    // Not the author: 403 url/role, whichever of the two it is; nobody else at all: 403 permission.
    const notAuthor = {
      status: 'error',
      errors: [{ location: 'url', name: 'role', description: 'Can update document only author' }],
    };
    expect((await api.put(`${awardUrl}/documents/${mine.id}`, protocol(), { token })).body).toEqual(notAuthor);
    expect(
      (await api.put(`${awardUrl}/documents/${theirs.id}`, protocol(), { as: winner.as, token: winner.token })).body,
    ).toEqual(notAuthor);
    expect(
      (await api.put(`${awardUrl}/documents/${mine.id}`, protocol(), { as: other.as, token: other.token })).body,
    ).toEqual(PERMISSION);
    expect((await api.put(`${awardUrl}/documents/${mine.id}`, protocol())).body).toEqual(PERMISSION);
    // The document is checked first (422), an unknown document is a 404.
    expect(
      (await api.put(`${awardUrl}/documents/${mine.id}`, { url: 'not a link' }, { as: winner.as, token: winner.token }))
        .status,
    ).toBe(422);
    const unknown = await api.put(`${awardUrl}/documents/${'0'.repeat(32)}`, protocol(), { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ location: 'url', name: 'document_id' });

    // Reads: the current version of each, every version with ?all=1, one with its previous versions.
    const current = (await api.get(`${awardUrl}/documents`)).body.data;
    expect(current.map((d: { id: string; title: string }) => [d.id, d.title])).toEqual([
      [mine.id, 'v2.pdf'],
      [theirs.id, 'owner.pdf'],
    ]);
    expect((await api.get(`${awardUrl}/documents?all=1`)).body.data.map((d: { id: string }) => d.id)).toEqual([
      mine.id,
      theirs.id,
      mine.id,
    ]);
    const one = (await api.get(`${awardUrl}/documents/${mine.id}`)).body.data;
    expect(one).toMatchObject({ id: mine.id, title: 'v2.pdf' });
    expect(one.previousVersions).toEqual([mine]);
    expect((await api.get(`${awardUrl}/documents/${'0'.repeat(32)}`)).status).toBe(404);
    const noAward = await api.get(`${url}/awards/${'0'.repeat(32)}/documents`);
    expect(noAward.status).toBe(404);
    expect(noAward.body.errors[0]).toMatchObject({ location: 'url', name: 'award_id' });

    // Once the award is decided the auction has left qualification: no new versions, from anyone.
    expect((await api.patch(awardUrl, { status: 'active' }, { token })).body.data.status).toBe('active');
    expect((await api.put(`${awardUrl}/documents/${theirs.id}`, protocol(), { token })).body).toEqual(
      forbidden("Can't update document in current (active.awarded) auction status"),
    );
    expect(
      (await api.put(`${awardUrl}/documents/${mine.id}`, protocol(), { as: winner.as, token: winner.token })).body,
    ).toEqual(forbidden("Can't update document in current (active.awarded) auction status"));
    expect((await api.get(`${awardUrl}/documents`)).body.data).toHaveLength(2);
  });
});
