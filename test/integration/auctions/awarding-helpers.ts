import type { client } from '../../support/http.ts';
import { insiderBid, INSIDER, tenderingInsider } from './dgf-insider-helpers.ts';
import { activeBid, AUCTIONS, type clockOf, rectifyingAuction } from './landlease-helpers.ts';
import type { Service } from '../../support/service.ts';

/** Steps shared by the award and contract tests: auctions of either type walked to qualification through HTTP. */

type Api = ReturnType<typeof client>;
type Clock = ReturnType<typeof clockOf>;
export interface Bidder {
  id: string;
  token: string;
  as: string;
}

/** A dgfInsider sandbox auction run with one active bid per key, results reported (best first): awards pending/waiting. */
export async function qualifyingInsider(api: Api, service: Service, clock: Clock, bidders = ['broker2', 'broker']) {
  const a = await tenderingInsider(api);
  const url = `${INSIDER}/${a.id}`;
  const bids: Bidder[] = [];
  for (const as of bidders) bids.push({ ...(await insiderBid(api, a.id, as)), as });
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const res = await api.post(`${url}/auction`, { bids: bids.map((b, i) => ({ id: b.id, value: { amount: 200000 - i * 10000 } })) }, { as: 'auction' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { ...a, url, bids, auction: (await api.get(url)).body.data };
}

/** A landlease sandbox auction walked to qualification: one pending award for the best of two bids (broker's). */
export async function qualifyingLandlease(api: Api, service: Service, clock: Clock) {
  const a = await rectifyingAuction(api);
  const url = `${AUCTIONS}/${a.id}`;
  await clock.passTo(a.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  const bids: Bidder[] = [{ ...(await activeBid(api, a.id, 1, 'broker2')), as: 'broker2' }, { ...(await activeBid(api, a.id, 2, 'broker')), as: 'broker' }];
  await clock.passTo(a.auction.tenderPeriod.endDate);
  await service.bot('chronograph');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const res = await api.post(`${url}/auction`, { bids: bids.map((b, i) => ({ id: b.id, value: { amount: 150000 + i * 1000 } })) }, { as: 'auction' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { ...a, url, bids, auction: (await api.get(url)).body.data };
}
