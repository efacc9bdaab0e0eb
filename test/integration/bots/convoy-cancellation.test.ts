import { describe, expect, it } from 'vitest';
import { assetIn } from '../../support/assets.ts';
import { anInsiderAuction } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { INSIDER, kyivDayIn, SANDBOX } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const read = async (path: string) => (await api.get(path)).body.data;

describe('convoy bot and cancelled auctions', () => {
  it('gives the lot back for sale when its auction is cancelled by the owner, and auctions it again', async () => {
    const assets = [await assetIn(api, 'bounce', 'pending')];
    const lot = await lotIn(api, 'verification', { assets: assets.map((a) => a.id) });
    await service.bot('concierge');
    const lotUrl = `/api/0.1/lots/${lot.id}`;
    expect((await read(lotUrl)).status).toBe('active.salable');

    const { items: _, ...body } = anInsiderAuction(kyivDayIn(14), { ...SANDBOX, merchandisingObject: lot.id });
    const created = await api.post(INSIDER, body);
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    const token = created.body.access.token;
    const url = `${INSIDER}/${id}`;

    // Waiting for the convoy: nothing to cancel yet.
    expect((await api.post(`${url}/cancellations`, { reason: 'Зарано' }, { token })).status).toBe(403);
    await service.bot('convoy');
    expect((await read(url)).status).toBe('active.tendering');
    expect(await read(lotUrl)).toMatchObject({ status: 'active.auction', auctions: [id] });

    // The owner cancels the auction; the convoy reports it once; the lot is for sale again.
    const cancellation = (await api.post(`${url}/cancellations`, { reason: 'Рішення власника' }, { token })).body.data;
    expect((await api.patch(`${url}/cancellations/${cancellation.id}`, { status: 'active' }, { token })).status).toBe(
      200,
    );
    expect((await read(url)).status).toBe('cancelled');
    expect(await service.bot('convoy')).toMatchObject({ due: 1, changed: 1 });
    expect(await read(lotUrl)).toMatchObject({ status: 'active.salable', auctions: [id] });
    expect(await service.bot('convoy')).toMatchObject({ due: 0 });

    const again = await api.post(INSIDER, body);
    await service.bot('convoy');
    expect((await read(`${INSIDER}/${again.body.data.id}`)).status).toBe('active.tendering');
    expect(await read(lotUrl)).toMatchObject({ status: 'active.auction', auctions: [id, again.body.data.id] });
  });
});
