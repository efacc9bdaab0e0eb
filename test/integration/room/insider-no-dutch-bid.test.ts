import { afterEach, describe, expect, it } from 'vitest';
import { INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { useRoom } from './room-helpers.ts';

const { service, api, clock, connect } = useRoom();

/**
 * A dgfInsider auction where nobody takes a Dutch step: the room ends with the Dutch part and reports every bid
 * without a value, so every bid is invalid and the auction is unsuccessful (upstream INS `collection_post` of the
 * results: no active bid left, `pendify_auction_status('unsuccessful')`), never left in qualification without an
 * award. The room's own timers walk it accelerated 2880 times: the whole Dutch part takes about 8.5 s.
 */
async function insiderWithTwoBids(accelerator: number) {
  const a = await tenderingInsider(api, { procurementMethodDetails: `quick, accelerator=${accelerator}` });
  const bids = [await insiderBid(api, a.id, 'broker2'), await insiderBid(api, a.id, 'broker')];
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const url = `${INSIDER}/${a.id}`;
  const scheduled = (await api.get(url)).body.data;
  expect(scheduled.status).toBe('active.auction');
  return { ...a, url, bids, scheduled };
}

async function expectUnsuccessful(url: string, bidIds: string[]) {
  const auction = (await api.get(url, { as: 'auction' })).body.data;
  expect(auction.status).toBe('unsuccessful');
  expect(auction).not.toHaveProperty('awards');
  expect(auction).not.toHaveProperty('next_check');
  expect(auction.auctionPeriod).toHaveProperty('endDate');
  expect(auction.bids.map((b: { id: string; status: string }) => [b.id, b.status]).sort()).toEqual(
    bidIds.map((id) => [id, 'invalid']).sort(),
  );
  expect((await api.get(`${url}/awards`)).body.data).toEqual([]);
}

describe('dgfInsider auction without a Dutch bid', { timeout: 120_000 }, () => {
  afterEach(() => clock.reset());

  it('is unsuccessful once the room, run on its own timers, posts its results', async () => {
    const a = await insiderWithTwoBids(2880);
    await clock.passTo(new Date(Date.parse(a.scheduled.auctionPeriod.startDate) - 3000).toISOString());
    await service.bot('room');
    const observer = await connect(RoomClient.url(service.url, a.id));
    // Nobody bids: the room's timers walk the Dutch steps down, the room ends at the sealed-bid stage and reports.
    const end = await observer.roomWhere((r) => r.results === 'posted', 60_000);
    expect(end.document.results).toEqual([]);
    await expectUnsuccessful(
      a.url,
      a.bids.map((b) => b.id),
    );
  });

  it('is unsuccessful when the bots take the room past its end (the clock skipped over it)', async () => {
    const a = await insiderWithTwoBids(60);
    await clock.passTo(new Date(Date.parse(a.scheduled.auctionPeriod.startDate) - 3000).toISOString());
    await service.bot('room');
    const planned = (await api.get(a.url)).body.data.auctionPeriod;
    // Far past the Dutch part (80 steps of 5 s here): the room's timers, armed for real time, are late; the bots
    // (room timers, then the chronograph) apply what is due.
    await clock.passTo(new Date(Date.parse(planned.startDate) + 30 * 60_000).toISOString());
    for (let i = 0; i < 5; i++) {
      await service.bot('room');
      await service.bot('chronograph');
      if ((await api.get(a.url)).body.data.status !== 'active.auction') break;
    }
    await expectUnsuccessful(
      a.url,
      a.bids.map((b) => b.id),
    );
  });

  it('is unsuccessful when the auction system reports every bid without a value', async () => {
    const a = await insiderWithTwoBids(1440);
    const res = await api.post(`${a.url}/auction`, { bids: a.bids.map((b) => ({ id: b.id })) }, { as: 'auction' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('unsuccessful');
    await expectUnsuccessful(
      a.url,
      a.bids.map((b) => b.id),
    );
  });
});
