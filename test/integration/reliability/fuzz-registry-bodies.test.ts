import { beforeAll, describe, it } from 'vitest';
import { aDocument, aLot, anOrganization, hex32 } from '../../support/builders.ts';
import { aBasicAsset, aBounceAsset, anItem, assetIn, type CreatedAsset } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { lotIn, type CreatedLot } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { fuzzEndpoint, mutated } from './fuzz-support.ts';

const service = useService();
const api = client(() => service.url);

/** PATCH bodies: a few editable fields with valid values, then mutated. */
const lotPatch = () => ({
  title: 'Новий заголовок',
  description: 'Новий опис',
  lotCustodian: anOrganization(),
  assets: [hex32()],
});
const bouncePatch = () => ({
  title: 'Інша назва',
  description: 'Інший опис',
  items: [anItem()],
  assetCustodian: anOrganization(),
});
const basicPatch = () => ({
  title: 'Інша назва',
  value: { amount: 200, currency: 'UAH' },
  quantity: 7,
  address: { countryName: 'Україна' },
});

describe('fuzzing the bodies of the lots and assets registries', () => {
  let lot: CreatedLot;
  let lotDocument: string;
  let bounce: CreatedAsset;
  let basic: CreatedAsset;
  beforeAll(async () => {
    lot = await lotIn(api, 'pending');
    lotDocument = (await api.post(`/api/0.1/lots/${lot.id}/documents`, aDocument(), { token: lot.token })).body.data.id;
    bounce = await assetIn(api, 'bounce', 'draft');
    basic = await assetIn(api, 'basic', 'draft');
  });

  it('POST /api/0.1/lots', () => fuzzEndpoint(api, () => ({ method: 'POST', path: '/api/0.1/lots' }), mutated(aLot)));

  it('PATCH /api/0.1/lots/{id}', () =>
    fuzzEndpoint(
      api,
      () => ({ method: 'PATCH', path: `/api/0.1/lots/${lot.id}`, token: lot.token, pk: `LOT#${lot.id}` }),
      mutated(lotPatch),
    ));

  it('POST and PUT of lot documents', async () => {
    await fuzzEndpoint(
      api,
      () => ({ method: 'POST', path: `/api/0.1/lots/${lot.id}/documents`, token: lot.token, pk: `LOT#${lot.id}` }),
      mutated(aDocument),
      60,
    );
    await fuzzEndpoint(
      api,
      () => ({
        method: 'PUT',
        path: `/api/0.1/lots/${lot.id}/documents/${lotDocument}`,
        token: lot.token,
        pk: `LOT#${lot.id}`,
      }),
      mutated(aDocument),
      60,
    );
  });

  it('POST of assets of both types', async () => {
    await fuzzEndpoint(api, () => ({ method: 'POST', path: '/api/2.4/assets' }), mutated(aBounceAsset));
    await fuzzEndpoint(api, () => ({ method: 'POST', path: '/api/0.1/assets' }), mutated(aBasicAsset));
  });

  it('PATCH of assets of both types, and of a bounce item', async () => {
    await fuzzEndpoint(
      api,
      () => ({ method: 'PATCH', path: bounce.url, token: bounce.token, pk: `ASSET#${bounce.id}` }),
      mutated(bouncePatch),
    );
    await fuzzEndpoint(
      api,
      () => ({ method: 'PATCH', path: basic.url, token: basic.token, pk: `ASSET#${basic.id}` }),
      mutated(basicPatch),
    );
    const item = () => bounce.asset.items[0].id;
    await fuzzEndpoint(
      api,
      () => ({ method: 'PATCH', path: `${bounce.url}/items/${item()}`, token: bounce.token, pk: `ASSET#${bounce.id}` }),
      mutated(anItem),
      60,
    );
  });

  it('POST of bounce asset documents', () =>
    fuzzEndpoint(
      api,
      () => ({ method: 'POST', path: `${bounce.url}/documents`, token: bounce.token, pk: `ASSET#${bounce.id}` }),
      mutated(aDocument),
      60,
    ));

  it('POST and PATCH of bounce related processes (concierge)', async () => {
    const process = () => ({ type: 'lot', relatedProcessID: hex32(), identifier: 'UA-LR-DGF-2026-11-23-000001' });
    const linked = await assetIn(api, 'bounce', 'pending');
    await fuzzEndpoint(
      api,
      () => ({ method: 'POST', path: `${linked.url}/related_processes`, as: 'concierge', pk: `ASSET#${linked.id}` }),
      mutated(process),
      60,
    );
    const rp = (await api.get(`${linked.url}/related_processes`)).body.data[0]?.id ?? hex32();
    await fuzzEndpoint(
      api,
      () => ({
        method: 'PATCH',
        path: `${linked.url}/related_processes/${rp}`,
        as: 'concierge',
        pk: `ASSET#${linked.id}`,
      }),
      mutated(process),
      60,
    );
  });

  it('POST of ownership (a transfer and the transfer token)', async () => {
    const created = await api.post('/api/0.1/lots', aLot());
    const transfer = (await api.post('/api/0.1/transfers', {}, { as: 'broker2' })).body.data.id;
    const body = () => ({ id: transfer, transfer: created.body.access.transfer });
    await fuzzEndpoint(
      api,
      () => ({
        method: 'POST',
        path: `/api/0.1/lots/${created.body.data.id}/ownership`,
        as: 'broker2',
        pk: `LOT#${created.body.data.id}`,
      }),
      mutated(body),
      60,
    );
  });

  it('POST /api/docservice/register', () =>
    fuzzEndpoint(
      api,
      () => ({ method: 'POST', path: '/api/docservice/register' }),
      mutated(() => ({ hash: `md5:${'0123456789abcdef'.repeat(2)}` })),
      60,
    ));
});
