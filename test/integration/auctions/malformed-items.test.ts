import { describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, draftAuction, INSIDER, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);

/** A 422 naming `items`: a null item is the client's mistake, never a server crash. */
const expectItems422 = (res: { status: number; body: { errors: { name: string }[] } }) => {
  expect(res.status).toBe(422);
  expect(res.body.errors.map((e) => e.name)).toContain('items');
};

describe('auction items sent malformed', () => {
  it('answers 422 on items for a null item in a landlease draft', async () => {
    const { id, token } = await draftAuction(api);
    expectItems422(await api.patch(`${AUCTIONS}/${id}`, { items: [null] }, { token }));
  });

  it('answers 422 on items for a null item during landlease rectification', async () => {
    const { id, token } = await rectifyingAuction(api);
    expectItems422(await api.patch(`${AUCTIONS}/${id}`, { items: [null] }, { token }));
    expectItems422(await api.patch(`${AUCTIONS}/${id}`, { items: ['x', 3] }, { token }));
  });

  it('answers 422 on items for a null item in a dgfInsider auction during rectification', async () => {
    const { id, token } = await tenderingInsider(api);
    expectItems422(await api.patch(`${INSIDER}/${id}`, { items: [null] }, { token }));
    expectItems422(await api.patch(`${INSIDER}/${id}`, { items: [[]] }, { token }));
  });
});
