import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { putApiKey } from '../../../functions/store/api-keys.ts';
import { aBid, aDocument, anInsiderBid } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, INSIDER, landlease, tenderingInsider } from '../../support/auctions.ts';
import { partition } from '../reliability/fuzz-support.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

/** Far more children than one DynamoDB transaction holds (100 items): every change must work in bounded batches. */
const DRAFTS = 500;
const ACTIVE = 150;

/** One broker's key places at most 100 bids on an auction (limits.ts): the bids come from eight brokers. */
const BROKERS = Array.from({ length: 8 }, (_, i) => `bulk-broker-${i}`);
const brokerOf = (i: number) => BROKERS[i % BROKERS.length];
beforeAll(async () => {
  for (const name of BROKERS) await putApiKey(name, { name, role: 'broker', levels: '1234' });
});

/** `make(i)` for i < count, at most `width` at a time (the machine is shared: no burst of hundreds). */
async function inPool<T>(count: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await make(i);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

function created(res: { status: number; body: any }) {
  if (res.status !== 201 && res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, token: (res.body.access?.token ?? '') as string };
}

/** The bid items stored under the auction (drafts dropped leave none behind). */
async function storedBids(auctionId: string): Promise<{ status: string }[]> {
  const items = JSON.parse(await partition(`AUCTION#${auctionId}`)) as { SK: string; data: { status: string } }[];
  return items.filter((i) => /^BID#[^#]+$/.test(i.SK)).map((i) => i.data);
}

const results = (bids: { id: string }[]) => ({
  bids: bids.map((b, i) => ({ id: b.id, value: { amount: 100000 + i } })),
});

describe('an auction with more bids than one transaction holds', () => {
  it('walks a dgfInsider auction with 500 draft and 150 active bids through its events and results', async () => {
    const { id, auction } = await tenderingInsider(api);
    const bids = `${INSIDER}/${id}/bids`;
    const active = await inPool(DRAFTS + ACTIVE, 8, async (i) => {
      const draft = i < DRAFTS;
      return created(await api.post(bids, anInsiderBid(draft ? { status: 'draft' } : {}), { as: brokerOf(i) }));
    });
    const actives = active.slice(DRAFTS);

    // Enquiry ends: 500 drafts dropped (several writes), the auction scheduled.
    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const scheduled = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(scheduled).toMatchObject({ status: 'active.auction', numberOfBids: ACTIVE });
    expect(scheduled).toHaveProperty('next_check'); // the auction's planned end, as the original showed it
    const left = await storedBids(id);
    expect(left).toHaveLength(ACTIVE);
    expect(left.every((b) => b.status === 'active')).toBe(true);

    // Results: 150 bid values and 150 awards (a chain), in bounded writes, then qualification.
    const module = (await api.get(`${INSIDER}/${id}/auction`, { as: 'auction' })).body.data;
    expect(module.bids).toHaveLength(ACTIVE);
    const reported = await api.post(`${INSIDER}/${id}/auction`, results(actives), { as: 'auction' });
    expect(reported.status).toBe(200);
    expect(reported.body.data.status).toBe('active.qualification');
    const qualifying = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(qualifying.status).toBe('active.qualification');
    expect(qualifying.awards).toHaveLength(ACTIVE);
    expect(qualifying.awards.filter((a: { status: string }) => a.status === 'pending')).toHaveLength(1);
    expect(qualifying.awards[0]).toMatchObject({ status: 'pending', bid_id: actives[ACTIVE - 1].id });
    expect(new Set(qualifying.bids.map((b: { value: { amount: number } }) => b.value.amount)).size).toBe(ACTIVE);

    // The award deadline passes: the first award fails, the next takes its turn.
    await clock.passTo(qualifying.awards[0].verificationPeriod.endDate);
    await service.bot('chronograph');
    const next = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(next.awards.slice(0, 2).map((a: { status: string }) => a.status)).toEqual(['unsuccessful', 'pending']);
  }, 300_000);

  it('walks a landlease auction with 500 draft and 150 active bids through its events and results', async () => {
    const a = await landlease.tendering(api, service, clock);
    const bids = `${AUCTIONS}/${a.id}/bids`;
    // The registered bids first (each with its eligibility document), then the drafts.
    const registered = await inPool(ACTIVE, 2, async (i) => {
      const bid = { ...created(await api.post(bids, aBid(), { as: brokerOf(i) })), as: brokerOf(i) };
      const owner = { as: bid.as, token: bid.token };
      created(await api.patch(`${bids}/${bid.id}`, { status: 'pending' }, owner));
      created(
        await api.post(`${bids}/${bid.id}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), owner),
      );
      return bid;
    });
    await inPool(DRAFTS, 8, async (i) => created(await api.post(bids, aBid(), { as: brokerOf(i) })));

    // Tendering ends: the drafts are dropped in several writes.
    await clock.passTo(a.auction.tenderPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(`${AUCTIONS}/${a.id}`)).body.data.status).toBe('active.enquiry');
    expect(await storedBids(a.id)).toHaveLength(ACTIVE);

    // Within enquiry the bidders activate (bidNumber claims move the auction's revision: one at a time); one stays pending.
    await inPool(ACTIVE - 1, 1, async (i) => {
      const bid = registered[i];
      const body = { status: 'active', qualified: true, bidNumber: i + 1 };
      created(await api.patch(`${bids}/${bid.id}`, body, { as: bid.as, token: bid.token }));
    });

    // Enquiry ends: the pending bid becomes unsuccessful, the auction is scheduled.
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(`${AUCTIONS}/${a.id}`)).body.data).toMatchObject({
      status: 'active.auction',
      numberOfBids: ACTIVE - 1,
    });
    const statuses = (await storedBids(a.id)).map((b) => b.status);
    expect(statuses.filter((s) => s === 'active')).toHaveLength(ACTIVE - 1);
    expect(statuses.filter((s) => s === 'unsuccessful')).toHaveLength(1);

    const reported = await api.post(`${AUCTIONS}/${a.id}/auction`, results(registered.slice(0, -1)), {
      as: 'auction',
    });
    expect(reported.status).toBe(200);
    const qualifying = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
    expect(qualifying.status).toBe('active.qualification');
    expect(qualifying.awards).toHaveLength(1);
    expect(qualifying.awards[0]).toMatchObject({ status: 'pending', bid_id: registered[ACTIVE - 2].id });
  }, 300_000);

  it('cancels a landlease auction with 300 bids: the bids go in bounded writes, then the status', async () => {
    const a = await landlease.tendering(api, service, clock);
    const bids = `${AUCTIONS}/${a.id}/bids`;
    await inPool(300, 8, async (i) => created(await api.post(bids, aBid(), { as: brokerOf(i) })));
    const cancelled = await api.post(
      `${AUCTIONS}/${a.id}/cancellations`,
      { reason: 'Скасовано', status: 'active' },
      { token: a.token },
    );
    expect(cancelled.status).toBe(201);
    expect((await api.get(`${AUCTIONS}/${a.id}`)).body.data.status).toBe('cancelled');
    expect(await storedBids(a.id)).toEqual([]);
    expect((await api.post(bids, aBid(), { as: 'broker2' })).status).toBe(403);
  }, 120_000);
});
