import { describe, expect, it } from 'vitest';
import {
  aBid,
  aDocument,
  aLandleaseAuction,
  anInsiderAuction,
  anInsiderBid,
  aQuestion,
} from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, INSIDER, kyivDayIn, rectifyingAuction, SANDBOX, tenderingInsider } from '../../support/auctions.ts';

/**
 * An auction write is one Lambda per auction type (lib/lambda-bundles.ts), each bundle holding its type's definition
 * alone. Also in the bundled project (vitest.config.ts), so this runs against those bundles: each type's write routes
 * serve their own auctions, and answer another type's id as the sources do (404), never with the 500 of a definition
 * the bundle does not carry.
 */
const service = useService();
const api = client(() => service.url);
const NOT_FOUND = { status: 'error', errors: [{ location: 'url', name: 'auction_id', description: 'Not Found' }] };

describe('the auction writes of each type', () => {
  it("serve their own type's auctions, and answer the other type's ids with a 404", async () => {
    const landlease = await rectifyingAuction(api);
    const insider = await tenderingInsider(api);
    // Each type's own writes.
    expect(
      (await api.patch(`${AUCTIONS}/${landlease.id}`, { title: 'renamed' }, { token: landlease.token })).status,
    ).toBe(200);
    expect((await api.post(`${INSIDER}/${insider.id}/bids`, anInsiderBid(), { as: 'broker2' })).status).toBe(201);
    expect((await api.post(`${INSIDER}/${insider.id}/questions`, aQuestion(), { as: 'broker2' })).status).toBe(201);
    // The other type's ids, through each type's write routes.
    const across = [
      ['patch', `${INSIDER}/${landlease.id}`, { title: 'x' }, landlease.token],
      ['post', `${INSIDER}/${landlease.id}/bids`, anInsiderBid(), undefined],
      ['post', `${INSIDER}/${landlease.id}/questions`, aQuestion(), undefined],
      ['post', `${INSIDER}/${landlease.id}/cancellations`, { reason: 'x' }, landlease.token],
      ['post', `${INSIDER}/${landlease.id}/documents`, aDocument(), landlease.token],
      ['patch', `${AUCTIONS}/${insider.id}`, { title: 'x' }, insider.token],
      ['post', `${AUCTIONS}/${insider.id}/bids`, aBid(), undefined],
      ['post', `${AUCTIONS}/${insider.id}/questions`, aQuestion(), undefined],
      ['post', `${AUCTIONS}/${insider.id}/cancellations`, { reason: 'x' }, insider.token],
      ['post', `${AUCTIONS}/${insider.id}/documents`, aDocument(), insider.token],
    ] as const;
    for (const [method, path, body, token] of across) {
      const res = await api[method](path, body, { as: 'broker2', ...(token && { as: 'broker', token }) });
      expect({ path, method, status: res.status, body: res.body }).toEqual({
        path,
        method,
        status: 404,
        body: NOT_FOUND,
      });
    }
  });

  it('refuse a create of the other type at their path, as the sources do', async () => {
    const atInsider = await api.post(
      INSIDER,
      anInsiderAuction(kyivDayIn(14), { ...SANDBOX, procurementMethodType: 'landlease' }),
    );
    const atLandlease = await api.post(
      AUCTIONS,
      aLandleaseAuction(kyivDayIn(21), { ...SANDBOX, procurementMethodType: 'dgfInsider' }),
    );
    expect([atInsider.status, atLandlease.status]).toEqual([415, 415]);
    expect(atInsider.body.errors).toEqual([
      { location: 'body', name: 'procurementMethodType', description: 'Not implemented' },
    ]);
  });
});
