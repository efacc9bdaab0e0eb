import { anInsiderAuction, anInsiderBid } from '../../support/builders.ts';
import type { client } from '../../support/http.ts';
import { kyivDayIn, SANDBOX } from './landlease-helpers.ts';

/** Shared steps of the dgfInsider tests: everything goes through HTTP, with the sandbox accelerator. */
export const INSIDER = '/api/2.3/auctions';

type Api = ReturnType<typeof client>;

/** A sandbox dgfInsider auction 14 days ahead, created straight in `active.tendering`, with its token. */
export async function tenderingInsider(api: Api, overrides: Record<string, unknown> = {}) {
  const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { ...SANDBOX, ...overrides }));
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, token: res.body.access.token as string, auction: res.body.data, created: res };
}

/** A registered bid (active unless the body says otherwise), with its own token. */
export async function insiderBid(api: Api, auctionId: string, as = 'broker2', overrides: Record<string, unknown> = {}) {
  const res = await api.post(`${INSIDER}/${auctionId}/bids`, anInsiderBid(overrides), { as });
  if (res.status !== 201) throw new Error(`bid failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, token: res.body.access.token as string, bid: res.body.data };
}
