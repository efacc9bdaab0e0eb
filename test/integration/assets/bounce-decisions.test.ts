import { describe, expect, it } from 'vitest';
import { aBounceAsset, aDecision, createAsset, patchAs } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

const HEX = /^[0-9a-f]{32}$/;

describe('bounce asset decisions', () => {
  it("gives each decision a server id and decisionOf 'asset', whatever the client sent", async () => {
    const { asset } = await createAsset(api, 'bounce', {
      decisions: [aDecision({ id: 'mine', decisionOf: 'asset' }), aDecision({ decisionID: '2222-5' })],
    });
    const [a, b] = asset.decisions;
    expect(a).toEqual({ ...aDecision(), id: expect.stringMatching(HEX), decisionOf: 'asset' });
    expect(b).toEqual({ ...aDecision({ decisionID: '2222-5' }), id: expect.stringMatching(HEX), decisionOf: 'asset' });
    expect(a.id).not.toBe(b.id);
  });

  it('keeps decision ids across PATCHes that send them back, and gives new decisions new ids', async () => {
    const created = await createAsset(api, 'bounce');
    const [first] = created.asset.decisions;
    const res = await patchAs(api, created, 'owner', {
      decisions: [{ ...first, title: 'Рішення' }, aDecision({ decisionID: '3333-1' })],
    });
    expect(res.status).toBe(200);
    const [kept, added] = res.body.data.decisions;
    expect(kept).toEqual({ ...first, title: 'Рішення' });
    expect(added).toMatchObject({ id: expect.stringMatching(HEX), decisionOf: 'asset', decisionID: '3333-1' });
    expect(added.id).not.toBe(first.id);
    // A PATCH of other fields leaves the decisions as they are.
    const other = await patchAs(api, created, 'owner', { description: 'Інший опис' });
    expect(other.body.data.decisions).toEqual(res.body.data.decisions);
  });

  it("sets decisionOf to 'asset' even when the client sends another", async () => {
    const res = await api.post('/api/2.4/assets', aBounceAsset({ decisions: [aDecision({ decisionOf: 'lot' })] }));
    expect(res.status).toBe(201);
    expect(res.body.data.decisions[0].decisionOf).toBe('asset');
  });
});
