import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../functions/platform/config.ts';
import { aDocument } from '../support/builders.ts';
import { client } from '../support/http.ts';
import { useService } from '../support/service.ts';
import { INSIDER, insiderBid, tenderingInsider } from '../support/auctions.ts';
import { createLot, lotIn } from '../support/lots.ts';

/**
 * Issue 35: the originals let anyone read public data (journalists, auditors, the public), with the role rules that
 * hide what must be hidden; Agora answers keyless reads the same, unless the operator requires a key for reads.
 */
const service = useService();
const api = client(() => service.url);
/** A caller without any key. */
const anyone = (path: string) => api.call('GET', path);

afterEach(() => {
  delete process.env.AGORA_READS_NEED_KEY;
  resetConfig();
});

describe('reads without a key', () => {
  it('answer the listings, objects, documents and children lists as to a key', async () => {
    const lot = await lotIn(api, 'pending');
    const doc = await api.post(`/api/0.1/lots/${lot.id}/documents`, aDocument(), { token: lot.token });
    expect(doc.status).toBe(201);
    const a = await tenderingInsider(api);
    for (const path of [
      '/api/0.1/lots',
      `/api/0.1/lots/${lot.id}`,
      `/api/0.1/lots/${lot.id}/documents`,
      `/api/0.1/lots/${lot.id}/documents/${doc.body.data.id}`,
      INSIDER,
      `${INSIDER}/${a.id}`,
      `${INSIDER}/${a.id}/documents`,
      `${INSIDER}/${a.id}/questions`,
      `${INSIDER}/${a.id}/awards`,
      `${INSIDER}/${a.id}/cancellations`,
      '/api/schemas',
    ]) {
      const [keyless, keyed] = [await anyone(path), await api.get(path)];
      expect(keyless.status, path).toBe(200);
      expect(keyless.body, path).toEqual(keyed.body);
    }
  });

  it('hide what a stranger may not see: bids before they are disclosed, tokens', async () => {
    const a = await tenderingInsider(api);
    const bid = await insiderBid(api, a.id);
    const auction = await anyone(`${INSIDER}/${a.id}`);
    expect(auction.body.data).not.toHaveProperty('bids');
    expect(auction.body).not.toHaveProperty('access');
    const refused = await anyone(`${INSIDER}/${a.id}/bids/${bid.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].description).toBe("Can't view bid in current (active.tendering) auction status");
    expect((await anyone(`${INSIDER}/${a.id}/bids/${bid.id}/documents`)).status).toBe(403);
    // Its owner still sees it, with the key and the bid's token.
    expect((await api.get(`${INSIDER}/${a.id}/bids/${bid.id}`, { as: 'broker2', token: bid.token })).status).toBe(200);
  });

  it('do not reach what needs a key: writes, transfers, the auction module are 401 without one', async () => {
    const lot = await createLot(api);
    const a = await tenderingInsider(api);
    const answers = [
      await api.call('POST', '/api/0.1/lots', { title: 'x' }),
      await api.call('PATCH', `/api/0.1/lots/${lot.id}?acc_token=${lot.token}`, { title: 'x' }),
      await api.call('POST', `${INSIDER}/${a.id}/bids`, { value: { amount: 1 } }),
      await api.call('GET', `${INSIDER}/${a.id}/auction`),
      await api.call('POST', '/api/0.1/transfers', {}),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body.errors[0]).toMatchObject({ location: 'header', name: 'Authorization' });
    }
    // Nothing written: the lot is still as it was (a draft, which answers its owner alone).
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.title).toBe(lot.lot.title);
    expect((await anyone(`/api/0.1/lots/${lot.id}`)).status).toBe(404);
  });

  it('with an unknown key are refused (401): a wrong key is reported, never read as none', async () => {
    const res = await api.get('/api/0.1/lots', { as: 'no-such-key' });
    expect(res.status).toBe(401);
  });

  it('need a key when the operator says so (AGORA_READS_NEED_KEY=1)', async () => {
    const lot = await createLot(api);
    process.env.AGORA_READS_NEED_KEY = '1';
    resetConfig();
    for (const path of ['/api/0.1/lots', `/api/0.1/lots/${lot.id}`, INSIDER]) {
      const res = await anyone(path);
      expect(res.status, path).toBe(401);
      expect(res.body.errors[0]).toMatchObject({ location: 'header', name: 'Authorization' });
      expect((await api.get(path)).status, path).toBe(200);
    }
    // Public routes stay public.
    expect((await anyone('/api/health')).status).toBe(200);
  });
});
