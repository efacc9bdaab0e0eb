import { describe, expect, it } from 'vitest';
import { putApiKey } from '../../../functions/store/api-keys.ts';
import { aBasicAsset, aBounceAsset, ASSET_TYPES, LOT_ID, patchAs, type CreatedAsset } from '../../support/assets.ts';
import { aLandleaseAuction, aLot, anInsiderAuction, hex32 } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, INSIDER, kyivDayIn, SANDBOX } from '../../support/auctions.ts';
import { scanTable } from '../reliability/fuzz-support.ts';

const service = useService();
const api = client(() => service.url);

const HEX = /^[0-9a-f]{32}$/;

/** A transfer made by `as` at API version `version`: its id and both tokens. */
async function newTransfer(as = 'broker2', version = '0.1') {
  const res = await api.post(`/api/${version}/transfers`, {}, { as });
  expect(res.status).toBe(201);
  return {
    id: res.body.data.id as string,
    token: res.body.access.token as string,
    transfer: res.body.access.transfer as string,
    res,
  };
}

const takeOver = (path: string, data: Record<string, unknown>, as = 'broker2') =>
  api.post(`${path}/ownership`, data, { as });

/** Creates an object at `collection` as `broker`: where it lives and both tokens of its create answer. */
async function made(collection: string, body: unknown, location: string) {
  const res = await api.post(collection, body);
  expect(res.status).toBe(201);
  const id = res.body.data.id as string;
  return {
    path: `${collection}/${id}`,
    id,
    location: `/${location}/${id}`,
    token: res.body.access.token as string,
    transfer: res.body.access.transfer as string,
  };
}

/** Every object that answers `access.transfer`: how one is made, and a PATCH only its owner may send. */
const OBJECTS = {
  lot: { make: () => made('/api/0.1/lots', aLot(), 'lots'), ownerPatch: { status: 'pending' } },
  'bounce asset': {
    make: () => made(ASSET_TYPES.bounce.path, aBounceAsset(), 'assets'),
    ownerPatch: { description: 'Опис нового власника' },
  },
  'basic asset': {
    make: () => made(ASSET_TYPES.basic.path, aBasicAsset(), 'assets'),
    ownerPatch: { title: 'Назва нового власника' },
  },
  'landlease auction': {
    make: () => made(AUCTIONS, aLandleaseAuction(kyivDayIn(21), SANDBOX), 'auctions'),
    ownerPatch: { status: 'active.rectification' },
  },
  // The insider auctions change hands too (upstream core transferring plugin, tested by the insider package).
  'dgfInsider auction': {
    make: () => made(INSIDER, anInsiderAuction(kyivDayIn(14), SANDBOX), 'auctions'),
    ownerPatch: { description: 'Опис нового власника' },
  },
} as const;

describe('ownership transfer', () => {
  it('creates a transfer: its id and date, and, once, its owner token and transfer token', async () => {
    const { res, id, token, transfer } = await newTransfer('broker2', '2.4');
    expect(res.body.data).toEqual({ id: expect.stringMatching(HEX), date: expect.any(String) });
    expect([token, transfer]).toEqual([expect.stringMatching(HEX), expect.stringMatching(HEX)]);
    expect(token).not.toBe(transfer);
    expect(res.headers.get('location')).toMatch(new RegExp(`/api/2\\.4/transfers/${id}$`));
    // 2.5 answers Location as a path, as its auctions do.
    const at25 = await newTransfer('broker2', '2.5');
    expect(at25.res.headers.get('location')).toBe(`/api/2.5/transfers/${at25.id}`);
    // One store for every API version: the transfer reads the same at another prefix.
    expect((await api.get(`/api/0.1/transfers/${id}`, { as: 'broker2' })).body.data).toEqual(res.body.data);
  });

  it('answers access.transfer on every create whose object can change hands', async () => {
    for (const [name, object] of Object.entries(OBJECTS)) {
      const made = await object.make();
      expect([name, made.transfer]).toEqual([name, expect.stringMatching(HEX)]);
      expect(made.transfer).not.toBe(made.token);
    }
  });

  it.each(Object.keys(OBJECTS) as (keyof typeof OBJECTS)[])(
    'hands a %s to the broker of the transfer: new tokens, old token dead',
    async (name) => {
      const object = await OBJECTS[name].make();
      const t = await newTransfer('broker2');
      const res = await takeOver(object.path, { id: t.id, transfer: object.transfer });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: object.id, owner: 'broker2' });
      expect(JSON.stringify(res.body.data)).not.toMatch(/transfer/i);
      expect((await api.get(object.path, { as: 'broker2' })).body.data.owner).toBe('broker2');

      // The transfer records what it was used for.
      const used = (await api.get(`/api/2.5/transfers/${t.id}`, { as: 'broker2' })).body.data;
      expect(used).toEqual({ id: t.id, date: expect.any(String), usedFor: object.location });

      // The old owner's token stops working; the transfer's token is the object's token now. A draft is its new
      // owner's alone: to the old owner's key it is not there (as an unknown id).
      const draft = res.body.data.status === 'draft';
      const old = await api.patch(object.path, OBJECTS[name].ownerPatch, { token: object.token });
      expect(old.status).toBe(draft ? 404 : 403);
      const oldAsNewBroker = await api.patch(object.path, OBJECTS[name].ownerPatch, {
        as: 'broker2',
        token: object.token,
      });
      expect(oldAsNewBroker.status).toBe(403);
      const now = await api.patch(object.path, OBJECTS[name].ownerPatch, { as: 'broker2', token: t.token });
      expect(now.status).toBe(200);
      expect(now.body.data.owner).toBe('broker2');

      // The object's transfer token is the transfer's now: the old one is refused, the new one hands it on again.
      const back = await newTransfer('broker');
      const stillDraft = now.body.data.status === 'draft';
      const stale = await takeOver(object.path, { id: back.id, transfer: object.transfer }, 'broker');
      expect(stale.status).toBe(stillDraft ? 404 : 403);
      expect(stale.body.errors).toEqual([
        stillDraft
          ? { location: 'url', name: expect.stringMatching(/_id$/), description: 'Not Found' }
          : { location: 'body', name: 'transfer', description: 'Invalid transfer' },
      ]);
      const again = await takeOver(object.path, { id: back.id, transfer: t.transfer }, 'broker');
      expect(again.status).toBe(200);
      expect(again.body.data.owner).toBe('broker');
    },
  );

  it('keeps every token hashed at rest: none a client got is in the table', async () => {
    const object = await OBJECTS.lot.make();
    const t = await newTransfer('broker2');
    expect((await takeOver(object.path, { id: t.id, transfer: object.transfer })).status).toBe(200);
    const text = JSON.stringify(await scanTable()).toLowerCase();
    expect([object.token, object.transfer, t.token, t.transfer].filter((token) => text.includes(token))).toEqual([]);
  });

  it('lets the same transfer take the same object again (a retried request), but never another object', async () => {
    const first = await OBJECTS['bounce asset'].make();
    const second = await OBJECTS['bounce asset'].make();
    const t = await newTransfer('broker2');
    expect((await takeOver(first.path, { id: t.id, transfer: first.transfer })).status).toBe(200);
    const retried = await takeOver(first.path, { id: t.id, transfer: t.transfer });
    expect(retried.status).toBe(200);
    const reused = await takeOver(second.path, { id: t.id, transfer: second.transfer });
    expect(reused.status).toBe(403);
    expect(reused.body.errors).toEqual([{ location: 'body', name: 'transfer', description: 'Transfer already used' }]);
    expect((await api.get(second.path)).body.data.owner).toBe('broker');
  });

  it("refuses another broker's transfer, a wrong transfer token and an unknown transfer, changing nothing", async () => {
    const object = await OBJECTS.lot.make();
    const before = (await api.get(object.path)).body.data;
    const theirs = await newTransfer('broker');
    const notMine = await takeOver(object.path, { id: theirs.id, transfer: object.transfer }, 'broker2');
    expect(notMine.status).toBe(403);
    expect(notMine.body.errors).toEqual([
      { location: 'body', name: 'transfer', description: 'Transfer was created by another broker' },
    ]);
    const mine = await newTransfer('broker2');
    const wrong = await takeOver(object.path, { id: mine.id, transfer: hex32() });
    // The lot is a draft: to another broker without its transfer token it is not there, as an unknown id.
    expect(wrong.body.errors).toEqual([{ location: 'url', name: 'lot_id', description: 'Not Found' }]);
    const pending = await lotIn(api, 'pending');
    const wrongPublished = await takeOver(`/api/0.1/lots/${pending.id}`, { id: mine.id, transfer: hex32() });
    expect(wrongPublished.body.errors).toEqual([
      { location: 'body', name: 'transfer', description: 'Invalid transfer' },
    ]);
    const unknown = await takeOver(object.path, { id: hex32(), transfer: object.transfer });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual([{ location: 'url', name: 'transfer_id', description: 'Not Found' }]);
    expect((await api.get(object.path)).body.data).toEqual(before);
    expect((await api.get(`/api/0.1/transfers/${mine.id}`, { as: 'broker2' })).body.data.usedFor).toBeUndefined();
  });

  it('answers 422 for a body without id or transfer', async () => {
    const object = await OBJECTS.lot.make();
    const empty = await takeOver(object.path, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([
      { location: 'body', name: 'id', description: 'This field is required.' },
      { location: 'body', name: 'transfer', description: 'This field is required.' },
    ]);
    const half = await takeOver(object.path, { id: 1984 });
    expect(half.body.errors).toEqual([{ location: 'body', name: 'transfer', description: 'This field is required.' }]);
    const wrongType = await takeOver(object.path, { id: 1984, transfer: ['x'] });
    expect(wrongType.status).toBe(422);
  });

  it('needs the accreditation that creates the object, and a test-only broker takes only test objects', async () => {
    await putApiKey('broker-level-1', { name: 'broker-level-1', role: 'broker', levels: '1' });
    await putApiKey('broker-test-only', { name: 'broker-test-only', role: 'broker', levels: '1234t' });
    const refusal = [
      { location: 'body', name: 'data', description: 'Broker Accreditation level does not permit ownership change' },
    ];
    const asset = await OBJECTS['bounce asset'].make();
    const low = await newTransfer('broker-level-1');
    const lowRes = await takeOver(asset.path, { id: low.id, transfer: asset.transfer }, 'broker-level-1');
    expect(lowRes.status).toBe(403);
    expect(lowRes.body.errors).toEqual(refusal);
    // Level 1 is enough for a lot.
    const lot = await OBJECTS.lot.make();
    expect((await takeOver(lot.path, { id: low.id, transfer: lot.transfer }, 'broker-level-1')).status).toBe(200);

    const testOnly = await newTransfer('broker-test-only');
    const real = await takeOver(asset.path, { id: testOnly.id, transfer: asset.transfer }, 'broker-test-only');
    expect(real.body.errors).toEqual(refusal);
    const sandbox = await OBJECTS['landlease auction'].make(); // mode: test
    const taken = await takeOver(sandbox.path, { id: testOnly.id, transfer: sandbox.transfer }, 'broker-test-only');
    expect(taken.status).toBe(200);
    expect(taken.body.data.owner).toBe('broker-test-only');
  });

  it('takes a dgfInsider auction over through the 2.3 transfers, answered as 2.3 answers', async () => {
    const auction = await OBJECTS['dgfInsider auction'].make();
    const created = await api.post('/api/2.3/transfers', {}, { as: 'broker2' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const res = await takeOver(auction.path, { id: created.body.data.id, transfer: auction.transfer });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: auction.id, owner: 'broker2', procurementMethodType: 'dgfInsider' });
    expect((await api.get(`/api/2.3/transfers/${created.body.data.id}`, { as: 'broker2' })).body.data.usedFor).toBe(
      `/auctions/${auction.id}`,
    );
    // Not through the other type's path.
    const t = await newTransfer('broker2', '2.3');
    const elsewhere = await takeOver(`${AUCTIONS}/${auction.id}`, { id: t.id, transfer: created.body.access.transfer });
    expect(elsewhere.status).toBe(404);
  });

  it('is for brokers only, and finds an object only at the path of its own type', async () => {
    const asset = await OBJECTS['bounce asset'].make();
    const t = await newTransfer('broker2');
    const bot = await takeOver(asset.path, { id: t.id, transfer: asset.transfer }, 'concierge');
    expect(bot.status).toBe(403);
    expect((await api.post('/api/0.1/transfers', {}, { as: 'concierge' })).status).toBe(403);
    const elsewhere = await takeOver(`/api/0.1/assets/${asset.id}`, { id: t.id, transfer: asset.transfer });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.errors).toEqual([{ location: 'url', name: 'asset_id', description: 'Not Found' }]);
    const missing = await takeOver(`/api/0.1/lots/${hex32()}`, { id: t.id, transfer: asset.transfer });
    expect(missing.body.errors).toEqual([{ location: 'url', name: 'lot_id', description: 'Not Found' }]);
    expect((await api.get(`/api/2.4/transfers/${hex32()}`)).status).toBe(404);
    expect((await api.get(asset.path)).body.data.owner).toBe('broker');
  });

  it.each(['landlease auction', 'dgfInsider auction'] as const)(
    'extract_credentials of a %s: id, owner and the hashed transfer token, to the admin alone',
    async (name) => {
      const auction = await OBJECTS[name].make();
      const res = await api.get(`${auction.path}/extract_credentials`, { as: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        id: auction.id,
        owner: 'broker',
        transfer_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(res.body.data.transfer_token).not.toContain(auction.transfer);
      for (const as of ['broker', 'concierge', 'convoy']) {
        expect((await api.get(`${auction.path}/extract_credentials`, { as })).body.errors).toEqual([
          { location: 'url', name: 'permission', description: 'Forbidden' },
        ]);
      }
      // It follows the owner: after a take-over it gives the new owner and the new transfer token's hash.
      const t = await newTransfer('broker2');
      await takeOver(auction.path, { id: t.id, transfer: auction.transfer });
      const after = (await api.get(`${auction.path}/extract_credentials`, { as: 'admin' })).body.data;
      expect(after.owner).toBe('broker2');
      expect(after.transfer_token).not.toBe(res.body.data.transfer_token);
      expect((await api.get(`${AUCTIONS}/${hex32()}/extract_credentials`, { as: 'admin' })).status).toBe(404);
    },
  );

  it('works on an asset whatever its status (an active asset attached to a lot changes hands too)', async () => {
    const object = await OBJECTS['bounce asset'].make();
    const asset: CreatedAsset = { type: 'bounce', id: object.id, token: object.token, asset: {}, url: object.path };
    for (const [data, role] of [
      [{ status: 'pending' }, 'owner'],
      [{ status: 'verification', relatedLot: LOT_ID }, 'concierge'],
      [{ status: 'active' }, 'concierge'],
    ] as const) {
      expect((await patchAs(api, asset, role, data)).status).toBe(200);
    }
    const t = await newTransfer('broker2');
    const res = await takeOver(object.path, { id: t.id, transfer: object.transfer });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'active', owner: 'broker2', relatedLot: LOT_ID });
  });
});
