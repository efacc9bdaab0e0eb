import { expect } from 'vitest';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { aBid, aDocument, aLandleaseAuction, anInsiderAuction, anInsiderBid } from './builders.ts';
import type { client } from './http.ts';
import type { Service } from './service.ts';

/**
 * How tests get auctions of each type into each stage, through HTTP alone and with the sandbox accelerator; and, per
 * type, one `AuctionFixture` that the contract suite (`auction-contract.ts`) runs against.
 */
type Api = ReturnType<typeof client>;

export const SANDBOX = { mode: 'test', procurementMethodDetails: 'quick, accelerator=1440' };

/** The Kyiv date `days` from now: far enough for the periods to fit. */
export const kyivDayIn = (days: number): string =>
  format(new TZDate(Date.now() + days * 86_400_000, 'Europe/Kyiv'), 'yyyy-MM-dd');

/**
 * Moves the service clock just past `instant` (an ISO date-time). The offset only grows: `clock.offset` remembers it
 * across steps of one test.
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

export type Clock = ReturnType<typeof clockOf>;

// ---- landlease (API 2.5)

export const AUCTIONS = '/api/2.5/auctions';

/** A draft sandbox landlease auction 21 days ahead, with its tokens. */
export async function draftAuction(api: Api, overrides: Record<string, unknown> = {}) {
  const res = await api.post(AUCTIONS, aLandleaseAuction(kyivDayIn(21), { ...SANDBOX, ...overrides }));
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, token: res.body.access.token as string, created: res };
}

/** A sandbox landlease auction committed to `active.rectification`. */
export async function rectifyingAuction(api: Api, overrides: Record<string, unknown> = {}) {
  const draft = await draftAuction(api, overrides);
  const res = await api.patch(`${AUCTIONS}/${draft.id}`, { status: 'active.rectification' }, { token: draft.token });
  if (res.status !== 200) throw new Error(`phase commit failed: ${JSON.stringify(res.body)}`);
  return { ...draft, auction: res.body.data };
}

/** A landlease bid taken from draft to active: pending, eligibility document, then `qualified` and `bidNumber`. */
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

// ---- dgfInsider (API 2.3)

export const INSIDER = '/api/2.3/auctions';

/** A sandbox dgfInsider auction 14 days ahead, created straight in `active.tendering`, with its token. */
export async function tenderingInsider(api: Api, overrides: Record<string, unknown> = {}) {
  const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { ...SANDBOX, ...overrides }));
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return {
    id: res.body.data.id as string,
    token: res.body.access.token as string,
    auction: res.body.data,
    created: res,
  };
}

/** A registered dgfInsider bid (active unless the body says otherwise), with its own token. */
export async function insiderBid(api: Api, auctionId: string, as = 'broker2', overrides: Record<string, unknown> = {}) {
  const res = await api.post(`${INSIDER}/${auctionId}/bids`, anInsiderBid(overrides), { as });
  if (res.status !== 201) throw new Error(`bid failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, token: res.body.access.token as string, bid: res.body.data };
}

// ---- either type walked to qualification (the award and contract tests)

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
  const res = await api.post(
    `${url}/auction`,
    { bids: bids.map((b, i) => ({ id: b.id, value: { amount: 200000 - i * 10000 } })) },
    { as: 'auction' },
  );
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { ...a, url, bids, auction: (await api.get(url)).body.data };
}

/** A landlease sandbox auction walked to qualification: one pending award for the best of two bids (broker's). */
export async function qualifyingLandlease(api: Api, service: Service, clock: Clock) {
  const a = await rectifyingAuction(api);
  const url = `${AUCTIONS}/${a.id}`;
  await clock.passTo(a.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  const bids: Bidder[] = [
    { ...(await activeBid(api, a.id, 1, 'broker2')), as: 'broker2' },
    { ...(await activeBid(api, a.id, 2, 'broker')), as: 'broker' },
  ];
  await clock.passTo(a.auction.tenderPeriod.endDate);
  await service.bot('chronograph');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const res = await api.post(
    `${url}/auction`,
    { bids: bids.map((b, i) => ({ id: b.id, value: { amount: 150000 + i * 1000 } })) },
    { as: 'auction' },
  );
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { ...a, url, bids, auction: (await api.get(url)).body.data };
}

// ---- one fixture per type: what the contract suite needs to know

export interface Owned {
  id: string;
  token: string;
}

export interface OpenAuction extends Owned {
  /** The auction as the last step left it (its periods). */
  auction: any;
}

export interface AuctionFixture {
  /** The procurementMethodType. */
  type: string;
  /** Its API path. */
  base: string;
  /** Another type, for "415 on another procurementMethodType". */
  otherType: string;
  /** What each document route writes in `documentOf` (as the original of the type did). */
  documentOf: { auction: string; bid: string; award: string; contract: string };
  /** How the API answers `Location`: a path (2.5) or an absolute URL (2.3). */
  location: (service: Service, path: string) => string;
  /** The `access` a creation answers. */
  access: Record<string, unknown>;
  /** Server fields every new auction of the type has. */
  serverFields: Record<string, unknown>;
  /** The body of a new auction (sandbox). */
  body: (overrides?: Record<string, unknown>) => Record<string, unknown>;
  /** The status a draft is committed to, and what the commit answers. */
  committed: string;
  /** The refusal of an owner's edit in a status that takes none (the texts of the original services differ). */
  closedForEdits: (status: string) => string;
  /** An auction that takes documents and questions (the first status after the draft). */
  open: (api: Api) => Promise<OpenAuction>;
  /** An auction that takes bids. */
  tendering: (api: Api, service: Service, clock: Clock) => Promise<OpenAuction>;
  /** A bid made active (ready for the auction), with its bidder's eligibility document. */
  bid: (api: Api, auctionId: string, as: string, n: number) => Promise<Owned>;
  /** Whether `next_check` shows while the auction runs (dgfInsider: its planned end, as the original; landlease: none). */
  nextCheckInAuction: boolean;
  /** Brings a tendering auction with its active bids to `active.auction` (the chronograph on demand). */
  toAuction: (service: Service, clock: Clock, auction: any) => Promise<void>;
}

const ORGANIZER_FIELDS = {
  procurementMethod: 'open',
  submissionMethod: 'electronicAuction',
  awardCriteria: 'highestCost',
  owner: 'broker',
};

export const landlease: AuctionFixture = {
  type: 'landlease',
  base: AUCTIONS,
  otherType: 'dgfInsider',
  documentOf: { auction: 'auction', bid: 'bid', award: 'auction', contract: 'auction' },
  location: (_service, path) => path,
  access: { token: expect.stringMatching(/^[0-9a-f]{32}$/), transfer: expect.stringMatching(/^[0-9a-f]{32}$/) },
  serverFields: { ...ORGANIZER_FIELDS, status: 'draft', auctionParameters: { type: 'texas' } },
  body: (overrides = {}) => aLandleaseAuction(kyivDayIn(21), { ...SANDBOX, ...overrides }),
  committed: 'active.rectification',
  closedForEdits: (status) => `Can't patch auction in current (${status}) auction status`,
  open: (api) => rectifyingAuction(api),
  async tendering(api, service, clock) {
    const a = await rectifyingAuction(api);
    await clock.passTo(a.auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    return { ...a, auction: (await api.get(`${AUCTIONS}/${a.id}`)).body.data };
  },
  bid: (api, auctionId, as, n) => activeBid(api, auctionId, n, as),
  nextCheckInAuction: false,
  async toAuction(service, clock, auction) {
    await clock.passTo(auction.tenderPeriod.endDate);
    await service.bot('chronograph');
    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
  },
};

export const dgfInsider: AuctionFixture = {
  type: 'dgfInsider',
  base: INSIDER,
  otherType: 'landlease',
  // The dgf Document model: every auction-side document is a `tender` one.
  documentOf: { auction: 'tender', bid: 'tender', award: 'tender', contract: 'tender' },
  location: (service, path) => `${service.url}${path}`,
  access: { token: expect.stringMatching(/^[0-9a-f]{32}$/), transfer: expect.stringMatching(/^[0-9a-f]{32}$/) },
  serverFields: {
    ...ORGANIZER_FIELDS,
    status: 'active.tendering',
    auctionParameters: { type: 'insider', dutchSteps: 80 },
  },
  body: (overrides = {}) => anInsiderAuction(kyivDayIn(14), { ...SANDBOX, ...overrides }),
  committed: 'active.tendering',
  closedForEdits: (status) => `Can't update auction in current (${status}) status`,
  open: (api) => tenderingInsider(api),
  tendering: (api) => tenderingInsider(api),
  nextCheckInAuction: true,
  async bid(api, auctionId, as) {
    const bid = await insiderBid(api, auctionId, as);
    const doc = await api.post(
      `${INSIDER}/${auctionId}/bids/${bid.id}/documents`,
      aDocument({ documentType: 'eligibilityDocuments' }),
      { as, token: bid.token },
    );
    if (doc.status !== 201) throw new Error(`bid document failed: ${JSON.stringify(doc.body)}`);
    return bid;
  },
  async toAuction(service, clock, auction) {
    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
  },
};

/** Every auction type: the contract suite runs once per entry. */
export const AUCTION_TYPES: readonly AuctionFixture[] = [landlease, dgfInsider];
