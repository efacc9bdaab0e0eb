import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { activeBid, AUCTIONS, clockOf, draftAuction, INSIDER, insiderBid, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const read = async (path: string) => (await api.get(path)).body.data;
const forbidden = (description: string, name = 'data') => ({ status: 'error', errors: [{ location: 'body', name, description }] });
const PERMISSION = { status: 'error', errors: [{ location: 'url', name: 'permission', description: 'Forbidden' }] };

describe('auction cancellations', () => {
  it('lets the dgfInsider owner add a pending cancellation, read it, and activate it: the auction is cancelled', async () => {
    const { id, token, auction } = await tenderingInsider(api);
    const url = `${INSIDER}/${id}`;
    const cancellations = `${url}/cancellations`;
    expect((await api.post(cancellations, { reason: 'Чужий' }, { as: 'broker2' })).body).toEqual(PERMISSION);
    const missing = await api.post(cancellations, { reasonType: 'x' }, { token });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].name).toBe('reason');

    const created = await api.post(cancellations, { reason: 'Рішення власника', id: 'mine', date: '2000-01-01' }, { token });
    expect(created.status).toBe(201);
    const cancellation = created.body.data;
    expect(cancellation).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      reason: 'Рішення власника',
      status: 'pending',
      cancellationOf: 'tender',
      date: expect.any(String),
    });
    expect(created.headers.get('location')).toBe(`${service.url}${cancellations}/${cancellation.id}`);
    const list = await api.get(cancellations);
    expect(list.requests).toBe(1);
    expect(list.body.data).toEqual([cancellation]);
    expect(await read(`${cancellations}/${cancellation.id}`)).toEqual(cancellation);
    expect((await api.get(`${cancellations}/${'0'.repeat(32)}`)).status).toBe(404);
    const pending = await read(url);
    expect(pending).toMatchObject({ status: 'active.tendering', cancellations: [cancellation], next_check: auction.next_check });

    // Only the owner activates; a reason may be edited first.
    const cancellationUrl = `${cancellations}/${cancellation.id}`;
    expect((await api.patch(cancellationUrl, { status: 'active' }, { as: 'broker2' })).body).toEqual(PERMISSION);
    expect((await api.patch(cancellationUrl, { status: 'closed' }, { token })).status).toBe(422);
    expect((await api.patch(cancellationUrl, { reason: 'Уточнено' }, { token })).body.data).toMatchObject({ reason: 'Уточнено', status: 'pending' });
    const activated = await api.patch(cancellationUrl, { status: 'active' }, { token });
    expect(activated.status).toBe(200);
    expect(activated.body.data).toMatchObject({ id: cancellation.id, status: 'active' });
    const cancelled = await read(url);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellations: [{ status: 'active' }] });
    expect(cancelled).not.toHaveProperty('next_check');
    expect(cancelled.date).toBe(cancelled.dateModified);

    // A cancelled auction takes no more cancellations, nor edits.
    expect((await api.post(cancellations, { reason: 'Ще раз' }, { token })).body).toEqual(
      forbidden("Can't add cancellation in current (cancelled) auction status"),
    );
    expect((await api.patch(cancellationUrl, { reason: 'Пізно' }, { token })).body).toEqual(
      forbidden("Can't update cancellation in current (cancelled) auction status"),
    );
    expect((await api.patch(url, { title: 'Пізно' }, { token })).body).toEqual(forbidden("Can't update auction in current (cancelled) status"));
    // The chronograph leaves it alone.
    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await read(url)).status).toBe('cancelled');
  });

  it('refuses cancellations of a dgfInsider auction that ended unsuccessful', async () => {
    const { id, token, auction } = await tenderingInsider(api);
    await clock.passTo(auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    expect((await read(`${INSIDER}/${id}`)).status).toBe('unsuccessful');
    expect((await api.post(`${INSIDER}/${id}/cancellations`, { reason: 'Пізно' }, { token })).body).toEqual(
      forbidden("Can't add cancellation in current (unsuccessful) auction status"),
    );
  });

  it('keeps the dgfInsider bids of a cancelled auction', async () => {
    const { id, token } = await tenderingInsider(api);
    await insiderBid(api, id, 'broker2');
    const created = await api.post(`${INSIDER}/${id}/cancellations`, { reason: 'Рішення', status: 'active' }, { token });
    expect(created.body.data.status).toBe('active');
    const cancelled = await read(`${INSIDER}/${id}`);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.bids).toHaveLength(1);
  });

  it('removes every landlease bid when the auction is cancelled during tendering', async () => {
    const a = await rectifyingAuction(api);
    const url = `${AUCTIONS}/${a.id}`;
    await clock.passTo(a.auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const bid = await activeBid(api, a.id, 1, 'broker2');
    const created = await api.post(`${url}/cancellations`, { reason: 'Рішення органу' }, { token: a.token });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${url}/cancellations/${created.body.data.id}`);
    expect((await api.patch(`${url}/cancellations/${created.body.data.id}`, { status: 'active' }, { token: a.token })).status).toBe(200);
    const cancelled = await read(url);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled).not.toHaveProperty('bids');
    expect((await api.get(`${url}/bids/${bid.id}`, { as: 'broker2', token: bid.token })).status).toBe(404);
    expect((await api.patch(`${url}/cancellations/${created.body.data.id}`, { status: 'pending' }, { token: a.token })).body).toEqual(
      forbidden("Can't update cancellation in current (cancelled) auction status"),
    );
  });

  it('refuses to cancel a landlease draft', async () => {
    const { id, token } = await draftAuction(api);
    expect((await api.post(`${AUCTIONS}/${id}/cancellations`, { reason: 'Чернетка' }, { token })).body).toEqual(
      forbidden("Can't add cancellation in current (draft) auction status"),
    );
  });

  it('refuses a cancellation of an unknown auction with 404', async () => {
    const res = await api.post(`${AUCTIONS}/${'0'.repeat(32)}/cancellations`, { reason: 'x' }, { token: 'x' });
    expect(res.status).toBe(404);
  });
});
