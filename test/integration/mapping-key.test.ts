import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLocal } from '../../functions/platform/config.ts';
import { aDocument, aLot } from '../support/builders.ts';
import { client } from '../support/http.ts';
import { lotIn } from '../support/lots.ts';
import { useService } from '../support/service.ts';

/**
 * The API on a custom domain under an API mapping key (`https://example.org/agora`, publicBaseUrl with a path): API
 * Gateway routes what follows the key and leaves the key in `rawPath`, and the public base URL carries it. The local
 * gateway serves its routes under the public URL's path the same way. Every link (Location, next_page, documents, the
 * room page's files and forms) names the key once, and what is stored never holds it.
 */
const service = useService();
let mounted = '';
const api = client(() => mounted);
const atRootApi = client(() => service.url);
const BROKER = `Basic ${Buffer.from('broker:').toString('base64')}`;
const md5 = (bytes: Uint8Array) => `md5:${createHash('md5').update(bytes).digest('hex')}`;
const at = (base: string) => ({ publicUrl: base, docserviceUrl: `${base}/api/docservice`, auctionSite: base });
beforeAll(() => {
  mounted = `${service.url}/agora`;
  setLocal(at(mounted));
});
afterAll(() => setLocal(at(service.url)));

describe('the API under a mapping key', () => {
  it('names the key once in Location, next_page and a document link, which downloads its file', async () => {
    const lot = await lotIn(api, 'pending');
    expect(lot.id).toMatch(/^[0-9a-f]{32}$/);
    const created = await api.post('/api/0.1/lots', aLot());
    expect(created.headers.get('location')).toBe(`${mounted}/api/0.1/lots/${created.body.data.id}`);

    const bytes = randomBytes(2_000);
    const registered = await api.post('/api/docservice/register', { hash: md5(bytes) });
    expect(registered.status).toBe(201);
    const { url, upload_url } = registered.body.data;
    expect(upload_url.startsWith(`${mounted}/api/docservice/upload/`)).toBe(true);
    const uploaded = await fetch(upload_url, {
      method: 'PUT',
      headers: { authorization: BROKER },
      body: bytes,
    });
    expect(uploaded.status).toBe(200);
    const added = await api.post(
      `/api/0.1/lots/${lot.id}/documents`,
      aDocument({ url, hash: md5(bytes), format: 'application/octet-stream' }),
      { token: lot.token },
    );
    expect(added.status).toBe(201);
    const document = added.body.data;
    expect(added.headers.get('location')).toBe(`${mounted}/api/0.1/lots/${lot.id}/documents/${document.id}`);
    expect(document.url.startsWith(`${mounted}/api/0.1/lots/${lot.id}/documents/${document.id}?download=`)).toBe(true);
    // Stored as the API's path: the same document read at the domain's root (no key) names no key either.
    setLocal(at(service.url));
    const atRoot = (await atRootApi.get(`/api/0.1/lots/${lot.id}`)).body;
    setLocal(at(mounted));
    expect(atRoot.data.documents[0].url.startsWith(`${service.url}/api/0.1/lots/`)).toBe(true);

    const link = await fetch(document.url, { headers: { authorization: BROKER }, redirect: 'manual' });
    expect(link.status).toBe(302);
    expect(link.headers.get('location')?.startsWith(`${mounted}/api/docservice/get/`)).toBe(true);
    const file = await fetch(link.headers.get('location')!);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);

    const listed = await api.get('/api/0.1/lots?limit=1');
    expect(listed.status).toBe(200);
    expect(listed.body.next_page.uri).toBe(`${mounted}${listed.body.next_page.path}`);
    expect(listed.body.next_page.path.startsWith('/api/0.1/lots?')).toBe(true);
  });

  it("serves the room page with its files, the session's path and the forms under the key", async () => {
    const id = randomBytes(16).toString('hex');
    const page = await fetch(`${mounted}/insider-auctions/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('href="/agora/room-page/room.css"');
    expect(html).toContain('src="/agora/room-page/room.js"');
    expect(html).toContain(`data-base="/agora/insider-auctions/${id}"`);
    expect((await fetch(`${mounted}/room-page/room.js`)).status).toBe(200);
    const forged = await fetch(`${mounted}/texas-auctions/${id}/login?bidder_id=${id}&hash=${'0'.repeat(40)}`);
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('href="/agora/room-page/room.css"');
  });
});
