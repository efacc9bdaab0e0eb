import { describe, expect, it } from 'vitest';
import {
  ASSET_STATUSES,
  ASSET_TYPES,
  addDocument,
  assetIn,
  createAsset,
  LOT_ID,
  patchAs,
  prepareMove,
  TYPE_NAMES,
} from '../../support/assets.ts';
import { hex32 } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

/**
 * The asset status machine of interface.md §3.2 and reference-behaviour.md §4.1, written out here independently
 * of the code: every move each caller may make, for both types. Everything else is refused.
 */
const ALLOWED: Record<string, string> = {
  'draft -> pending': 'owner admin',
  'pending -> deleted': 'owner admin',
  'pending -> verification': 'concierge admin',
  'verification -> active': 'concierge admin',
  'verification -> pending': 'concierge admin',
  'active -> pending': 'concierge admin',
  'active -> complete': 'concierge admin',
};
const EDITORS: Record<string, string[]> = {
  draft: ['owner', 'admin'],
  pending: ['owner', 'concierge', 'admin'],
  verification: ['concierge', 'admin'],
  active: ['concierge', 'admin'],
};
const ROLES = ['owner', 'stranger', 'concierge', 'convoy', 'admin'];

const allowedMoves = TYPE_NAMES.flatMap((type) =>
  Object.entries(ALLOWED).flatMap(([move, roles]) => {
    const [from, to] = move.split(' -> ');
    return roles.split(' ').map((role) => ({ type, from, to, role }));
  }),
);
const isAllowed = (from: string, to: string, role: string) =>
  allowedMoves.some((m) => m.from === from && m.to === to && m.role === role);

describe('asset status machine', () => {
  it.each(allowedMoves)('lets $role move a $type asset from $from to $to', async ({ type, from, to, role }) => {
    const asset = await assetIn(api, type, from);
    const res = await patchAs(api, asset, role, await prepareMove(api, asset, to));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe(to);
    expect(res.body.data.owner).toBe('broker');
    expect(res.body.data.date).toBe(res.body.data.dateModified);
    expect((await api.get(asset.url)).body.data).toEqual(res.body.data);
  });

  it.each(TYPE_NAMES.flatMap((type) => ASSET_STATUSES.map((from) => ({ type, from }))))(
    'refuses every other move of a $type asset out of $from, with the upstream error, changing nothing',
    async ({ type, from }) => {
      const asset = await assetIn(api, type, from);
      const before = (await api.get(asset.url)).body.data;
      for (const role of ROLES) {
        for (const to of ASSET_STATUSES) {
          if (to === from || isAllowed(from, to, role)) continue;
          const res = await patchAs(api, asset, role, { status: to, relatedLot: LOT_ID });
          const [error] = res.body.errors;
          // A draft is its owner's (and an admin's): to a bot's key it is not there, as an unknown id.
          if (from === 'draft' && role === 'concierge') {
            expect([res.status, error]).toEqual([404, { location: 'url', name: 'asset_id', description: 'Not Found' }]);
            continue;
          }
          expect(res.status, `${role}: ${from} -> ${to}`).toBe(403);
          if (role === 'stranger') expect(error).toEqual({ location: 'url', name: 'role', description: 'Forbidden' });
          else if (role === 'convoy')
            expect(error).toEqual({ location: 'url', name: 'permission', description: 'Forbidden' });
          else if (to === 'draft' && EDITORS[from]?.includes(role))
            expect(error.description).toBe("Can't switch asset to draft status");
          else
            expect(error).toEqual({
              location: 'body',
              name: 'data',
              description: `Can't update asset in current (${from}) status`,
            });
        }
      }
      expect((await api.get(asset.url)).body.data).toEqual(before);
    },
  );

  it.each(TYPE_NAMES)('treats PATCHing the current status as no change (%s)', async (type) => {
    const asset = await assetIn(api, type, 'pending');
    const res = await patchAs(api, asset, 'owner', { status: 'pending' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(asset.asset);
  });
});

describe('asset transition rules', () => {
  it.each(TYPE_NAMES)('starts a 24-hour rectification period when a %s asset becomes pending', async (type) => {
    const asset = await createAsset(api, type);
    expect(asset.asset.rectificationPeriod).toBeUndefined();
    const res = await patchAs(api, asset, 'owner', { status: 'pending' });
    const { startDate, endDate } = res.body.data.rectificationPeriod;
    expect(startDate).toBe(res.body.data.dateModified);
    expect(Date.parse(endDate) - Date.parse(startDate)).toBe(24 * 3600 * 1000);
    expect(endDate.slice(-13, -6)).toBe(startDate.slice(-13, -6)); // same microseconds
  });

  it.each(TYPE_NAMES)(
    'keeps the rectification period of a %s asset that comes back to pending from a lot',
    async (type) => {
      const asset = await assetIn(api, type, 'active');
      const res = await patchAs(api, asset, 'concierge', { status: 'pending' });
      expect(res.body.data.rectificationPeriod).toEqual(asset.asset.rectificationPeriod);
    },
  );

  it.each(TYPE_NAMES)('needs the lot for verification and activation of a %s asset (422 relatedLot)', async (type) => {
    const pending = await assetIn(api, type, 'pending');
    const res = await patchAs(api, pending, 'concierge', { status: 'verification' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'relatedLot', description: ['This field is required.'] },
    ]);
    const inVerification = await assetIn(api, type, 'verification');
    const cleared = await patchAs(api, inVerification, 'concierge', { status: 'active', relatedLot: null });
    expect(cleared.status).toBe(422);
    expect((await api.get(inVerification.url)).body.data.status).toBe('verification');
  });

  it.each(TYPE_NAMES)('refuses a relatedLot that is not an id (%s)', async (type) => {
    const asset = await assetIn(api, type, 'pending');
    const res = await patchAs(api, asset, 'concierge', { status: 'verification', relatedLot: 'lot-1' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].name).toBe('relatedLot');
  });

  it.each(TYPE_NAMES)('keeps relatedLot through activation and completion of a %s asset', async (type) => {
    const lot = hex32();
    const asset = await assetIn(api, type, 'pending');
    await patchAs(api, asset, 'concierge', { status: 'verification', relatedLot: lot });
    const active = await patchAs(api, asset, 'concierge', { status: 'active' });
    expect(active.body.data.relatedLot).toBe(lot);
    const complete = await patchAs(api, asset, 'concierge', { status: 'complete' });
    expect(complete.body.data.relatedLot).toBe(lot);
  });

  it.each(TYPE_NAMES.flatMap((type) => ['verification', 'active'].map((from) => ({ type, from }))))(
    'empties relatedLot when a $type asset goes back from $from to pending, whatever the concierge sends',
    async ({ type, from }) => {
      const asset = await assetIn(api, type, from);
      expect(asset.asset.relatedLot).toBe(LOT_ID);
      const res = await patchAs(api, asset, 'concierge', { status: 'pending', relatedLot: LOT_ID });
      expect(res.status).toBe(200);
      expect(res.body.data).not.toHaveProperty('relatedLot');
      expect((await api.get(asset.url)).body.data).not.toHaveProperty('relatedLot');
    },
  );

  it('lets the concierge and an admin write only status and relatedLot (and mode for an admin)', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    const res = await patchAs(api, asset, 'concierge', {
      title: 'Інша назва',
      mode: 'test',
      status: 'verification',
      relatedLot: LOT_ID,
    });
    expect(res.body.data.title).toBe(asset.asset.title);
    expect(res.body.data).not.toHaveProperty('mode');
    const admin = await patchAs(api, asset, 'admin', { title: 'Інша назва', mode: 'test' });
    expect(admin.body.data.title).toBe(`[ТЕСТУВАННЯ] ${asset.asset.title}`);
    expect(admin.body.data.mode).toBe('test');
  });
});

describe('bounce transition rules', () => {
  it('needs at least one item to become pending (422)', async () => {
    const asset = await createAsset(api, 'bounce', { items: [] });
    const res = await patchAs(api, asset, 'owner', { status: 'pending' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        location: 'body',
        name: 'data',
        description:
          'You cannot switch the asset status from draft to pending unless at least one item has been added.',
      },
    ]);
    expect((await api.get(asset.url)).body.data.status).toBe('draft');
  });

  it('needs at least one decision to become pending (422)', async () => {
    const asset = await createAsset(api, 'bounce', { decisions: undefined });
    const res = await patchAs(api, asset, 'owner', { status: 'pending' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].description).toBe(
      'You cannot switch the asset status from draft to pending unless at least one decision has been added.',
    );
  });

  it('becomes pending once the owner adds the missing items and decisions by PATCH', async () => {
    const asset = await createAsset(api, 'bounce', { items: undefined, decisions: undefined });
    const fixed = await patchAs(api, asset, 'owner', {
      items: ASSET_TYPES.bounce.build().items,
      decisions: ASSET_TYPES.bounce.build().decisions,
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.items).toHaveLength(2);
    const res = await patchAs(api, asset, 'owner', { status: 'pending' });
    expect(res.status).toBe(200);
  });

  it('deletes a pending asset only after a cancellationDetails document (403 before)', async () => {
    const asset = await assetIn(api, 'bounce', 'pending');
    await addDocument(api, asset, { documentType: 'technicalSpecifications' });
    const refused = await patchAs(api, asset, 'owner', { status: 'deleted' });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([
      {
        location: 'body',
        name: 'mode',
        description:
          "You can set deleted status only when asset have at least one document with 'cancellationDetails' documentType",
      },
    ]);
    expect((await api.get(asset.url)).body.data.status).toBe('pending');
    await addDocument(api, asset, { documentType: 'cancellationDetails' });
    const deleted = await patchAs(api, asset, 'owner', { status: 'deleted' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.status).toBe('deleted');
  });
});

describe('basic transition rules', () => {
  it('becomes pending without items or decisions and is deleted without any document', async () => {
    const asset = await createAsset(api, 'basic');
    expect((await patchAs(api, asset, 'owner', { status: 'pending' })).status).toBe(200);
    const deleted = await patchAs(api, asset, 'owner', { status: 'deleted' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.status).toBe('deleted');
  });
});
