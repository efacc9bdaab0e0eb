import { aBid, aDocument, aLot, aQuestion } from '../../support/builders.ts';
import { addDocument, assetIn, type CreatedAsset } from '../../support/assets.ts';
import type { client } from '../../support/http.ts';
import { lotIn, type CreatedLot } from '../../support/lots.ts';
import type { Service } from '../../support/service.ts';
import { AUCTIONS, clockOf, INSIDER, insiderBid, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';

type Api = ReturnType<typeof client>;

const ok = async <T extends { status: number; body: any }>(what: string, res: Promise<T>, status = 201): Promise<T> => {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
};

export interface Owned {
  id: string;
  token: string;
}

/**
 * One of everything, through HTTP: a pending lot with a document, a bounce asset with a document and a basic asset,
 * a landlease auction tendering with a document, a question and bids, and a dgfInsider auction walked to
 * `active.awarded` (bids with documents, awards with a protocol, a contract). Objects of `broker` unless said; each
 * token the clients were given is in `tokens`. The service clock is moved forward (reset it after).
 */
export async function fullProcedure(api: Api, service: Service) {
  const tokens: string[] = [];
  const keep = <T extends Owned>(o: T): T => {
    tokens.push(o.token);
    return o;
  };
  const clock = clockOf(service);

  const lot: CreatedLot = keep(await lotIn(api, 'pending'));
  const lotDocument = (
    await ok('lot document', api.post(`/api/0.1/lots/${lot.id}/documents`, aDocument(), { token: lot.token }))
  ).body.data.id as string;
  const otherLot: CreatedLot = keep(await lotIn(api, 'pending'));
  const bounce: CreatedAsset = keep(await assetIn(api, 'bounce', 'pending'));
  const assetDocument = (await ok('asset document', addDocument(api, bounce))).body.data.id as string;
  const basic: CreatedAsset = keep(await assetIn(api, 'basic', 'pending'));

  // landlease: rectification, then tendering with two bids (one of broker2, one of broker).
  const landCreated = await rectifyingAuction(api);
  const land = keep({ id: landCreated.id, token: landCreated.token });
  if (landCreated.created.body.access.transfer) tokens.push(landCreated.created.body.access.transfer);
  const landUrl = `${AUCTIONS}/${land.id}`;
  const landDocument = (
    await ok('landlease document', api.post(`${landUrl}/documents`, aDocument(), { token: land.token }))
  ).body.data.id as string;
  const landQuestion = (
    await ok('landlease question', api.post(`${landUrl}/questions`, aQuestion(), { as: 'broker2' }))
  ).body.data.id as string;
  await clock.passTo(landCreated.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  const landBidRes = await ok('landlease bid', api.post(`${landUrl}/bids`, aBid(), { as: 'broker2' }));
  const landBid = keep({ id: landBidRes.body.data.id as string, token: landBidRes.body.access.token as string });
  const landBidDocument = (
    await ok(
      'landlease bid document',
      api.post(`${landUrl}/bids/${landBid.id}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), {
        as: 'broker2',
        token: landBid.token,
      }),
    )
  ).body.data.id as string;
  const spareRes = await ok('landlease spare bid', api.post(`${landUrl}/bids`, aBid(), { as: 'broker2' }));
  const landSpareBid = keep({ id: spareRes.body.data.id as string, token: spareRes.body.access.token as string });
  const brokerBidRes = await ok('landlease bid of broker', api.post(`${landUrl}/bids`, aBid(), { as: 'broker' }));
  const landBrokerBid = keep({
    id: brokerBidRes.body.data.id as string,
    token: brokerBidRes.body.access.token as string,
  });

  // dgfInsider: created tendering (its clock starts from the moved clock), walked to active.awarded.
  const ins = await tenderingInsider(api);
  const insider = keep({ id: ins.id, token: ins.token });
  const insUrl = `${INSIDER}/${insider.id}`;
  const insDocument = (
    await ok('insider document', api.post(`${insUrl}/documents`, aDocument(), { token: insider.token }))
  ).body.data.id as string;
  const insQuestion = (await ok('insider question', api.post(`${insUrl}/questions`, aQuestion(), { as: 'broker2' })))
    .body.data.id as string;
  const b1 = keep(await insiderBid(api, insider.id, 'broker2', { status: 'draft' }));
  const insBidDocument = (
    await ok(
      'insider bid document',
      api.post(`${insUrl}/bids/${b1.id}/documents`, aDocument({ documentType: 'eligibilityDocuments' }), {
        as: 'broker2',
        token: b1.token,
      }),
    )
  ).body.data.id as string;
  await ok(
    'insider bid activation',
    api.patch(`${insUrl}/bids/${b1.id}`, { status: 'active' }, { as: 'broker2', token: b1.token }),
    200,
  );
  const b2 = keep(await insiderBid(api, insider.id, 'broker'));
  await clock.passTo(ins.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  await ok(
    'results',
    api.post(
      `${insUrl}/auction`,
      {
        bids: [
          { id: b1.id, value: { amount: 150000 } },
          { id: b2.id, value: { amount: 120000 } },
        ],
      },
      { as: 'auction' },
    ),
    200,
  );
  const award = (await api.get(insUrl)).body.data.awards[0].id as string;
  const insAwardDocument = (
    await ok(
      'protocol',
      api.post(`${insUrl}/awards/${award}/documents`, aDocument({ documentType: 'auctionProtocol' }), {
        token: insider.token,
      }),
    )
  ).body.data.id as string;
  await ok('award', api.patch(`${insUrl}/awards/${award}`, { status: 'active' }, { token: insider.token }), 200);
  const contract = (await api.get(insUrl)).body.data.contracts[0].id as string;
  const insContractDocument = (
    await ok(
      'contract document',
      api.post(`${insUrl}/contracts/${contract}/documents`, aDocument({ documentType: 'contractSigned' }), {
        token: insider.token,
      }),
    )
  ).body.data.id as string;

  // An object of another owner (broker2), for "another owner's token".
  const theirs = await ok('lot of broker2', api.post('/api/0.1/lots', aLot(), { as: 'broker2' }));
  const other = keep({ id: theirs.body.data.id as string, token: theirs.body.access.token as string });

  return {
    tokens,
    clock,
    lot,
    lotDocument,
    otherLot,
    bounce,
    assetDocument,
    basic,
    land,
    landDocument,
    landQuestion,
    landBid,
    landBidDocument,
    landSpareBid,
    landBrokerBid,
    insider,
    insDocument,
    insQuestion,
    insBid: b1,
    insBidDocument,
    insBrokerBid: b2,
    award,
    insAwardDocument,
    contract,
    insContractDocument,
    other,
  };
}
