/**
 * What each kind of change costs in DynamoDB: one walk through the API of a running local gateway (the whole sale of a
 * lot, as test/integration/bots/convoy.test.ts walks it, and a landlease draft), each measured call asking the gateway
 * for its figures (`x-agora-capacity`: lib/local/gateway.ts): DynamoDB requests, read and write capacity units as
 * DynamoDB Local reports them (`ReturnConsumedCapacity`), and the revision items written and their bytes. The bench
 * prints the table (bench/costs.ts); test/integration/history/cost-per-change.test.ts runs the same walk and finds a
 * figure for every kind.
 */
import { aBounceAsset } from '../test/support/assets.ts';
import {
  aDocument,
  aLandleaseAuction,
  aLot,
  anInsiderAuction,
  anInsiderBid,
  aQuestion,
} from '../test/support/builders.ts';
import { type Answer, client } from '../test/support/http.ts';

export interface ChangeCost {
  kind: string;
  /** DynamoDB requests the call made (reads included). */
  requests: number;
  /** Read and write capacity units (on demand: request units). */
  read: number;
  write: number;
  /** Revision items written, and their bytes (DynamoDB's item size). */
  revisions: number;
  revisionBytes: number;
}

/** The kinds of change the table has a row for, in its order. */
export const CHANGE_KINDS = [
  'lot create',
  'lot PATCH (title, pending)',
  'asset create (bounce)',
  'asset PATCH (title)',
  'auction 2.3 create (dgfInsider)',
  'auction 2.3 PATCH (title)',
  'auction 2.5 create (landlease draft)',
  'auction 2.5 PATCH (title)',
  'question create',
  'document upload (auction)',
  'document new version (PUT)',
  'bid create (dgfInsider, hidden)',
  'concierge: lot and asset verified',
  'convoy: auction released from its lot',
  'chronograph: active.tendering → active.auction',
  'room result post (POST /auction)',
  'award document upload',
  'award transition (→ active)',
  'contract PATCH (dateSigned)',
  'contract transition (→ active)',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The kinds whose change the public view shows at once, so that each writes a revision (the hidden bids write none). */
export const HIDDEN_KINDS: readonly ChangeKind[] = ['bid create (dgfInsider, hidden)'];

const MEASURE = { 'x-agora-capacity': '1' };
/** Sandbox auctions: periods divided by 1440 (test/support/auctions.ts's, without its test imports). */
const SANDBOX = { mode: 'test', procurementMethodDetails: 'quick, accelerator=1440' };

const figures = (kind: string, headers: Headers): ChangeCost => ({
  kind,
  requests: Number(headers.get('x-agora-dynamodb-requests')),
  read: Number(headers.get('x-agora-read-units')),
  write: Number(headers.get('x-agora-write-units')),
  revisions: Number(headers.get('x-agora-revisions')),
  revisionBytes: Number(headers.get('x-agora-revision-bytes')),
});

/** Walks every kind once against the gateway at `base`; the clock is moved through its local endpoint and put back. */
export async function measureChanges(base: string): Promise<ChangeCost[]> {
  const api = client(() => base);
  const costs = new Map<string, ChangeCost>();
  const ok = (res: Answer, what: string, status = [200, 201]) => {
    if (!status.includes(res.status)) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  /** A measured call: its figures are the row of `kind`. */
  const measured = async (
    kind: ChangeKind,
    method: string,
    path: string,
    data: unknown,
    o: { as?: string; token?: string } = {},
  ) => {
    const res = ok(await api.call(method, path, data, { as: 'broker', ...o, headers: MEASURE }), kind);
    costs.set(kind, figures(kind, res.headers));
    return res;
  };
  const bot = async (name: string, kind?: ChangeKind) => {
    const res = await fetch(`${base}/_local/bots/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(kind && MEASURE) },
    });
    const report = (await res.json()).data;
    if (!kind) return;
    if (report?.changed !== 1) throw new Error(`${kind}: the run changed ${report?.changed} (one expected)`);
    // The run counts its own requests (its report's): the gateway's count is outside the bot's own scope.
    costs.set(kind, { ...figures(kind, res.headers), requests: report.requests });
  };
  let offset = 0;
  const setClock = (ms: number) => {
    offset = ms;
    return fetch(`${base}/_local/clock`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offsetMs: ms }),
    });
  };
  const passTo = (instant: string) => setClock(Math.max(offset, Date.parse(instant) - Date.now() + 1_000));
  const kyivDayIn = (days: number) =>
    new Date(Date.now() + days * 86_400_000 + 2 * 3_600_000).toISOString().slice(0, 10);
  const read = async (path: string) => ok(await api.get(path), `GET ${path}`).body.data;

  try {
    // A dgfInsider auction walked from its create to its contract.
    const auction = await measured(
      'auction 2.3 create (dgfInsider)',
      'POST',
      '/api/2.3/auctions',
      anInsiderAuction(kyivDayIn(14), SANDBOX),
    );
    const url = `/api/2.3/auctions/${auction.body.data.id}`;
    const token = auction.body.access.token;
    await measured('auction 2.3 PATCH (title)', 'PATCH', url, { title: 'Права вимоги за кредитами' }, { token });
    await measured('question create', 'POST', `${url}/questions`, aQuestion(), { as: 'broker2' });
    const document = await measured('document upload (auction)', 'POST', `${url}/documents`, aDocument(), { token });
    await measured(
      'document new version (PUT)',
      'PUT',
      `${url}/documents/${document.body.data.id}`,
      aDocument({ title: 'Notice (2).pdf' }),
      { token },
    );
    const first = await measured('bid create (dgfInsider, hidden)', 'POST', `${url}/bids`, anInsiderBid(), {
      as: 'broker2',
    });
    const second = ok(await api.post(`${url}/bids`, anInsiderBid(), { as: 'broker' }), 'second bid');
    await passTo(auction.body.data.enquiryPeriod.endDate);
    await bot('chronograph', 'chronograph: active.tendering → active.auction');
    const bids = [first.body.data.id, second.body.data.id];
    await measured(
      'room result post (POST /auction)',
      'POST',
      `${url}/auction`,
      { bids: bids.map((id, i) => ({ id, value: { amount: 150000 - i * 30000 } })) },
      { as: 'auction' },
    );
    const award = (await read(url)).awards[0];
    await measured(
      'award document upload',
      'POST',
      `${url}/awards/${award.id}/documents`,
      aDocument({ documentType: 'auctionProtocol' }),
      { token },
    );
    await measured(
      'award transition (→ active)',
      'PATCH',
      `${url}/awards/${award.id}`,
      { status: 'active' },
      { token },
    );
    const contract = (await read(url)).contracts[0];
    const signed = new Date(Date.now() + offset).toISOString();
    await measured(
      'contract PATCH (dateSigned)',
      'PATCH',
      `${url}/contracts/${contract.id}`,
      { dateSigned: signed },
      { token },
    );
    await measured(
      'contract transition (→ active)',
      'PATCH',
      `${url}/contracts/${contract.id}`,
      { status: 'active' },
      { token },
    );
  } finally {
    await setClock(0);
  }

  // An asset and a lot over it, verified by the concierge (the lot is for sale), and an auction of the lot that the
  // convoy releases: after the walk, so that the chronograph's run above moved that auction only.
  const asset = await measured('asset create (bounce)', 'POST', '/api/2.4/assets', aBounceAsset());
  const assetUrl = `/api/2.4/assets/${asset.body.data.id}`;
  const assetToken = asset.body.access.token;
  await measured('asset PATCH (title)', 'PATCH', assetUrl, { title: 'Земля під забудову' }, { token: assetToken });
  ok(await api.patch(assetUrl, { status: 'pending' }, { token: assetToken }), 'asset pending');
  const lot = await measured('lot create', 'POST', '/api/0.1/lots', aLot({ assets: [asset.body.data.id] }));
  const lotUrl = `/api/0.1/lots/${lot.body.data.id}`;
  const lotToken = lot.body.access.token;
  // A draft's title PATCH is ignored (as upstream): edited once pending.
  ok(await api.patch(lotUrl, { status: 'pending' }, { token: lotToken }), 'lot pending');
  await measured('lot PATCH (title, pending)', 'PATCH', lotUrl, { title: 'Лот під забудову' }, { token: lotToken });
  ok(await api.patch(lotUrl, { status: 'verification' }, { token: lotToken }), 'lot verification');
  await bot('concierge', 'concierge: lot and asset verified');

  // An auction of the lot, released by the convoy.
  const { items: _, ...fromLot } = anInsiderAuction(kyivDayIn(14), {
    ...SANDBOX,
    merchandisingObject: lot.body.data.id,
  });
  ok(await api.post('/api/2.3/auctions', fromLot), 'auction from the lot');
  await bot('convoy', 'convoy: auction released from its lot');

  // A landlease (2.5) draft and its edit.
  const landlease = await measured(
    'auction 2.5 create (landlease draft)',
    'POST',
    '/api/2.5/auctions',
    aLandleaseAuction(kyivDayIn(21), SANDBOX),
  );
  await measured(
    'auction 2.5 PATCH (title)',
    'PATCH',
    `/api/2.5/auctions/${landlease.body.data.id}`,
    { title: 'Оренда ділянки' },
    { token: landlease.body.access.token },
  );
  return CHANGE_KINDS.map((kind) => {
    const cost = costs.get(kind);
    if (!cost) throw new Error(`no figures for ${kind}`);
    return cost;
  });
}
