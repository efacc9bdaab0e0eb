import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, qualifyingLandlease } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const read = async (path: string) => (await api.get(path)).body.data;

describe('landlease awarding deadlines (chronograph)', () => {
  it('makes the auction unsuccessful when its single award misses the protocol deadline', async () => {
    const { url, auction } = await qualifyingLandlease(api, service, clock);
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

  it('makes the auction unsuccessful when the contract is not signed in time', async () => {
    const { url, token, auction } = await qualifyingLandlease(api, service, clock);
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
