import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import {
  activeBid,
  AUCTIONS,
  clockOf,
  INSIDER,
  insiderBid,
  landlease,
  tenderingInsider,
} from '../../support/auctions.ts';
import { partition } from '../reliability/fuzz-support.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

/**
 * `<auction site>/insider-auctions/<auction id>/login?bidder_id=<bid id>&signature=<Ed25519, base64, quoted>`; the
 * auction site is the local gateway itself (it serves the room).
 */
const linkOf = (auctionId: string, bidId: string) =>
  new RegExp(
    `^${service.url}/insider-auctions/${auctionId}/login\\?bidder_id=${bidId}&signature=[A-Za-z0-9/%]{86,}3D%3D$`,
  );

/** The landlease (2.5) link: `<auction site>/texas-auctions/<auction id>/login?bidder_id=<bid id>&hash=<SHA-1 hex>`. */
const texasLinkOf = (auctionId: string, bidId: string) =>
  new RegExp(`^${service.url}/texas-auctions/${auctionId}/login\\?bidder_id=${bidId}&hash=[0-9a-f]{40}$`);

/** The stored items of an auction, as text: what a reader of the table (a backup, a leaked dump) would see. */
const stored = (auctionId: string) => partition(`AUCTION#${auctionId}`);

describe('participation links at rest', () => {
  it('are never stored: the raw item of an active bid has none while its owner reads it (dgfInsider, scheduled)', async () => {
    const { id, auction } = await tenderingInsider(api);
    const bids = [
      { ...(await insiderBid(api, id)), as: 'broker2' },
      { ...(await insiderBid(api, id, 'broker')), as: 'broker' },
    ];
    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(`${INSIDER}/${id}`)).body.data.status).toBe('active.auction');
    const items = await stored(id);
    expect(items).toContain(bids[0].id);
    expect(items).not.toContain('participationUrl');
    expect(items).not.toContain('signature=');
    for (const bid of bids) {
      const read = (await api.get(`${INSIDER}/${id}/bids/${bid.id}`, { as: bid.as, token: bid.token })).body.data;
      expect(read.participationUrl).toMatch(linkOf(id, bid.id));
      expect(read.participationUrl).toBe(bid.bid.participationUrl);
    }
  });

  it('are never stored for landlease either: computed once the auction is scheduled', async () => {
    const a = await landlease.tendering(api, service, clock);
    const bids = [await activeBid(api, a.id, 1, 'broker2'), await activeBid(api, a.id, 2, 'broker')];
    const before = (await api.get(`${AUCTIONS}/${a.id}/bids/${bids[0].id}`, { as: 'broker2', token: bids[0].token }))
      .body.data;
    expect(before).not.toHaveProperty('participationUrl'); // not scheduled yet
    await landlease.toAuction(service, clock, a.auction);
    expect((await api.get(`${AUCTIONS}/${a.id}`)).body.data.status).toBe('active.auction');
    expect(await stored(a.id)).not.toContain('participationUrl');
    expect(await stored(a.id)).not.toContain('hash=');
    const read = (await api.get(`${AUCTIONS}/${a.id}/bids/${bids[0].id}`, { as: 'broker2', token: bids[0].token })).body
      .data;
    expect(read.participationUrl).toMatch(texasLinkOf(a.id, bids[0].id));
    // The auction system sees it too.
    const module = (await api.get(`${AUCTIONS}/${a.id}/auction`, { as: 'auction' })).body.data;
    expect(module.bids.find((b: { id: string }) => b.id === bids[0].id).participationUrl).toBe(read.participationUrl);
  });
});

describe('dgfInsider participation links', () => {
  it('shows an active bid its participation link at once, to its owner only; the scheduled auction keeps it', async () => {
    const { id, auction } = await tenderingInsider(api);
    const bid = await insiderBid(api, id);
    expect(bid.bid.participationUrl).toMatch(linkOf(id, bid.id));
    const read = (await api.get(`${INSIDER}/${id}/bids/${bid.id}`, { as: 'broker2', token: bid.token })).body.data;
    expect(read.participationUrl).toBe(bid.bid.participationUrl);
    const other = await insiderBid(api, id, 'broker');
    expect(other.bid.participationUrl).toMatch(linkOf(id, other.id));
    expect(other.bid.participationUrl).not.toBe(bid.bid.participationUrl);

    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const running = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(running.status).toBe('active.auction');
    expect(bid.bid.participationUrl.startsWith(`${running.auctionUrl}/login?`)).toBe(true);
    expect(
      (await api.get(`${INSIDER}/${id}/bids/${bid.id}`, { as: 'broker2', token: bid.token })).body.data
        .participationUrl,
    ).toBe(bid.bid.participationUrl);
    const module = (await api.get(`${INSIDER}/${id}/auction`, { as: 'auction' })).body.data;
    expect(module.bids.map((b: { participationUrl: string }) => b.participationUrl).sort()).toEqual(
      [bid.bid.participationUrl, other.bid.participationUrl].sort(),
    );
  });

  it('gives a draft bid no link until its owner makes it active', async () => {
    const { id } = await tenderingInsider(api);
    const draft = await insiderBid(api, id, 'broker2', { status: 'draft' });
    expect(draft.bid).not.toHaveProperty('participationUrl');
    expect(
      (await api.get(`${INSIDER}/${id}/bids/${draft.id}`, { as: 'broker2', token: draft.token })).body.data,
    ).not.toHaveProperty('participationUrl');
    const active = await api.patch(
      `${INSIDER}/${id}/bids/${draft.id}`,
      { status: 'active' },
      { as: 'broker2', token: draft.token },
    );
    expect(active.status).toBe(200);
    expect(active.body.data.participationUrl).toMatch(linkOf(id, draft.id));
    // Refusals stay as they were: a status other than active, a stranger's token.
    expect(
      (
        await api.patch(
          `${INSIDER}/${id}/bids/${draft.id}`,
          { status: 'invalid' },
          { as: 'broker2', token: draft.token },
        )
      ).status,
    ).toBe(403);
    expect((await api.get(`${INSIDER}/${id}/bids/${draft.id}`, { as: 'broker' })).status).toBe(403);
  });
});
