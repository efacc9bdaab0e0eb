import { describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { INSIDER, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);

const familiarization = (overrides: Record<string, unknown> = {}) => ({
  title: 'Ознайомлення з активом',
  documentType: 'x_dgfAssetFamiliarization',
  accessDetails: 'Щоденно з 9:00 до 17:00, вул. Хрещатик, 1, за попереднім записом',
  ...overrides,
});
const invalid = (name: string, message: string) => ({
  status: 'error',
  errors: [{ location: 'body', name, description: [message] }],
});

describe('dgfInsider offline and link documents', () => {
  it('takes an asset familiarization document with accessDetails and no file', async () => {
    const { id, token } = await tenderingInsider(api);
    const docs = `${INSIDER}/${id}/documents`;
    const added = await api.post(docs, familiarization(), { token });
    expect(added.status).toBe(201);
    // Upstream answers an offline document with its own format (add-asset-familiarization-document.http).
    expect(added.body.data).toMatchObject({
      ...familiarization(),
      format: 'offline/on-site-examination',
      documentOf: 'tender',
      author: 'auction_owner',
    });
    expect(added.body.data).not.toHaveProperty('url');
    expect(added.body.data).not.toHaveProperty('hash');
    const put = await api.put(`${docs}/${added.body.data.id}`, { accessDetails: 'Щовівторка з 10:00' }, { token });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      id: added.body.data.id,
      accessDetails: 'Щовівторка з 10:00',
      documentType: 'x_dgfAssetFamiliarization',
      format: 'offline/on-site-examination',
    });
    expect(
      (await api.get(`${INSIDER}/${id}`)).body.data.documents.filter(
        (d: { id: string }) => d.id === added.body.data.id,
      ),
    ).toHaveLength(2);
  });

  it('takes a file as the next version of an offline document (the previous version has no link to keep)', async () => {
    const { id, token } = await tenderingInsider(api);
    const docs = `${INSIDER}/${id}/documents`;
    const added = await api.post(docs, familiarization(), { token });
    const file = aDocument();
    const put = await api.put(`${docs}/${added.body.data.id}`, file, { token });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      id: added.body.data.id,
      documentType: 'technicalSpecifications',
      hash: file.hash,
      format: 'application/pdf',
    });
    expect(put.body.data.url).toContain('download=');
  });

  it('refuses a familiarization document without accessDetails or with a file', async () => {
    const { id, token } = await tenderingInsider(api);
    const docs = `${INSIDER}/${id}/documents`;
    expect((await api.post(docs, familiarization({ accessDetails: undefined }), { token })).body).toEqual(
      invalid('accessDetails', 'This field is required.'),
    );
    expect((await api.post(docs, familiarization({ url: 'https://example.com/file' }), { token })).body).toEqual(
      invalid('url', 'This field is not required.'),
    );
    expect((await api.post(docs, familiarization({ hash: `md5:${'0'.repeat(32)}` }), { token })).body).toEqual(
      invalid('hash', 'This field is not required.'),
    );
  });

  it('still needs url, format and hash for a file, and takes a link without hash or format', async () => {
    const { id, token } = await tenderingInsider(api);
    const docs = `${INSIDER}/${id}/documents`;
    const file = await api.post(docs, aDocument({ url: undefined, format: undefined, hash: undefined }), { token });
    expect(file.status).toBe(422);
    expect(file.body.errors.map((e: { name: string }) => e.name).sort()).toEqual(['format', 'hash', 'url']);
    expect(
      file.body.errors.every((e: { description: string[] }) => e.description[0] === 'This field is required.'),
    ).toBe(true);
    const room = await api.post(
      docs,
      { title: 'Data room', documentType: 'virtualDataRoom', url: 'https://vdr.example.com/room/1' },
      { token },
    );
    expect(room.status).toBe(201);
    expect(room.body.data.url).toBe('https://vdr.example.com/room/1');
    expect(
      (
        await api.post(
          docs,
          {
            title: 'Data room',
            documentType: 'virtualDataRoom',
            url: 'https://vdr.example.com/room/1',
            format: 'text/html',
          },
          { token },
        )
      ).body,
    ).toEqual(invalid('format', 'This field is not required.'));
    expect((await api.post(docs, { title: 'Data room', documentType: 'virtualDataRoom' }, { token })).body).toEqual(
      invalid('url', 'This field is required.'),
    );
  });
});
