import { aLot } from './builders.ts';
import type { client } from './http.ts';

type Api = ReturnType<typeof client>;

/** How a test gets a lot into each status: the path through the status machine, and who takes each step. */
const PATHS: Record<string, [string, string][]> = {
  draft: [],
  pending: [['pending', 'owner']],
  verification: [
    ['pending', 'owner'],
    ['verification', 'owner'],
  ],
  'active.salable': [
    ['pending', 'owner'],
    ['verification', 'owner'],
    ['active.salable', 'concierge'],
  ],
  'pending.deleted': [
    ['pending', 'owner'],
    ['pending.deleted', 'owner'],
  ],
  deleted: [
    ['pending', 'owner'],
    ['pending.deleted', 'owner'],
    ['deleted', 'concierge'],
  ],
  recomposed: [
    ['pending', 'owner'],
    ['verification', 'owner'],
    ['active.salable', 'concierge'],
    ['recomposed', 'owner'],
  ],
  'pending.dissolution': [
    ['pending', 'owner'],
    ['verification', 'owner'],
    ['active.salable', 'concierge'],
    ['pending.dissolution', 'owner'],
  ],
  dissolved: [
    ['pending', 'owner'],
    ['verification', 'owner'],
    ['active.salable', 'concierge'],
    ['pending.dissolution', 'owner'],
    ['dissolved', 'concierge'],
  ],
  'active.awaiting': [
    ['pending', 'owner'],
    ['verification', 'owner'],
    ['active.salable', 'concierge'],
    ['active.awaiting', 'convoy'],
  ],
  'active.auction': [
    ['pending', 'owner'],
    ['verification', 'owner'],
    ['active.salable', 'concierge'],
    ['active.awaiting', 'convoy'],
    ['active.auction', 'convoy'],
  ],
  'pending.sold': [
    ['pending', 'owner'],
    ['verification', 'owner'],
    ['active.salable', 'concierge'],
    ['active.awaiting', 'convoy'],
    ['active.auction', 'convoy'],
    ['pending.sold', 'convoy'],
  ],
  sold: [
    ['pending', 'owner'],
    ['verification', 'owner'],
    ['active.salable', 'concierge'],
    ['active.awaiting', 'convoy'],
    ['active.auction', 'convoy'],
    ['pending.sold', 'convoy'],
    ['sold', 'concierge'],
  ],
};

export const LOT_STATUSES = Object.keys(PATHS);

export interface CreatedLot {
  id: string;
  token: string;
  lot: any;
}

/** PATCHes a lot as a role: `owner` = broker with the token, `stranger` = broker without it, else the bot/admin key. */
export function patchAs(api: Api, lot: CreatedLot, role: string, data: unknown) {
  if (role === 'owner') return api.patch(`/api/0.1/lots/${lot.id}`, data, { token: lot.token });
  if (role === 'stranger') return api.patch(`/api/0.1/lots/${lot.id}`, data);
  return api.patch(`/api/0.1/lots/${lot.id}`, data, { as: role });
}

export async function createLot(api: Api, overrides: Record<string, unknown> = {}): Promise<CreatedLot> {
  const res = await api.post('/api/0.1/lots', aLot(overrides));
  if (res.status !== 201) throw new Error(`create lot: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, token: res.body.access.token, lot: res.body.data };
}

export async function lotIn(api: Api, status: string, overrides: Record<string, unknown> = {}): Promise<CreatedLot> {
  const lot = await createLot(api, overrides);
  for (const [target, role] of PATHS[status]) {
    const res = await patchAs(api, lot, role, { status: target });
    if (res.status !== 200 || res.body.data.status !== target)
      throw new Error(`${status}: step ${target} by ${role}: ${res.status} ${JSON.stringify(res.body)}`);
    lot.lot = res.body.data;
  }
  return lot;
}
