import { afterEach, describe, expect, it } from 'vitest';
import { addDocument, assetIn, patchAs, TYPE_NAMES } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

const HOUR = 3600 * 1000;
/** Moves the service clock (the local gateway's injected offset) this far past real time. */
const later = (ms: number) => service.setClockOffset(ms);

afterEach(() => later(0));

describe('asset rectification period', () => {
  it.each(TYPE_NAMES)('lets the owner edit a pending %s asset until the end of the period', async (type) => {
    const asset = await assetIn(api, type, 'pending');
    await later(23 * HOUR);
    const res = await patchAs(api, asset, 'owner', { title: 'Уточнена назва', description: 'Уточнений опис' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Уточнена назва', description: 'Уточнений опис' });
    expect(Date.parse(res.body.data.dateModified)).toBeGreaterThan(Date.parse(asset.asset.dateModified) + 22 * HOUR);
  });

  it.each(TYPE_NAMES)(
    'refuses the owner any content change to a %s asset after the period, changing nothing (403)',
    async (type) => {
      const asset = await assetIn(api, type, 'pending');
      await later(24 * HOUR + 1000);
      const res = await patchAs(api, asset, 'owner', { title: 'Запізно' });
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([
        { location: 'body', name: 'mode', description: "You can't change asset after rectification period" },
      ]);
      const withStatus = await patchAs(api, asset, 'owner', { title: 'Запізно', status: 'deleted' });
      expect(withStatus.status).toBe(403);
      expect((await api.get(asset.url)).body.data).toEqual(asset.asset);
    },
  );

  it.each(TYPE_NAMES)(
    'still accepts, after the period, a %s PATCH that changes nothing but the status',
    async (type) => {
      const asset = await assetIn(api, type, 'pending');
      await later(25 * HOUR);
      if (type === 'bounce') {
        const refused = await addDocument(api, asset, { documentType: 'technicalSpecifications' });
        expect(refused.status).toBe(403);
        expect(refused.body.errors).toEqual([
          {
            location: 'body',
            name: 'mode',
            description: 'You can add only document with cancellationDetails after rectification period',
          },
        ]);
        expect((await addDocument(api, asset, { documentType: 'cancellationDetails' })).status).toBe(201);
      }
      const res = await patchAs(api, asset, 'owner', { title: asset.asset.title, status: 'deleted' });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('deleted');
    },
  );

  it.each(TYPE_NAMES)('does not limit the concierge (%s)', async (type) => {
    const asset = await assetIn(api, type, 'pending');
    await later(48 * HOUR);
    const res = await patchAs(api, asset, 'concierge', { status: 'verification', relatedLot: 'b'.repeat(32) });
    expect(res.status).toBe(200);
  });

  it('refuses item edits of a bounce asset after the period (403)', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const item = asset.asset.items[0];
    await later(24 * HOUR + 1000);
    const res = await api.patch(
      `${asset.url}/items/${item.id}`,
      { quantity: 1 },
      { token: asset.token, tokenIn: 'header' },
    );
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'mode', description: "You can't change items after rectification period" },
    ]);
    expect((await api.get(asset.url)).body.data.items[0]).toEqual(item);
  });
});
