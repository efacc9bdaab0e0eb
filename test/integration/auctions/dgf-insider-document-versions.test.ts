import { describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { INSIDER, tenderingInsider } from '../../support/auctions.ts';

const HOUR = 3_600_000;

const service = useService();
const api = client(() => service.url);
const titles = (docs: { title: string }[]) => docs.map((d) => d.title);
const LEGAL = 'Перелік та реквізити авторизованих електронних майданчиків';

describe('dgfInsider document versions', () => {
  it('lists every version in the auction view, in upload order, and the latest of each in GET /documents (?all=1: every version)', async () => {
    const { id, token } = await tenderingInsider(api);
    const docs = `${INSIDER}/${id}/documents`;
    const a = (await api.post(docs, aDocument({ title: 'a1.pdf' }), { token })).body.data;
    await api.post(docs, aDocument({ title: 'b1.pdf' }), { token });
    await api.put(`${docs}/${a.id}`, aDocument({ title: 'a2.pdf' }), { token });

    const view = await api.get(`${INSIDER}/${id}`);
    expect(titles(view.body.data.documents)).toEqual([LEGAL, 'a1.pdf', 'b1.pdf', 'a2.pdf']);
    expect(view.requests).toBe(1);
    const latest = await api.get(docs);
    expect(titles(latest.body.data)).toEqual([LEGAL, 'a2.pdf', 'b1.pdf']);
    expect(latest.requests).toBe(1);
    const all = await api.get(`${docs}?all=1`);
    expect(titles(all.body.data)).toEqual([LEGAL, 'a1.pdf', 'b1.pdf', 'a2.pdf']);
    expect(
      all.body.data.filter((d: { id: string }) => d.id === a.id).map((d: { datePublished: string }) => d.datePublished),
    ).toEqual([a.datePublished, a.datePublished]);
  });

  it("keeps a document's first version in its place when the clock of a later one is behind (insider auction-url.http)", async () => {
    const { id, token } = await tenderingInsider(api);
    const docs = `${INSIDER}/${id}/documents`;
    // The first version written by a clock an hour ahead, the second by one on time. The original dated the second
    // before the first; Agora's time per object never goes back (issue 33), so the second comes after it.
    await service.setClockOffset(HOUR);
    const first = (await api.post(docs, aDocument({ title: 'AwardCriteria.pdf' }), { token })).body.data;
    await service.setClockOffset(0);
    try {
      await api.post(docs, aDocument({ title: 'Notice.pdf' }), { token });
      const second = await api.put(`${docs}/${first.id}`, aDocument({ title: 'AwardCriteria-2.pdf' }), { token });
      expect(second.body.data.dateModified > first.dateModified).toBe(true);
      const view = (await api.get(`${INSIDER}/${id}`)).body.data;
      // The versions in the order they were made: Notice.pdf is dated after the first version's hour-ahead date.
      expect(titles(view.documents)).toEqual([LEGAL, 'AwardCriteria.pdf', 'Notice.pdf', 'AwardCriteria-2.pdf']);
      // The current version stands where its first version was made: before Notice.pdf.
      expect(titles((await api.get(docs)).body.data)).toEqual([LEGAL, 'AwardCriteria-2.pdf', 'Notice.pdf']);
    } finally {
      await service.setClockOffset(0);
    }
  });
});
