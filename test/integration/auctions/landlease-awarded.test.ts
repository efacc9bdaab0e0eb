import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, qualifyingLandlease } from '../../support/auctions.ts';

const service = useService({ journal: true });
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const forbidden = (description: string) => ({
  status: 'error',
  errors: [{ location: 'body', name: 'data', description }],
});

/** A landlease auction whose award the owner has just activated. */
async function awardedLandlease() {
  const a = await qualifyingLandlease(api, service, clock);
  const [award] = a.auction.awards;
  const awardUrl = `${a.url}/awards/${award.id}`;
  await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token: a.token });
  const activated = await api.patch(awardUrl, { status: 'active' }, { token: a.token });
  if (activated.status !== 200) throw new Error(JSON.stringify(activated.body));
  return { ...a, award: activated.body.data, awardUrl };
}

/** The auction as the test feed lists it (sandbox auctions are test-mode). */
async function listed(id: string) {
  await service.journaled(); // the listing reads the journal
  const rows: { id: string; status: string }[] = (
    await api.get(`${AUCTIONS}?mode=test&opt_fields=status&descending=1&limit=100`)
  ).body.data;
  return rows.find((r) => r.id === id);
}

describe('landlease active.awarded', () => {
  it('is the status between the award activation and the contract activation, in the view and the listing', async () => {
    const { id, url, token, award } = await awardedLandlease();
    const awarded = (await api.get(url)).body.data;
    expect(awarded.status).toBe('active.awarded');
    expect(awarded.date).toBe(award.date);
    expect(awarded.awardPeriod.endDate).toBe(award.date);
    expect(awarded.contracts).toMatchObject([{ status: 'pending', awardID: award.id }]);
    expect(await listed(id)).toMatchObject({ status: 'active.awarded' });

    // Nothing is left to decide on the award; the contract is signed, then activated: complete.
    expect((await api.patch(`${url}/awards/${award.id}`, { status: 'unsuccessful' }, { token })).body).toEqual(
      forbidden("Can't update award in current (active) status"),
    );
    const contractUrl = `${url}/contracts/${awarded.contracts[0].id}`;
    expect((await api.patch(contractUrl, { dateSigned: clock.now() }, { token })).status).toBe(200);
    expect((await api.get(url)).body.data.status).toBe('active.awarded');
    expect((await api.patch(contractUrl, { status: 'active' }, { token })).body.data.status).toBe('active');
    expect((await api.get(url)).body.data.status).toBe('complete');
    expect(await listed(id)).toMatchObject({ status: 'complete' });
    expect((await api.patch(contractUrl, { dateSigned: clock.now() }, { token })).body).toEqual(
      forbidden("Can't update contract in current (complete) auction status"),
    );
  });

  it('is watched by the chronograph until the signing deadline, which fails the award and the auction', async () => {
    const { url, award } = await awardedLandlease();
    const awarded = (await api.get(url)).body.data;
    expect(awarded.next_check).toBe(award.signingPeriod.endDate);
    expect(await service.bot('chronograph')).toMatchObject({ changed: 0 });
    expect((await api.get(url)).body.data.status).toBe('active.awarded');

    await clock.passTo(award.signingPeriod.endDate);
    await service.bot('chronograph');
    const failed = (await api.get(url)).body.data;
    expect(failed.status).toBe('unsuccessful');
    const [lost] = failed.awards;
    expect(lost).toMatchObject({
      status: 'unsuccessful',
      complaintPeriod: { startDate: award.complaintPeriod.startDate, endDate: lost.date },
    });
    expect(lost.signingPeriod.endDate).toBe(lost.date);
    expect(failed.contracts).toMatchObject([{ status: 'cancelled' }]);
  });

  it('can be cancelled by the owner, keeping the bids', async () => {
    const { url, token, bids } = await awardedLandlease();
    const cancellation = await api.post(
      `${url}/cancellations`,
      { reason: 'Рішення організатора', status: 'active' },
      { token },
    );
    expect(cancellation.status).toBe(201);
    const cancelled = (await api.get(url)).body.data;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.bids.map((b: { id: string }) => b.id).sort()).toEqual(bids.map((b) => b.id).sort());
    expect(cancelled).not.toHaveProperty('next_check');
  });
});

describe('landlease award in qualification', () => {
  it('makes the auction unsuccessful when its single award misses the protocol deadline', async () => {
    const { url, auction } = await qualifyingLandlease(api, service, clock);
    const [award] = auction.awards;
    expect(auction.status).toBe('active.qualification');
    expect(award.status).toBe('pending');
    expect(auction.next_check).toBe(award.verificationPeriod.endDate);

    await clock.passTo(award.verificationPeriod.endDate);
    await service.bot('chronograph');
    const failed = (await api.get(url)).body.data;
    expect(failed.status).toBe('unsuccessful');
    expect(failed.awards).toMatchObject([{ status: 'unsuccessful' }]);
    expect(failed).not.toHaveProperty('next_check');
  });

  it.each(['rejectionProtocol', 'act'])(
    'fails on the owner’s decision once the award carries a %s; the auction is then unsuccessful',
    async (documentType) => {
      const { url, token, bids, auction } = await qualifyingLandlease(api, service, clock);
      const [award] = auction.awards;
      const awardUrl = `${url}/awards/${award.id}`;
      const winner = bids.find((b) => b.id === award.bid_id)!;
      const refused = forbidden(
        "Can't switch award status to (unsuccessful) before auction owner load reject protocol or act",
      );
      expect((await api.patch(awardUrl, { status: 'unsuccessful' }, { token })).body).toEqual(refused);
      // An auction protocol is no reason to reject; the winner may not reject its own award.
      await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token });
      expect((await api.patch(awardUrl, { status: 'unsuccessful' }, { token })).body).toEqual(refused);
      expect((await api.post(`${awardUrl}/documents`, aDocument({ documentType }), { token })).status).toBe(201);
      expect(
        (await api.patch(awardUrl, { status: 'unsuccessful' }, { as: winner.as, token: winner.token })).status,
      ).toBe(403);
      expect((await api.get(url)).body.data.status).toBe('active.qualification');

      const failed = await api.patch(awardUrl, { status: 'unsuccessful' }, { token });
      expect(failed.status).toBe(200);
      const lost = failed.body.data;
      expect(lost).toMatchObject({
        status: 'unsuccessful',
        complaintPeriod: { startDate: award.complaintPeriod.startDate, endDate: lost.date },
      });
      expect(lost.verificationPeriod.endDate).toBe(lost.date);
      const after = (await api.get(url)).body.data;
      expect(after).toMatchObject({ status: 'unsuccessful', awardPeriod: { endDate: lost.date } });
      expect(after.contracts ?? []).toEqual([]);
      expect(after).not.toHaveProperty('next_check');
      // Final: nothing more on the award.
      expect((await api.patch(awardUrl, { status: 'active' }, { token })).status).toBe(403);
    },
  );
});
