import { afterEach, describe, expect, it } from 'vitest';
import { aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';

/**
 * Issue 35: children are listed in the order they were made (bids, documents, questions...), as the originals listed
 * them and as clients and the room rely on; not by their ids, which are random: eight of each, which listing by id
 * would put in that order only by a 1-in-40,320 chance. (Documents were already listed by their dates.)
 */
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('children in the order they were made', () => {
  it('questions, in their list and in the auction, also after one of them is answered', async () => {
    const a = await tenderingInsider(api);
    const asked: string[] = [];
    for (let i = 0; i < 8; i++)
      asked.push((await api.post(`${INSIDER}/${a.id}/questions`, aQuestion({ title: `Питання ${i}` }))).body.data.id);
    const answered = await api.patch(
      `${INSIDER}/${a.id}/questions/${asked[0]}`,
      { answer: 'Відповідь' },
      { token: a.token },
    );
    expect(answered.status).toBe(200);
    expect(ids((await api.get(`${INSIDER}/${a.id}/questions`)).body.data)).toEqual(asked);
    expect(ids((await api.get(`${INSIDER}/${a.id}`)).body.data.questions)).toEqual(asked);
  });

  it('bids, as the auction system reads them', async () => {
    const a = await tenderingInsider(api);
    const placed: string[] = [];
    for (let i = 0; i < 8; i++) placed.push((await insiderBid(api, a.id, i % 2 ? 'broker' : 'broker2')).id);
    await clock.passTo(a.auction.enquiryPeriod.endDate);
    await service.bot('chronograph');
    const module = await api.get(`${INSIDER}/${a.id}/auction`, { as: 'auction' });
    expect(module.status).toBe(200);
    expect(ids(module.body.data.bids)).toEqual(placed);
  });
});
