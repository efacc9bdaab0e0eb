import { describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { INSIDER, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);

describe('dgfInsider auction documents', () => {
  it('keeps versions: PUT keeps id and datePublished, moves dateModified, and lists the older versions', async () => {
    const { id, token } = await tenderingInsider(api);
    const docs = `${INSIDER}/${id}/documents`;
    const first = (await api.post(docs, aDocument({ title: 'v1.pdf' }), { token })).body.data;
    await new Promise((r) => setTimeout(r, 5));
    const second = await api.put(`${docs}/${first.id}`, aDocument({ title: 'v2.pdf' }), { token });
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(second.body.data).toMatchObject({
      id: first.id,
      title: 'v2.pdf',
      datePublished: first.datePublished,
      documentOf: 'tender',
    });
    expect(Date.parse(second.body.data.dateModified)).toBeGreaterThan(Date.parse(first.dateModified));
    await api.put(`${docs}/${first.id}`, { title: 'v3.pdf' }, { token });

    const one = (await api.get(`${docs}/${first.id}`)).body.data;
    expect(one.title).toBe('v3.pdf');
    expect(one.previousVersions.map((v: { title: string }) => v.title)).toEqual(['v1.pdf', 'v2.pdf']);
    const list = (await api.get(docs)).body.data;
    expect(list.map((d: { title: string }) => d.title)).toEqual([
      'Перелік та реквізити авторизованих електронних майданчиків',
      'v3.pdf',
    ]);
  });

  it('shows illustrations by ascending index, equal indexes in upload order', async () => {
    const { id, token } = await tenderingInsider(api);
    const docs = `${INSIDER}/${id}/documents`;
    for (const [title, index] of [
      ['c', 3],
      ['a1', 1],
      ['b', 2],
      ['a2', 1],
    ] as const) {
      expect(
        (
          await api.post(docs, aDocument({ title, documentType: 'illustration', index, format: 'image/jpeg' }), {
            token,
          })
        ).status,
      ).toBe(201);
    }
    const titles = (await api.get(docs)).body.data
      .filter((d: { documentType: string }) => d.documentType === 'illustration')
      .map((d: { title: string }) => d.title);
    expect(titles).toEqual(['a1', 'a2', 'b', 'c']);
    expect(
      (await api.get(`${INSIDER}/${id}`)).body.data.documents.slice(1).map((d: { title: string }) => d.title),
    ).toEqual(['a1', 'a2', 'b', 'c']);
  });

  it('refuses a malformed hash with 422 on the field', async () => {
    const { id, token } = await tenderingInsider(api);
    const bad = await api.post(`${INSIDER}/${id}/documents`, aDocument({ hash: 'md5:xyz' }), { token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].name).toBe('hash');
  });
});
