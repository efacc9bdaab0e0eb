import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../../functions/domain/kernel/time.ts';
import { client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

const instant = (text: string) => {
  const at = parseInstant(text);
  if (at === undefined) throw new Error(`not a date: ${text}`);
  return at;
};

/**
 * Issue 33: 16 PATCHes of one lot's title at once. Each change is dated at the attempt that commits, after the date
 * it overwrites: the answers' `dateModified` are all different, ordered as the writes committed (the answer dated
 * last is the state that stays), and the revisions record them in that order.
 */
describe('monotonic time per object', () => {
  it('leaves dateModified strictly increasing across 16 concurrent PATCHes, their answers and the final state', async () => {
    for (let round = 0; round < 3; round++) {
      const lot = await lotIn(api, 'pending');
      const titles = Array.from({ length: 16 }, (_, i) => `race ${round}.${i}`);
      const answers = await Promise.all(
        titles.map((title) => api.patch(`/api/0.1/lots/${lot.id}`, { title }, { token: lot.token })),
      );
      for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
      const dated = answers
        .map((a) => ({ title: a.body.data.title, at: instant(a.body.data.dateModified) }))
        .sort((x, y) => x.at - y.at);
      expect(new Set(dated.map((d) => d.at)).size, 'no two changes share an instant').toBe(16);
      const created = instant(lot.lot.dateModified);
      expect(dated[0].at).toBeGreaterThan(created);
      const final = (await api.get(`/api/0.1/lots/${lot.id}`)).body.data;
      expect(instant(final.dateModified), 'the final state is the change dated last').toBe(dated[15].at);
      expect(final.title).toBe(dated[15].title);
      // The log: one revision per change, in the order of their dates.
      const log = (await api.get(`/api/0.1/lots/${lot.id}/revisions?limit=100`)).body.data;
      // (the create, the move to pending, then the 16)
      expect(log).toHaveLength(18);
      const dates = log.map((r: { date: string }) => instant(r.date));
      expect(dates.slice(1)).toEqual([created, ...dated.map((d) => d.at)]);
    }
  });
});
