import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { aBid, aDocument, aLandleaseAuction } from '../../support/builders.ts';
import type { client } from '../../support/http.ts';
import type { Service } from '../../support/service.ts';

/** Shared steps of the landlease tests: everything goes through HTTP, with the sandbox accelerator. */
export const AUCTIONS = '/api/2.5/auctions';
export const SANDBOX = { mode: 'test', procurementMethodDetails: 'quick, accelerator=1440' };

type Api = ReturnType<typeof client>;

/** The Kyiv date `days` from now: far enough for the periods to fit. */
export const kyivDayIn = (days: number): string => format(new TZDate(Date.now() + days * 86_400_000, 'Europe/Kyiv'), 'yyyy-MM-dd');

/** A draft sandbox auction 21 days ahead, with its tokens. */
export async function draftAuction(api: Api, overrides: Record<string, unknown> = {}) {
  const res = await api.post(AUCTIONS, aLandleaseAuction(kyivDayIn(21), { ...SANDBOX, ...overrides }));
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, token: res.body.access.token as string, created: res };
}

/** A sandbox auction committed to `active.rectification`. */
export async function rectifyingAuction(api: Api, overrides: Record<string, unknown> = {}) {
  const draft = await draftAuction(api, overrides);
  const res = await api.patch(`${AUCTIONS}/${draft.id}`, { status: 'active.rectification' }, { token: draft.token });
  if (res.status !== 200) throw new Error(`phase commit failed: ${JSON.stringify(res.body)}`);
  return { ...draft, auction: res.body.data };
}

/**
 * Moves the service clock just past `instant` (an ISO date-time) and runs the chronograph once. The offset only
 * grows: `clock.offset` remembers it across steps of one test.
 */
export function clockOf(service: Service) {
  let offset = 0;
  return {
    get offset() {
      return offset;
    },
    async passTo(instant: string) {
      offset = Math.max(offset, Date.parse(instant) - Date.now() + 1_000);
      await service.setClockOffset(offset);
    },
    async reset() {
      offset = 0;
      await service.setClockOffset(0);
    },
    now: () => new Date(Date.now() + offset).toISOString(),
  };
}

/** A bid taken from draft to active: pending, eligibility document, then `qualified` and `bidNumber`. */
export async function activeBid(api: Api, auctionId: string, bidNumber: number, as = 'broker2') {
  const bids = `${AUCTIONS}/${auctionId}/bids`;
  const created = await api.post(bids, aBid(), { as });
  if (created.status !== 201) throw new Error(`bid failed: ${JSON.stringify(created.body)}`);
  const { id } = created.body.data;
  const token = created.body.access.token;
  await api.patch(`${bids}/${id}`, { status: 'pending' }, { as, token });
  await api.post(`${bids}/${id}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), { as, token });
  const activated = await api.patch(`${bids}/${id}`, { status: 'active', qualified: true, bidNumber }, { as, token });
  if (activated.status !== 200) throw new Error(`activation failed: ${JSON.stringify(activated.body)}`);
  return { id: id as string, token: token as string };
}
