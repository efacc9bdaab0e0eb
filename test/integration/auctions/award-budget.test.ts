import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { type Bidder, clockOf, qualifyingInsider, qualifyingLandlease } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const text = 'б'.repeat(1_800);
/** About 7.4 KB as stored: as large as a document may be. */
const large = (documentType: string) => aDocument({ documentType, title: text, description: text });
const errorOf = (res: { body: any }) => res.body.errors?.[0]?.description;

/** A bidder adds award documents, as large as they may be, until refused (the 600 KB of the whole would take 82). */
async function fillAward(url: string, awardId: string, bidder: Bidder) {
  for (let taken = 0; taken < 100; taken++) {
    const res = await api.post(`${url}/awards/${awardId}/documents`, large('auctionProtocol'), bidder);
    if (res.status !== 201) {
      expect(res.status).toBe(403);
      return { taken, refusal: errorOf(res) };
    }
  }
  throw new Error('never refused');
}

/** The owner's steps after the award: a contract document, then the contract signed: the sale is complete. */
async function completeSale(url: string, token: string) {
  const [contract] = (await api.get(`${url}/contracts`)).body.data;
  const contractUrl = `${url}/contracts/${contract.id}`;
  expect((await api.post(`${contractUrl}/documents`, large('contractSigned'), { token })).status).toBe(201);
  await api.patch(contractUrl, { dateSigned: clock.now() }, { token });
  expect((await api.patch(contractUrl, { status: 'active' }, { token })).status).toBe(200);
  expect((await api.get(url)).body.data.status).toBe('complete');
}

const BIDDERS_SHARE =
  "The bids of one broker's key hold at most 60 KB of documents on an auction (their awards' too; every version counts)";

describe('the documents an organizer needs against bidders who fill the award documents', { timeout: 240_000 }, () => {
  it('dgfInsider: both awarded bidders fill theirs; the owner disqualifies, uploads the protocol, prolongs, completes', async () => {
    const { url, token, bids, auction } = await qualifyingInsider(api, service, clock);
    const [pending, waiting] = auction.awards;
    const bidderOf = (bidId: string) => bids.find((b) => b.id === bidId)!;
    for (const award of [pending, waiting]) {
      const { taken, refusal } = await fillAward(url, award.id, bidderOf(award.bid_id));
      expect(taken).toBeGreaterThan(0);
      expect(refusal).toBe(BIDDERS_SHARE);
    }
    // The owner still uploads the protocol of the first, and disqualifies it: the runner-up's award is next.
    expect((await api.post(`${url}/awards/${pending.id}/documents`, large('auctionProtocol'), { token })).status).toBe(
      201,
    );
    expect((await api.patch(`${url}/awards/${pending.id}`, { status: 'unsuccessful' }, { token })).status).toBe(200);
    const next = `${url}/awards/${waiting.id}`;
    expect((await api.get(next)).body.data.status).toBe('pending');
    expect((await api.post(`${next}/documents`, large('auctionProtocol'), { token })).status).toBe(201);
    expect((await api.patch(next, { status: 'active' }, { token })).body.data.status).toBe('active');
    // A prolongation's protocol is the owner's too.
    const [contract] = (await api.get(`${url}/contracts`)).body.data;
    const prolongations = `${url}/contracts/${contract.id}/prolongations`;
    const prolongation = await api.post(
      prolongations,
      {
        decisionID: 'ZM-937-99-92',
        reason: 'other',
        description: 'Prolongation description',
        datePublished: clock.now(),
      },
      { token },
    );
    expect(prolongation.status).toBe(201);
    const { documentType: _, ...untyped } = large('x');
    const prolongationUrl = `${prolongations}/${prolongation.body.data.id}`;
    expect((await api.post(`${prolongationUrl}/documents`, untyped, { token })).status).toBe(201);
    expect((await api.patch(prolongationUrl, { status: 'applied' }, { token })).status).toBe(200);
    await completeSale(url, token);
  });

  it('landlease: the winner fills its award; the owner uploads the protocol, activates and completes', async () => {
    const { url, token, bids, auction } = await qualifyingLandlease(api, service, clock);
    const [award] = auction.awards;
    const { refusal } = await fillAward(url, award.id, bids.find((b) => b.id === award.bid_id)!);
    expect(refusal).toBe(BIDDERS_SHARE);
    const awardUrl = `${url}/awards/${award.id}`;
    expect((await api.post(`${awardUrl}/documents`, large('auctionProtocol'), { token })).status).toBe(201);
    expect((await api.patch(awardUrl, { status: 'active' }, { token })).body.data.status).toBe('active');
    await completeSale(url, token);
  });

  it('landlease: the winner fills its award; the owner uploads a rejection protocol and disqualifies it', async () => {
    const { url, token, bids, auction } = await qualifyingLandlease(api, service, clock);
    const [award] = auction.awards;
    const { refusal } = await fillAward(url, award.id, bids.find((b) => b.id === award.bid_id)!);
    expect(refusal).toBe(BIDDERS_SHARE);
    const awardUrl = `${url}/awards/${award.id}`;
    expect((await api.post(`${awardUrl}/documents`, large('rejectionProtocol'), { token })).status).toBe(201);
    expect((await api.patch(awardUrl, { status: 'unsuccessful' }, { token })).body.data.status).toBe('unsuccessful');
    expect((await api.get(url)).body.data.status).toBe('unsuccessful');
  });
});
