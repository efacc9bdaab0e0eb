import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { putApiKey } from '../../../functions/store/api-keys.ts';
import { aBid, aDocument, anOrganization, aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, rectifyingAuction } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

/** Two keys that send all an auction takes, and a third broker's bidder who only does what the procedure asks. */
const [FIRST, SECOND, HONEST] = ['cornering-broker-1', 'cornering-broker-2', 'honest-broker'];
beforeAll(async () => {
  for (const name of [FIRST, SECOND, HONEST]) await putApiKey(name, { name, role: 'broker', levels: '1234' });
});

const errorOf = (res: { body: any }) => res.body.errors?.[0]?.description;
const text = 'б'.repeat(1_800);
/** About 7.6 KB as stored (two names within their 2,000-character bound). */
const largeBid = () => aBid({ tenderers: [anOrganization({ name: `ТОВ ${text}`, name_ru: `ТОВ ${text}` })] });
/** About 7.4 KB as stored. */
const largeDocument = () => aDocument({ documentType: 'eligibilityDocuments', title: text, description: text });
/** About 9.5 KB as stored. */
const largeQuestion = () => aQuestion({ description: 'я'.repeat(4_500) });

/** Sends `request` until it is refused (at most `most` times): the refusal, and how many were taken. */
async function untilRefused(most: number, request: () => Promise<{ status: number; body: any }>) {
  for (let taken = 0; taken < most; taken++) {
    const res = await request();
    if (res.status !== 201) return { taken, refused: res };
  }
  throw new Error(`never refused in ${most}`);
}

describe("an auction's budgets against two keys that take all they can", { timeout: 180_000 }, () => {
  it('leaves a third broker its bid, its eligibility documents, its activation and its questions', async () => {
    const a = await rectifyingAuction(api);
    const url = `${AUCTIONS}/${a.id}`;
    await clock.passTo(a.auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    expect((await api.get(url)).body.data.status).toBe('active.tendering');

    const refusals: string[] = [];
    for (const as of [FIRST, SECOND]) {
      // Bids as large as a bid may be, as many as the key may place, then small ones into what is left.
      const bids: { id: string; token: string }[] = [];
      const bidding = (body: () => object) => async () => {
        const res = await api.post(`${url}/bids`, body(), { as });
        if (res.status === 201) bids.push({ id: res.body.data.id, token: res.body.access.token });
        return res;
      };
      expect((await untilRefused(110, bidding(largeBid))).taken).toBeGreaterThan(20);
      const byBytes = await untilRefused(110, bidding(aBid));
      expect(byBytes.refused.status).toBe(403);
      // Documents as large as a document may be, on one of its bids, as many as the key may add.
      const [bid] = bids;
      const byDocuments = await untilRefused(60, () =>
        api.post(`${url}/bids/${bid!.id}/documents`, largeDocument(), { as, token: bid!.token }),
      );
      expect(byDocuments.refused.status).toBe(403);
      // Questions, as many as the key may ask.
      const byQuestions = await untilRefused(40, () => api.post(`${url}/questions`, largeQuestion(), { as }));
      expect(byQuestions.refused.status).toBe(403);
      refusals.push(...[byBytes, byDocuments, byQuestions].map((r) => errorOf(r.refused)));
    }

    // The third broker's bidder: registers, adds its eligibility documents, activates and asks.
    const as = HONEST;
    const created = await api.post(`${url}/bids`, aBid(), { as });
    expect(created.status).toBe(201);
    const bidUrl = `${url}/bids/${created.body.data.id}`;
    const token = created.body.access.token;
    expect((await api.patch(bidUrl, { status: 'pending' }, { as, token })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const document = await api.post(`${bidUrl}/documents`, largeDocument(), { as, token });
      expect(document.status).toBe(201);
    }
    const activated = await api.patch(bidUrl, { status: 'active', qualified: true, bidNumber: 1 }, { as, token });
    expect(activated.status).toBe(200);
    expect(activated.body.data.status).toBe('active');
    expect((await api.post(`${url}/questions`, largeQuestion(), { as })).status).toBe(201);
    // Each key met its own share (what two keys take together leaves the others room).
    expect(refusals).toEqual([
      ...[FIRST, SECOND].flatMap(() => [
        "One broker's key places at most 100 bids, of at most 200 KB in all, on an auction",
        "The bids of one broker's key hold at most 60 KB of documents on an auction (their awards' too; every version counts)",
        "One broker's key asks at most 100 KB of questions on an auction",
      ]),
    ]);
    // What the others sent is kept beside their children, never shown.
    expect(JSON.stringify((await api.get(url)).body)).not.toContain('bidder');
  });
});
