import { afterEach, describe, expect, it } from 'vitest';
import { INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { RoomClient, type Refused } from '../../../client/room-client.ts';
import { atStage, linkOf, stageOf, useRoom } from './room-helpers.ts';

const { service, api, clock, connect } = useRoom();
const refusal = (url: string) =>
  RoomClient.open(url).then(
    (c) => {
      c.close();
      throw new Error('connected');
    },
    (refused: Refused) => refused,
  );

/**
 * A dgfInsider auction (80 Dutch steps) with two active bids, in active.auction with its room planned a few seconds
 * before its start. Accelerated 60 times: a Dutch step lasts 5 s, the sealed bids 10 s, the best bid 5 s.
 */
async function insiderInRoom() {
  const a = await tenderingInsider(api, { procurementMethodDetails: 'quick, accelerator=60' });
  const b1 = { ...(await insiderBid(api, a.id, 'broker2')), as: 'broker2' };
  const b2 = { ...(await insiderBid(api, a.id, 'broker')), as: 'broker' };
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const { startDate } = (await api.get(`${INSIDER}/${a.id}`)).body.data.auctionPeriod;
  await clock.passTo(new Date(Date.parse(startDate) - 3000).toISOString());
  await service.bot('room');
  const links = [await linkOf(api, INSIDER, a.id, b1), await linkOf(api, INSIDER, a.id, b2)];
  return { ...a, b1, b2, links };
}

/**
 * Moves the service clock a second into the stage of the room document named (or typed) `name`, instead of waiting
 * for it in real time: the room's own timer, armed for real time, is late then, and the room bot (every half second:
 * room-helpers.ts) takes the room there, as in AWS a late timer would.
 */
const skipTo = (room: any, name: string) =>
  clock.passTo(room.document.stages.find((s: any) => s.name === name || s.type === name).start);

describe('dgfInsider auction room over WebSocket', { timeout: 120_000 }, () => {
  afterEach(() => clock.reset());

  it('runs two bidders and an observer through the Dutch, sealed-bid and best-bid stages to the award', async () => {
    const a = await insiderInRoom();
    const [bidder1, bidder2, observer] = await Promise.all([
      connect(RoomClient.url(service.url, a.id, a.links[0])),
      connect(RoomClient.url(service.url, a.id, a.links[1])),
      connect(RoomClient.url(service.url, a.id)),
    ]);
    expect(bidder1.room!.document.me).toMatchObject({ bidderId: a.b1.id, bidderNumber: 1 });
    expect(observer.room!.document.me).toBeUndefined();
    expect(observer.room!.document.bidders.map((b) => b.label)).toEqual(['Bidder #1', 'Bidder #2']);

    // The observer may watch, never bid.
    expect(await observer.ask({ action: 'bid', amount: 100000 }, 'bid')).toMatchObject({
      outcome: 'refused',
      message: 'You are an observer and cannot bid',
    });

    // Dutch: bidder 1 takes the step it meets (a step that ends under the bid is refused: then the next one).
    await skipTo(observer.room, 'dutch_2');
    await atStage(observer, 'dutch_2');
    let dutch: any;
    for (let i = 0; i < 5 && dutch?.outcome !== 'accepted'; i++) {
      // Bidder 1's own document at a Dutch step (the observer's can come first after the skip).
      const { amount } = stageOf(await bidder1.roomWhere((r) => stageOf(r)?.type === 'dutch'));
      dutch = await bidder1.ask({ action: 'bid', amount }, 'bid');
    }
    expect(dutch).toMatchObject({ outcome: 'accepted' });
    const dutchAmount = dutch.amount;
    const afterDutch = await observer.roomWhere((r) => r.document.results.some((x: any) => x.dutchWinner));
    expect(afterDutch.document.results[0]).toMatchObject({ bidderNumber: 1, amount: dutchAmount });

    // The Dutch part lasts its planned time whoever won it: the service clock skips to just before the sealed bids
    // (the room's timer, armed for real time, is late now: the room bot takes the room up).
    const preSealed = afterDutch.document.stages.find((x) => x.type === 'pre-sealedbid')!;
    await clock.passTo(new Date(Date.parse(preSealed.start) - 2000).toISOString());

    // Sealed bids: bidder 2 bids above the Dutch amount, seen by nobody else until the stage ends.
    await atStage(bidder2, 'sealedbid');
    const sealedAmount = dutchAmount + 3000;
    const from = bidder2.messages.length;
    expect(await bidder2.ask({ action: 'bid', amount: sealedAmount }, 'bid')).toMatchObject({ outcome: 'sealed' });
    expect(await bidder1.ask({ action: 'bid', amount: sealedAmount }, 'bid')).toMatchObject({
      outcome: 'refused',
      message: 'Not allowed to post bid for dutch winner',
    });
    const mine = await bidder2.next((m) => m.type === 'room' && m.document.me?.ownBid?.amount === sealedAmount, from);
    expect(stageOf(mine).type).toBe('sealedbid');
    const shownInSealedStage = (c: RoomClient) =>
      c.messages.flatMap((m) =>
        m.type === 'room' && stageOf(m)?.type === 'sealedbid' ? m.document.results.map((r) => r.amount) : [],
      );
    expect(shownInSealedStage(observer)).not.toContain(sealedAmount);
    expect(shownInSealedStage(bidder1)).not.toContain(sealedAmount);

    // Best bid: only the Dutch winner, at least 1 % of the initial value above the sealed maximum.
    await skipTo(mine, 'bestbid');
    await atStage(bidder1, 'bestbid');
    const best = sealedAmount + 2000;
    expect(await bidder2.ask({ action: 'bid', amount: best }, 'bid')).toMatchObject({ outcome: 'refused' });
    expect(await bidder1.ask({ action: 'bid', amount: best }, 'bid')).toMatchObject({ outcome: 'accepted' });

    // The end: results posted once, names revealed, the auction in qualification with bidder 1's award.
    await skipTo(bidder1.room, 'announcement');
    const end = await observer.roomWhere((r) => r.results === 'posted' && r.document.namesRevealed);
    expect(end.document.results[0]).toMatchObject({ bidderId: a.b1.id, amount: best });
    const auction = (await api.get(`${INSIDER}/${a.id}`)).body.data;
    expect(auction.status).toBe('active.qualification');
    const awards = (await api.get(`${INSIDER}/${a.id}/awards`)).body.data;
    expect(awards.find((x: any) => x.status === 'pending')).toMatchObject({ bid_id: a.b1.id, value: { amount: best } });

    // The audit document is on the auction: every stage and every bid the room saw, the refused ones too.
    // It is filed after the results and the names (room/lifecycle.ts): a moment later on a loaded machine.
    let audit: any;
    for (let i = 0; i < 240 && !audit; i++) {
      const documents = (await api.get(`${INSIDER}/${a.id}/documents`)).body.data as any[];
      audit = documents.find((d) => d.title === `audit_${a.id}.json`);
      if (!audit) await new Promise((r) => setTimeout(r, 250));
    }
    expect(audit).toMatchObject({ author: 'auction', format: 'application/json' });
    const file = await fetch(new URL(audit.url, service.url), {
      headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
    });
    expect(file.status).toBe(200);
    const text = await file.text();
    expect(text).toContain('Not allowed to post bid for dutch winner');
    expect(text).toContain('sealedbid');
  });

  it('refuses a forged signature and a bidder of another auction at the handshake', async () => {
    const a = await insiderInRoom();
    const other = await insiderInRoom();
    const forged = new URL(a.links[0]);
    forged.searchParams.set('signature', `${forged.searchParams.get('signature')!.slice(0, -6)}AAAA==`);
    expect(await refusal(RoomClient.url(service.url, a.id, forged.href))).toMatchObject({
      status: 403,
      body: { status: 'error', errors: [{ name: 'signature' }] },
    });
    // A bidder of the other auction, with its own genuine link, knocking at this room.
    expect(await refusal(RoomClient.url(service.url, a.id, other.links[0]))).toMatchObject({ status: 403 });
    // Its link opens its own room.
    const own = await connect(RoomClient.url(service.url, other.id, other.links[0]));
    expect(own.room!.document.me).toMatchObject({ bidderId: other.b1.id });
  });
});
