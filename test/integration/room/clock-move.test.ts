import { afterAll, describe, expect, it } from 'vitest';
import { activeBid, AUCTIONS, clockOf, rectifyingAuction } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { stageOf } from './room-helpers.ts';

/**
 * The local room server's timers follow the local clock: a room planned ten minutes ahead, its clock then moved to a
 * second before its start, opens its first round a second later, not ten minutes later. No room bot runs here (its
 * backstop would take up a late timer): only the timer can open the round.
 */
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
const open: RoomClient[] = [];
afterAll(async () => {
  for (const c of open) c.close();
  await clock.reset();
});

describe('the local room timers and the moved clock', { timeout: 60_000 }, () => {
  it('re-arms a pending timer when the clock moves: the round opens at its start by the new clock', async () => {
    const a = await rectifyingAuction(api, { procurementMethodDetails: 'quick, accelerator=10' });
    await clock.passTo(a.auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    for (const [n, as] of [
      [1, 'broker2'],
      [2, 'broker'],
    ] as const)
      await activeBid(api, a.id, n, as);
    await clock.passTo(a.auction.tenderPeriod.endDate);
    await service.bot('chronograph');
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const start = Date.parse((await api.get(`${AUCTIONS}/${a.id}`)).body.data.auctionPeriod.startDate);
    await clock.passTo(new Date(start - 600_000).toISOString());
    await service.bot('room');
    const observer = await RoomClient.open(RoomClient.url(service.url, a.id));
    open.push(observer);
    const first = await observer.ask({ action: 'resume' }, 'room');
    expect(stageOf(first).type).toBe('pause');

    await clock.passTo(new Date(start - 1000).toISOString());
    const round = await observer.roomWhere((r) => stageOf(r)?.name === 'round_1', 30_000);
    expect(round.document.version).toBeGreaterThan(first.document.version);
  });
});
