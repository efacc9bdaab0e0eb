import { describe, expect, it } from 'vitest';
import { aDocument, hex32 } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { createLot, lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);
const docs = (id: string) => `/api/0.1/lots/${id}/documents`;

describe('lot documents', () => {
  it('adds a document while pending, with server fields, and shows it on the lot', async () => {
    const lot = await lotIn(api, 'pending');
    const res = await api.post(docs(lot.id), aDocument({ id: 'mine', author: 'me' }), { token: lot.token });
    expect(res.status).toBe(201);
    const doc = res.body.data;
    expect(doc).toMatchObject({
      author: 'lot_owner',
      documentOf: 'lot',
      title: 'Notice.pdf',
      format: 'application/pdf',
    });
    expect(doc.id).toMatch(/^[0-9a-f]{32}$/);
    expect(doc.datePublished).toBe(doc.dateModified);
    expect(res.headers.get('location')).toBe(`${service.url}${docs(lot.id)}/${doc.id}`);
    const read = await api.get(`/api/0.1/lots/${lot.id}`);
    expect(read.requests).toBe(1);
    expect(read.body.data.documents).toEqual([doc]);
    expect(read.body.data.dateModified).toBe(doc.dateModified);
  });

  it('keeps versions: PUT keeps id and datePublished, and the older ones are previousVersions', async () => {
    const lot = await lotIn(api, 'pending');
    const first = (await api.post(docs(lot.id), aDocument(), { token: lot.token })).body.data;
    const put = await api.put(`${docs(lot.id)}/${first.id}`, aDocument({ title: 'Notice v2.pdf' }), {
      token: lot.token,
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      id: first.id,
      datePublished: first.datePublished,
      title: 'Notice v2.pdf',
      author: 'lot_owner',
    });
    expect(put.body.data.dateModified).not.toBe(first.dateModified);
    const one = await api.get(`${docs(lot.id)}/${first.id}`);
    expect(one.body.data.title).toBe('Notice v2.pdf');
    expect(one.body.data.previousVersions).toEqual([first]);
    const list = await api.get(docs(lot.id));
    expect(list.body.data).toEqual([put.body.data]);
    // ?all=1: every version, in upload order (upstream `all`); anything else in `all` is just as true.
    expect((await api.get(`${docs(lot.id)}?all=1`)).body.data).toEqual([first, put.body.data]);
    expect((await api.get(`${docs(lot.id)}?all=true`)).body.data).toHaveLength(2);
    expect((await api.get(`${docs(lot.id)}?all=`)).body.data).toEqual([put.body.data]);
  });

  it('orders illustrations by index, equal indexes in upload order', async () => {
    const lot = await lotIn(api, 'pending');
    const add = async (title: string, index?: number) =>
      (
        await api.post(
          docs(lot.id),
          aDocument({
            title,
            documentType: 'illustration',
            format: 'image/png',
            ...(index !== undefined && { index }),
          }),
          { token: lot.token },
        )
      ).body.data;
    await add('c', 3);
    await add('a1', 1);
    await add('b', 2);
    await add('a2', 1);
    const list = await api.get(docs(lot.id));
    expect(list.body.data.map((d: any) => d.title)).toEqual(['a1', 'a2', 'b', 'c']);
  });

  it('refuses documents outside pending, without the token, and with bad fields', async () => {
    const draft = await createLot(api);
    const inDraft = await api.post(docs(draft.id), aDocument(), { token: draft.token });
    expect(inDraft.status).toBe(403);
    expect(inDraft.body.errors[0].description).toBe("Can't update document in current (draft) lot status");
    const lot = await lotIn(api, 'pending');
    expect((await api.post(docs(lot.id), aDocument())).status).toBe(403);
    const bad = await api.post(docs(lot.id), aDocument({ hash: 'md5:xyz', title: undefined }), { token: lot.token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.name).sort()).toEqual(['hash', 'title']);
    const read = await api.get(`/api/0.1/lots/${lot.id}`);
    expect(read.body.data.documents).toBeUndefined();
  });

  it('answers 404 for an unknown document', async () => {
    const lot = await lotIn(api, 'pending');
    const res = await api.get(`${docs(lot.id)}/${hex32()}`);
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toEqual({ location: 'url', name: 'document_id', description: 'Not Found' });
    expect((await api.put(`${docs(lot.id)}/${hex32()}`, aDocument(), { token: lot.token })).status).toBe(404);
  });
});
