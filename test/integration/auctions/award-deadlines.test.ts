import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { activeBid, AUCTIONS, clockOf, INSIDER, insiderBid, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const read = async (path: string) => (await api.get(path)).body.data;
const ms = (instant: string) => Date.parse(instant);

/** A dgfInsider sandbox auction with two active bids, run, and its results reported: awards pending and waiting. */
async function qualifyingInsider() {
  const a = await tenderingInsider(api);
  const url = `${INSIDER}/${a.id}`;
  const bids = [await insiderBid(api, a.id, 'broker2'), await insiderBid(api, a.id, 'broker')];
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const results = bids.map((b, i) => ({ id: b.id, value: { amount: 200000 - i * 10000 } }));
  const res = await api.post(`${url}/auction`, { bids: results }, { as: 'auction' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { ...a, url, auction: await read(url) };
}

/** A landlease sandbox auction walked to qualification: one pending award for the best of two bids. */
async function qualifyingLandlease() {
  const a = await rectifyingAuction(api);
  const url = `${AUCTIONS}/${a.id}`;
  await clock.passTo(a.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  const bids = [await activeBid(api, a.id, 1, 'broker2'), await activeBid(api, a.id, 2, 'broker')];
  await clock.passTo(a.auction.tenderPeriod.endDate);
  await service.bot('chronograph');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const res = await api.post(`${url}/auction`, { bids: bids.map((b, i) => ({ id: b.id, value: { amount: 150000 - i * 1000 } })) }, { as: 'auction' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { ...a, url, auction: await read(url) };
}

describe('awarding deadlines (chronograph)', () => {
  it('gives a pending award verification and signing periods ending at the next check, protocol deadline first', async () => {
    const { auction } = await qualifyingInsider();
    const [pending, waiting] = auction.awards;
    expect(pending.verificationPeriod).toEqual({ startDate: pending.date, endDate: expect.any(String) });
    expect(pending.signingPeriod).toEqual({ startDate: pending.date, endDate: expect.any(String) });
    expect(ms(pending.verificationPeriod.endDate)).toBeGreaterThan(ms(pending.date));
    expect(ms(pending.signingPeriod.endDate)).toBeGreaterThan(ms(pending.verificationPeriod.endDate));
    expect(waiting).not.toHaveProperty('signingPeriod');
    expect(auction.next_check).toBe(pending.verificationPeriod.endDate);
  });

  it('makes an award whose protocol is overdue unsuccessful and promotes the waiting award with its own periods', async () => {
    const { url, token, auction } = await qualifyingInsider();
    const [first, second] = auction.awards;
    // Not yet due: nothing happens.
    await service.bot('chronograph');
    expect((await read(url)).awards.map((w: { status: string }) => w.status)).toEqual(['pending', 'pending.waiting']);

    await clock.passTo(first.verificationPeriod.endDate);
    await service.bot('chronograph');
    const after = await read(url);
    expect(after.status).toBe('active.qualification');
    expect(after.awards.map((w: { status: string }) => w.status)).toEqual(['unsuccessful', 'pending']);
    const promoted = after.awards[1];
    expect(promoted.id).toBe(second.id);
    expect(ms(promoted.verificationPeriod.startDate)).toBeGreaterThanOrEqual(ms(first.verificationPeriod.endDate));
    expect(ms(promoted.verificationPeriod.endDate)).toBeGreaterThan(ms(promoted.verificationPeriod.startDate));
    expect(after.next_check).toBe(promoted.verificationPeriod.endDate);
    await service.bot('chronograph'); // idempotent
    expect(await read(url)).toEqual(after);

    // The second award is activated in time; its contract is not signed by the end of the signing period.
    const awardUrl = `${url}/awards/${promoted.id}`;
    expect((await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token })).status).toBe(201);
    expect((await api.patch(awardUrl, { status: 'active' }, { token })).status).toBe(200);
    const awarded = await read(url);
    expect(awarded.status).toBe('active.awarded');
    expect(awarded.contracts[0].signingPeriod).toEqual(promoted.signingPeriod);
    expect(awarded.next_check).toBe(promoted.signingPeriod.endDate);

    await clock.passTo(promoted.signingPeriod.endDate);
    await service.bot('chronograph');
    const failed = await read(url);
    expect(failed.status).toBe('unsuccessful');
    expect(failed.awards.map((w: { status: string }) => w.status)).toEqual(['unsuccessful', 'unsuccessful']);
    expect(failed.contracts).toMatchObject([{ status: 'cancelled' }]);
    expect(failed).not.toHaveProperty('next_check');
    expect(failed.awardPeriod).toHaveProperty('endDate');
  });

  it('leaves an award alone once its contract is signed', async () => {
    const { url, token, auction } = await qualifyingInsider();
    const [first] = auction.awards;
    const awardUrl = `${url}/awards/${first.id}`;
    await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token });
    await api.patch(awardUrl, { status: 'active' }, { token });
    const [contract] = (await read(url)).contracts;
    expect((await api.patch(`${url}/contracts/${contract.id}`, { dateSigned: clock.now() }, { token })).status).toBe(200);
    expect(await read(url)).not.toHaveProperty('next_check');

    await clock.passTo(first.signingPeriod.endDate);
    await service.bot('chronograph');
    const still = await read(url);
    expect(still.status).toBe('active.awarded');
    expect(still.awards[0].status).toBe('active');
    expect((await api.patch(`${url}/contracts/${contract.id}`, { status: 'active' }, { token })).status).toBe(200);
    expect((await read(url)).status).toBe('complete');
  });

  it('makes a landlease auction unsuccessful when its single award misses the protocol deadline', async () => {
    const { url, auction } = await qualifyingLandlease();
    const [award] = auction.awards;
    expect(auction.status).toBe('active.qualification');
    expect(award.status).toBe('pending');
    expect(auction.next_check).toBe(award.verificationPeriod.endDate);

    await clock.passTo(award.verificationPeriod.endDate);
    await service.bot('chronograph');
    const failed = await read(url);
    expect(failed.status).toBe('unsuccessful');
    expect(failed.awards).toMatchObject([{ status: 'unsuccessful' }]);
    expect(failed).not.toHaveProperty('next_check');
  });

  it('makes a landlease auction unsuccessful when the contract is not signed in time', async () => {
    const { url, token, auction } = await qualifyingLandlease();
    const [award] = auction.awards;
    const awardUrl = `${url}/awards/${award.id}`;
    await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token });
    expect((await api.patch(awardUrl, { status: 'active' }, { token })).status).toBe(200);
    expect((await read(url)).next_check).toBe(award.signingPeriod.endDate);

    await clock.passTo(award.signingPeriod.endDate);
    await service.bot('chronograph');
    const failed = await read(url);
    expect(failed.status).toBe('unsuccessful');
    expect(failed.contracts).toMatchObject([{ status: 'cancelled' }]);
  });
});
