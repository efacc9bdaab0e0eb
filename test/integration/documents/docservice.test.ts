import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fileUrl, keyringFromSeeds, newFileKey } from '../../../functions/domain/documents/docservice.ts';
import { devKeyring } from '../../../functions/store/docservice-keys.ts';
import { aBid, aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { assetIn } from '../../support/assets.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, rectifyingAuction } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterAll(() => clock.reset());

const DS = '/api/docservice';
const basic = (as: string) => `Basic ${Buffer.from(`${as}:`).toString('base64')}`;
const md5 = (bytes: Uint8Array) => `md5:${createHash('md5').update(bytes).digest('hex')}`;
const keyOf = (url: string) => new URL(url).pathname.split('/').pop()!;

/** Sends raw bytes (never JSON) to a docservice route, as a client uploading a file does. */
async function sendBytes(method: string, pathOrUrl: string, bytes: Uint8Array, as = 'broker') {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${service.url}${pathOrUrl}`;
  const res = await fetch(url, {
    method,
    headers: { authorization: basic(as), 'content-type': 'application/octet-stream' },
    body: bytes as unknown as BodyInit,
  });
  return { status: res.status, body: await res.json() };
}

/** A file registered by its hash, then uploaded to its `upload_url`. */
async function registeredFile(bytes: Uint8Array) {
  const registered = await api.post(`${DS}/register`, { hash: md5(bytes) });
  expect(registered.status).toBe(201);
  const uploaded = await sendBytes('PUT', registered.body.data.upload_url, bytes);
  expect(uploaded.status).toBe(200);
  return registered.body.data as { key: string; hash: string; url: string; upload_url: string };
}

/** Follows a document link: the API's 302 to a short-lived docservice link, then that link (no API key) to the bytes. */
async function download(documentUrl: string) {
  const first = await fetch(documentUrl, { headers: { authorization: basic('broker') }, redirect: 'manual' });
  expect(first.status).toBe(302);
  const location = first.headers.get('location')!;
  const second = await fetch(location, { redirect: 'manual' });
  return { location, status: second.status, bytes: Buffer.from(await second.arrayBuffer()) };
}

const fileDocument = (file: { url: string; hash: string }, overrides: Record<string, unknown> = {}) =>
  aDocument({ url: file.url, hash: file.hash, format: 'application/octet-stream', ...overrides });

describe('document service', () => {
  it('registers a hash, takes the bytes at the upload link, and a lot document downloads them back byte for byte', async () => {
    const bytes = randomBytes(300_000);
    const registered = await api.post(`${DS}/register`, { hash: md5(bytes) });
    expect(registered.status).toBe(201);
    const { key, url, upload_url } = registered.body.data;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(url).toMatch(new RegExp(`^${service.url}${DS}/get/${key}\\?KeyID=[0-9a-f]{8}&Signature=[^&]+$`));
    expect(upload_url).toMatch(
      new RegExp(`^${service.url}${DS}/upload/${key}\\?hash=md5%3A[0-9a-f]{32}&KeyID=[0-9a-f]{8}&Signature=`),
    );
    const uploaded = await sendBytes('PUT', upload_url, bytes);
    expect(uploaded).toEqual({ status: 200, body: { data: { key, hash: md5(bytes), url } } });

    const lot = await lotIn(api, 'pending');
    const added = await api.post(`/api/0.1/lots/${lot.id}/documents`, fileDocument({ url, hash: md5(bytes) }), {
      token: lot.token,
    });
    expect(added.status).toBe(201);
    const document = added.body.data;
    expect(document.url).toBe(`${service.url}/api/0.1/lots/${lot.id}/documents/${document.id}?download=${key}`);
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.documents).toEqual([document]);

    const started = Math.floor(Date.now() / 1000);
    const got = await download(document.url);
    expect(got.location).toMatch(
      new RegExp(`^${service.url}${DS}/get/${key}\\?KeyID=[0-9a-f]{8}&Signature=[^&]+&Expires=\\d+$`),
    );
    const expires = Number(new URL(got.location).searchParams.get('Expires'));
    expect(expires - started).toBeGreaterThanOrEqual(299);
    expect(expires - started).toBeLessThanOrEqual(301);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(bytes)).toBe(true);
  });

  it('takes the bytes first, without registering, and a bounce asset document downloads them back', async () => {
    const bytes = Buffer.from('Протокол огляду майна\n', 'utf8');
    const uploaded = await sendBytes('POST', `${DS}/upload`, bytes);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.data).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{32}$/),
      hash: md5(bytes),
      url: expect.any(String),
    });
    const asset = await assetIn(api, 'bounce', 'pending');
    const added = await api.post(`${asset.url}/documents`, fileDocument(uploaded.body.data, { format: 'text/plain' }), {
      token: asset.token,
    });
    expect(added.status).toBe(201);
    expect(added.body.data.url).toBe(
      `${service.url}${asset.url}/documents/${added.body.data.id}?download=${uploaded.body.data.key}`,
    );
    const got = await download(added.body.data.url);
    expect(got.bytes.equals(bytes)).toBe(true);
  });

  it('attaches files to an auction and to a bid, each downloaded through its own document link', async () => {
    const { id, token, auction } = await rectifyingAuction(api);
    const url = `${AUCTIONS}/${id}`;
    const notice = randomBytes(5_000);
    const noticeFile = await registeredFile(notice);
    const added = await api.post(`${url}/documents`, fileDocument(noticeFile), { token });
    expect(added.status).toBe(201);
    expect(added.body.data.url).toBe(`${service.url}${url}/documents/${added.body.data.id}?download=${noticeFile.key}`);
    expect((await download(added.body.data.url)).bytes.equals(notice)).toBe(true);

    await clock.passTo(auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const bid = await api.post(`${url}/bids`, aBid(), { as: 'broker2' });
    expect(bid.status).toBe(201);
    const bidUrl = `${url}/bids/${bid.body.data.id}`;
    const bidToken = bid.body.access.token;
    await api.patch(bidUrl, { status: 'pending' }, { as: 'broker2', token: bidToken });
    const eligibility = randomBytes(7_000);
    const uploaded = await sendBytes('POST', `${DS}/upload`, eligibility, 'broker2');
    const bidDocument = await api.post(
      `${bidUrl}/documents`,
      fileDocument(uploaded.body.data, { documentType: 'eligibilityDocuments' }),
      { as: 'broker2', token: bidToken },
    );
    expect(bidDocument.status).toBe(201);
    expect(bidDocument.body.data.url).toBe(
      `${service.url}${bidUrl}/documents/${bidDocument.body.data.id}?download=${uploaded.body.data.key}`,
    );
    const first = await fetch(`${bidDocument.body.data.url}&acc_token=${bidToken}`, {
      headers: { authorization: basic('broker2') },
      redirect: 'manual',
    });
    expect(first.status).toBe(302);
    const bytes = Buffer.from(await (await fetch(first.headers.get('location')!)).arrayBuffer());
    expect(bytes.equals(eligibility)).toBe(true);
    // Bids are hidden while tendering: another broker sees neither the bid nor its file.
    const stranger = await api.get(
      `${bidUrl}/documents/${bidDocument.body.data.id}?download=${uploaded.body.data.key}`,
    );
    expect(stranger.status).toBe(403);
    await clock.reset();
  });

  it('keeps the file of every version: an older version downloads its own bytes, and resending the stored url keeps the file', async () => {
    const lot = await lotIn(api, 'pending');
    const docs = `/api/0.1/lots/${lot.id}/documents`;
    const v1 = randomBytes(1_000);
    const v2 = randomBytes(2_000);
    const first = (await api.post(docs, fileDocument(await registeredFile(v1)), { token: lot.token })).body.data;
    const second = (await api.put(`${docs}/${first.id}`, fileDocument(await registeredFile(v2)), { token: lot.token }))
      .body.data;
    const retitled = await api.put(
      `${docs}/${first.id}`,
      { title: 'Renamed.bin', url: second.url, hash: second.hash },
      { token: lot.token },
    );
    expect(retitled.status).toBe(200);
    expect(retitled.body.data.url).toBe(second.url);
    const read = (await api.get(`${docs}/${first.id}`)).body.data;
    expect(read.previousVersions.map((v: any) => v.url)).toEqual([first.url, second.url]);
    expect((await download(first.url)).bytes.equals(v1)).toBe(true);
    expect((await download(read.url)).bytes.equals(v2)).toBe(true);
  });

  it('answers 404 for a download key the document does not have', async () => {
    const lot = await lotIn(api, 'pending');
    const docs = `/api/0.1/lots/${lot.id}/documents`;
    const document = (await api.post(docs, aDocument(), { token: lot.token })).body.data;
    const res = await api.get(`${docs}/${document.id}?download=${newFileKey()}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      status: 'error',
      errors: [{ location: 'url', name: 'download', description: 'Not Found' }],
    });
  });
});

describe('document service refusals', () => {
  const FROM_SERVICE = {
    status: 'error',
    errors: [{ location: 'body', name: 'url', description: 'Can add document only from document service.' }],
  };
  const unprocessable = (description: string) => ({
    status: 'error',
    errors: [{ location: 'body', name: 'url', description }],
  });

  async function pendingLot() {
    const lot = await lotIn(api, 'pending');
    const post = (document: Record<string, unknown>) =>
      api.post(`/api/0.1/lots/${lot.id}/documents`, document, { token: lot.token });
    return { lot, post };
  }

  it('refuses foreign urls: another host, another path, another query; and writes nothing', async () => {
    const { lot, post } = await pendingLot();
    const good = aDocument();
    const url = new URL(good.url);
    const foreign = [
      `http://docs.example.com${url.pathname}${url.search}`,
      good.url.replace('/get/', '/got/'),
      `${good.url}&Expires=9999999999`,
      `${service.url}${DS}/get/${keyOf(good.url)}?KeyID=${url.searchParams.get('KeyID')}`,
    ];
    for (const bad of foreign) {
      const res = await post({ ...good, url: bad });
      expect(res.status, bad).toBe(403);
      expect(res.body).toEqual(FROM_SERVICE);
    }
    expect((await api.get(`/api/0.1/lots/${lot.id}`)).body.data.documents).toBeUndefined();
  });

  it('refuses tampered urls: another key, a mangled signature, a signature that is not base64', async () => {
    const { post } = await pendingLot();
    const good = aDocument();
    const otherKey = good.url.replace(keyOf(good.url), newFileKey());
    expect((await post({ ...good, url: otherKey })).body).toEqual(unprocessable('Document url invalid.'));
    const url = new URL(good.url);
    const signature = url.searchParams.get('Signature')!;
    url.searchParams.set('Signature', (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1));
    expect((await post({ ...good, url: url.toString() })).body).toEqual(unprocessable('Document url invalid.'));
    url.searchParams.set('Signature', '***');
    const res = await post({ ...good, url: url.toString() });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(unprocessable('Document url signature invalid.'));
  });

  it('refuses a url with a hash it was not signed for (a wrong hash)', async () => {
    const { post } = await pendingLot();
    const bytes = randomBytes(100);
    const file = await registeredFile(bytes);
    const res = await post(fileDocument(file, { hash: md5(randomBytes(100)) }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual(unprocessable('Document url invalid.'));
  });

  it('refuses a url signed with a key it no longer knows as expired', async () => {
    const { post } = await pendingLot();
    const hash = md5(randomBytes(10));
    const retired = fileUrl(keyringFromSeeds(randomBytes(32)), `${service.url}${DS}`, newFileKey(), hash);
    const res = await post(aDocument({ url: retired, hash }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual(unprocessable('Document url expired.'));
  });

  it('refuses bytes that do not match the registered hash, and upload links it did not sign', async () => {
    const registered = (await api.post(`${DS}/register`, { hash: md5(randomBytes(64)) })).body.data;
    const wrong = await sendBytes('PUT', registered.upload_url, randomBytes(64));
    expect(wrong).toEqual({
      status: 422,
      body: { status: 'error', errors: [{ location: 'body', name: 'file', description: ['Invalid checksum'] }] },
    });
    const forged = registered.upload_url.replace(
      /hash=md5%3A[0-9a-f]{32}/,
      `hash=${encodeURIComponent(md5(Buffer.from('x')))}`,
    );
    const res = await sendBytes('PUT', forged, Buffer.from('x'));
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([
      { location: 'querystring', name: 'Signature', description: 'Upload link invalid.' },
    ]);
    const empty = await sendBytes('POST', `${DS}/upload`, Buffer.alloc(0));
    expect(empty.body.errors).toEqual([{ location: 'body', name: 'file', description: 'Not Found' }]);
  });

  it('refuses expired and forged download links, and answers 404 for a file never uploaded', async () => {
    const bytes = randomBytes(500);
    const file = await registeredFile(bytes);
    const { lot } = await pendingLot();
    const document = (await api.post(`/api/0.1/lots/${lot.id}/documents`, fileDocument(file), { token: lot.token }))
      .body.data;
    const redirect = await fetch(document.url, { headers: { authorization: basic('broker') }, redirect: 'manual' });
    const link = redirect.headers.get('location')!;
    const forged = new URL(link);
    forged.searchParams.set('Expires', String(Number(forged.searchParams.get('Expires')) + 3600));
    const forgedRes = await fetch(forged);
    expect(forgedRes.status, forged.toString()).toBe(403);
    expect((await forgedRes.json()).errors).toEqual([
      { location: 'querystring', name: 'Signature', description: 'Signature invalid.' },
    ]);

    await clock.passTo(new Date(Number(forged.searchParams.get('Expires')) * 1000 - 3600_000).toISOString());
    const expired = await fetch(link);
    await clock.reset();
    expect(expired.status).toBe(403);
    expect((await expired.json()).errors).toEqual([
      { location: 'querystring', name: 'Expires', description: 'Request has expired' },
    ]);

    const never = (await api.post(`${DS}/register`, { hash: md5(randomBytes(8)) })).body.data;
    const unsent = (await api.post(`/api/0.1/lots/${lot.id}/documents`, fileDocument(never), { token: lot.token })).body
      .data;
    const missing = await fetch(
      (await fetch(unsent.url, { headers: { authorization: basic('broker') }, redirect: 'manual' })).headers.get(
        'location',
      )!,
    );
    expect(missing.status).toBe(404);
    expect((await missing.json()).errors).toEqual([{ location: 'url', name: 'key', description: 'Not Found' }]);
  });

  it('takes no signature of one kind for another: a file url registered for an all-digit hash is no download link', async () => {
    const nines = '9'.repeat(32);
    const registered = (await api.post(`${DS}/register`, { hash: `md5:${nines}` })).body.data;
    const asDownload = new URL(registered.url);
    asDownload.searchParams.set('Expires', nines);
    const res = await fetch(asDownload);
    expect(res.status).toBe(403);
    expect((await res.json()).errors).toEqual([
      { location: 'querystring', name: 'Signature', description: 'Signature invalid.' },
    ]);
    const upload = new URL(registered.upload_url);
    const asFile = `${service.url}${DS}/get/${registered.key}?KeyID=${upload.searchParams.get('KeyID')}&Signature=${encodeURIComponent(upload.searchParams.get('Signature')!)}`;
    const { lot } = await pendingLot();
    const post = await api.post(`/api/0.1/lots/${lot.id}/documents`, aDocument({ url: asFile, hash: `md5:${nines}` }), {
      token: lot.token,
    });
    expect(post.status).toBe(422);
  });

  it('takes registrations and uploads from brokers only, and checks the hash it registers', async () => {
    expect((await api.call('POST', `${DS}/register`, { hash: md5(Buffer.from('a')) })).status).toBe(401);
    expect((await api.post(`${DS}/register`, { hash: md5(Buffer.from('a')) }, { as: 'concierge' })).status).toBe(403);
    expect((await sendBytes('POST', `${DS}/upload`, Buffer.from('a'), 'concierge')).status).toBe(403);
    const missing = await api.post(`${DS}/register`, {});
    expect(missing.body.errors).toEqual([{ location: 'body', name: 'hash', description: ['This field is required.'] }]);
    const malformed = await api.post(`${DS}/register`, { hash: 'sha1:abc' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0].name).toBe('hash');
  });

  it('signs with the documented dev key locally', async () => {
    const registered = (await api.post(`${DS}/register`, { hash: md5(Buffer.from('dev')) })).body.data;
    expect(new URL(registered.url).searchParams.get('KeyID')).toBe(devKeyring().keyId);
  });
});
