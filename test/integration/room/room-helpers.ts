import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRoomBot } from '../../../lib/local/room-server.ts';
import {
  activeBid,
  AUCTIONS,
  type Clock,
  clockOf,
  INSIDER,
  insiderBid,
  rectifyingAuction,
  tenderingInsider,
} from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { type Service, useService } from '../../support/service.ts';
import { RoomClient } from '../../../client/room-client.ts';

type Api = ReturnType<typeof client>;

/**
 * A room test's service: the gateway, its API client and clock, the room bot every half second (it plans the rooms),
 * and the room connections it opens (`connect`: resumed, then closed after each test with the clock reset).
 */
export function useRoom() {
  const service = useService();
  const api = client(() => service.url);
  const clock = clockOf(service);
  let stopBot = () => {};
  beforeAll(() => {
    stopBot = startRoomBot(500, () => {});
  });
  afterAll(() => stopBot());
  const open: RoomClient[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await clock.reset();
  });
  const connect = async (url: string) => {
    const c = await RoomClient.open(url);
    open.push(c);
    await c.ask({ action: 'resume' }, 'room');
    return c;
  };
  return { service, api, clock, open, connect };
}

/** The stage the room document says is current. */
export const stageOf = (room: any) => {
  const { document } = room;
  return document.stages[document.currentStage - document.stagesFrom];
};

/** Waits until the room is in the stage named `name` (or of type `type`), and returns that stage. */
export async function atStage(c: RoomClient, name: string): Promise<any> {
  const room = await c.roomWhere((r) => stageOf(r)?.name === name || stageOf(r)?.type === name);
  return stageOf(room);
}

/** The participation link of a bid, as its owner reads it. */
export async function linkOf(
  api: Api,
  base: string,
  auctionId: string,
  bid: { id: string; token: string; as?: string },
) {
  const res = await api.get(`${base}/${auctionId}/bids/${bid.id}`, { token: bid.token, as: bid.as ?? 'broker2' });
  return res.body.data.participationUrl as string;
}

/**
 * A dgfInsider auction (accelerated 60 times) with two bids whose room is open, a minute before its start: its id,
 * its view, its first bidder (broker2) and that bidder's participation link.
 */
export async function insiderInRoom(api: Api, clock: Clock, service: Service) {
  const a = await tenderingInsider(api, { procurementMethodDetails: 'quick, accelerator=60' });
  const b1 = { ...(await insiderBid(api, a.id, 'broker2')), as: 'broker2' };
  await insiderBid(api, a.id, 'broker');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const auction = (await api.get(`${INSIDER}/${a.id}`)).body.data;
  await clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) - 60_000).toISOString());
  await service.bot('room');
  return { id: a.id, auction, b1, link: await linkOf(api, INSIDER, a.id, b1) };
}

/**
 * A landlease auction (value 100,000, minimal step 1,000; `accelerator` times faster) with two active bids, in
 * active.auction with its room planned a few seconds before its start: its id, its bids and their links.
 */
export async function landleaseInRoom(api: Api, clock: Clock, service: Service, accelerator = 60) {
  const a = await rectifyingAuction(api, { procurementMethodDetails: `quick, accelerator=${accelerator}` });
  await clock.passTo(a.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  const b1 = { ...(await activeBid(api, a.id, 1, 'broker2')), as: 'broker2' };
  const b2 = { ...(await activeBid(api, a.id, 2, 'broker')), as: 'broker' };
  await clock.passTo(a.auction.tenderPeriod.endDate);
  await service.bot('chronograph');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const { startDate } = (await api.get(`${AUCTIONS}/${a.id}`)).body.data.auctionPeriod;
  await clock.passTo(new Date(Date.parse(startDate) - 3000).toISOString());
  await service.bot('room');
  const links = [await linkOf(api, AUCTIONS, a.id, b1), await linkOf(api, AUCTIONS, a.id, b2)];
  return { ...a, b1, b2, links };
}
