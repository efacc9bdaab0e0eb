import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';

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
