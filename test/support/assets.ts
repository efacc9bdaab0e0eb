import { aDocument, anOrganization, hex32 } from './builders.ts';
import type { client } from './http.ts';

type Api = ReturnType<typeof client>;

/** Request bodies of assets as clients send them (upstream recordings), per type. */
export const anItem = (overrides: Record<string, unknown> = {}) => ({
  description: 'Земельна ділянка під забудову',
  classification: { scheme: 'CAV-PS', id: '06121000-6', description: 'Земельні ділянки' },
  additionalClassifications: [{ scheme: 'UA-EDR', id: '17.21.1', description: 'папір і картон гофровані' }],
  address: { countryName: 'Україна' },
  unit: { code: 'MTK', name: 'метри квадратні' },
  quantity: 5.0001,
  registrationDetails: { status: 'unknown' },
  ...overrides,
});

export const aDecision = (overrides: Record<string, unknown> = {}) => ({
  decisionDate: '2026-11-20T10:00:00.000000+02:00',
  decisionID: '1111-4',
  ...overrides,
});

export const aBounceAsset = (overrides: Record<string, unknown> = {}) => ({
  assetType: 'bounce',
  title: 'Земля для космодрому',
  description: 'Опис землі для космодрому',
  assetCustodian: anOrganization(),
  items: [anItem(), anItem({ quantity: 42 })],
  decisions: [aDecision()],
  ...overrides,
});

export const aBasicAsset = (overrides: Record<string, unknown> = {}) => ({
  assetType: 'basic',
  title: 'Земля для космодрому',
  classification: { scheme: 'CPV', id: '06121000-6', description: 'Земельні ділянки' },
  value: { amount: 100, currency: 'UAH' },
  unit: { code: '44617100-9', name: 'item' },
  address: {
    countryName: 'Україна',
    postalCode: '79000',
    region: 'м. Київ',
    locality: 'м. Київ',
    streetAddress: 'вул. Банкова 1',
  },
  assetCustodian: anOrganization(),
  quantity: 5,
  ...overrides,
});

/** Land-parcel `schema_properties` of family 06 (add `city` for 061). */
export const LAND = {
  region: 'Київська',
  district: 'Броварський',
  cadastral_number: '3221281800:03:001:0001',
  area: 2500,
  forms_of_land_ownership: ['державна'],
  co_owners: false,
  availability_of_utilities: true,
};

/** The two asset types as the tests see them: their API path, a body builder, the assetID shape. */
export const ASSET_TYPES = {
  bounce: {
    path: '/api/2.4/assets',
    build: aBounceAsset,
    assetID: /^UA-AR-DGF-\d{4}-\d{2}-\d{2}-\d{6}$/,
    documents: true,
  },
  basic: { path: '/api/0.1/assets', build: aBasicAsset, assetID: /^UA-\d{4}-\d{2}-\d{2}-\d{6}$/, documents: false },
} as const;
export type AssetTypeName = keyof typeof ASSET_TYPES;
export const TYPE_NAMES = Object.keys(ASSET_TYPES) as AssetTypeName[];

export interface CreatedAsset {
  type: AssetTypeName;
  id: string;
  token: string;
  asset: any;
  /** `/api/2.4/assets/<id>` */
  url: string;
}

export async function createAsset(
  api: Api,
  type: AssetTypeName,
  overrides: Record<string, unknown> = {},
): Promise<CreatedAsset> {
  const { path, build } = ASSET_TYPES[type];
  const res = await api.post(path, build(overrides));
  if (res.status !== 201) throw new Error(`create ${type} asset: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    type,
    id: res.body.data.id,
    token: res.body.access.token,
    asset: res.body.data,
    url: `${path}/${res.body.data.id}`,
  };
}

/** PATCHes an asset as a role: `owner` = broker with the token, `stranger` = broker without it, else that key. */
export function patchAs(api: Api, asset: CreatedAsset, role: string, data: unknown) {
  if (role === 'owner') return api.patch(asset.url, data, { token: asset.token });
  if (role === 'stranger') return api.patch(asset.url, data);
  return api.patch(asset.url, data, { as: role });
}

export const addDocument = (api: Api, asset: CreatedAsset, overrides: Record<string, unknown> = {}) =>
  api.post(`${asset.url}/documents`, aDocument(overrides), { token: asset.token, tokenIn: 'header' });

/** What a status change needs besides `status`: the concierge names the lot; a bounce deletion needs a cancellation document. */
export async function prepareMove(api: Api, asset: CreatedAsset, to: string): Promise<Record<string, unknown>> {
  if (to === 'deleted' && ASSET_TYPES[asset.type].documents) {
    const doc = await addDocument(api, asset, { documentType: 'cancellationDetails' });
    if (doc.status !== 201) throw new Error(`cancellation document: ${doc.status} ${JSON.stringify(doc.body)}`);
  }
  return to === 'verification' || to === 'active'
    ? { status: to, relatedLot: asset.asset.relatedLot ?? LOT_ID }
    : { status: to };
}

/** The lot the concierge attaches assets to in these tests. */
export const LOT_ID = hex32();

/** How a test gets an asset into each status, and who takes each step. */
const PATHS: Record<string, [string, string][]> = {
  draft: [],
  pending: [['pending', 'owner']],
  verification: [
    ['pending', 'owner'],
    ['verification', 'concierge'],
  ],
  active: [
    ['pending', 'owner'],
    ['verification', 'concierge'],
    ['active', 'concierge'],
  ],
  deleted: [
    ['pending', 'owner'],
    ['deleted', 'owner'],
  ],
  complete: [
    ['pending', 'owner'],
    ['verification', 'concierge'],
    ['active', 'concierge'],
    ['complete', 'concierge'],
  ],
};
export const ASSET_STATUSES = Object.keys(PATHS);

export async function assetIn(
  api: Api,
  type: AssetTypeName,
  status: string,
  overrides: Record<string, unknown> = {},
): Promise<CreatedAsset> {
  const asset = await createAsset(api, type, overrides);
  for (const [target, role] of PATHS[status]) {
    const res = await patchAs(api, asset, role, await prepareMove(api, asset, target));
    if (res.status !== 200 || res.body.data.status !== target)
      throw new Error(`${status}: step ${target} by ${role}: ${res.status} ${JSON.stringify(res.body)}`);
    asset.asset = res.body.data;
  }
  return asset;
}
