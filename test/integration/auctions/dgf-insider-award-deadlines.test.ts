import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, qualifyingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const read = async (path: string) => (await api.get(path)).body.data;
const ms = (instant: string) => Date.parse(instant);

describe('dgfInsider awarding deadlines (chronograph)', () => {
  it('gives a pending award verification and signing periods ending at the next check, protocol deadline first', async () => {
    const { auction } = await qualifyingInsider(api, service, clock);
    const [pending, waiting] = auction.awards;
    expect(pending.verificationPeriod).toEqual({ startDate: pending.date, endDate: expect.any(String) });
    expect(pending.signingPeriod).toEqual({ startDate: pending.date, endDate: expect.any(String) });
    expect(ms(pending.verificationPeriod.endDate)).toBeGreaterThan(ms(pending.date));
    expect(ms(pending.signingPeriod.endDate)).toBeGreaterThan(ms(pending.verificationPeriod.endDate));
    expect(waiting).not.toHaveProperty('signingPeriod');
    expect(auction.next_check).toBe(pending.verificationPeriod.endDate);
  });

  it('makes an award whose protocol is overdue unsuccessful and promotes the waiting award with its own periods', async () => {
    const { url, token, auction } = await qualifyingInsider(api, service, clock);
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
    expect(
      (await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token })).status,
    ).toBe(201);
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
    const { url, token, auction } = await qualifyingInsider(api, service, clock);
    const [first] = auction.awards;
    const awardUrl = `${url}/awards/${first.id}`;
    await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token });
    await api.patch(awardUrl, { status: 'active' }, { token });
    const [contract] = (await read(url)).contracts;
    expect((await api.patch(`${url}/contracts/${contract.id}`, { dateSigned: clock.now() }, { token })).status).toBe(
      200,
    );
    expect(await read(url)).not.toHaveProperty('next_check');

    await clock.passTo(first.signingPeriod.endDate);
    await service.bot('chronograph');
    const still = await read(url);
    expect(still.status).toBe('active.awarded');
    expect(still.awards[0].status).toBe('active');
    expect((await api.patch(`${url}/contracts/${contract.id}`, { status: 'active' }, { token })).status).toBe(200);
    expect((await read(url)).status).toBe('complete');
  });
});
