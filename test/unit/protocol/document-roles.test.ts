import { describe, expect, it } from 'vitest';
import { newDocument, patchedDocument } from '../../../functions/domain/documents/documents.ts';
import { UnprocessableError } from '../../../functions/domain/kernel/errors.ts';
import type { Micros } from '../../../functions/domain/kernel/time.ts';

/** Upstream `document_roles` as the declaration gives them, on a document without a file (no document service). */
const offline = { title: 'Familiarization', documentType: 'x_dgfAssetFamiliarization', accessDetails: 'Kyiv, 9-18' };
const meta = { documentOf: 'lot', now: 1_700_000_000_000_000 as Micros, files: undefined };

describe('document roles from the declaration', () => {
  it('drops the fields the server sets on create, as the create role did', () => {
    const { document } = newDocument(
      { ...offline, id: 'x', author: 'me', documentOf: 'item', previousVersions: [] },
      meta,
    );
    expect(document.id).not.toBe('x');
    expect(document.documentOf).toBe('lot');
    expect(document).not.toHaveProperty('author');
    expect(document).not.toHaveProperty('previousVersions');
  });

  it('refuses a field the model does not know as "Rogue field"', () => {
    const refused = () => newDocument({ ...offline, colour: 'red' }, meta);
    expect(refused).toThrow(UnprocessableError);
    try {
      refused();
    } catch (error) {
      expect((error as UnprocessableError).entries).toContainEqual(
        expect.objectContaining({ name: 'colour', description: ['Rogue field'] }),
      );
    }
  });

  it('drops `url` and `hash` on PATCH (the edit role), and edits the rest', () => {
    const { child } = newDocument(offline, meta);
    const id = child.place.id;
    const { document } = patchedDocument([child], id, { title: 'New', url: 'http://x.invalid/f', hash: 'md5:0' });
    expect(document.title).toBe('New');
    expect(document).not.toHaveProperty('url');
    expect(document).not.toHaveProperty('hash');
  });
});
