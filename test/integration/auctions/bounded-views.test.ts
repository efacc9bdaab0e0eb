import { beforeAll, describe, expect, it } from 'vitest';
import { putApiKey } from '../../../functions/store/api-keys.ts';
import { aDocument, anInsiderBid, anOrganization, aQuestion } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, draftAuction, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);

/** What the README promises of every auction's GET (a Lambda answers at most 6 MB). */
const VIEW_BOUND = 5_000_000;

const viewBytes = async (id: string) => {
  const res = await fetch(`${service.url}${INSIDER}/${id}`);
  return Buffer.byteLength(await res.text());
};

const errorOf = (res: { body: any }) => res.body.errors?.[0]?.description;

/** One broker's key asks at most 100 KB of questions (limits.ts): the 300 KB of questions come from four. */
const ASKERS = Array.from({ length: 4 }, (_, i) => `asking-broker-${i}`);
/** One broker's key places at most 200 KB of bids and 60 KB of their documents (limits.ts): ten keys bid here. */
const BIDDERS = Array.from({ length: 10 }, (_, i) => `bidding-broker-${i}`);
beforeAll(async () => {
  for (const name of [...ASKERS, ...BIDDERS]) await putApiKey(name, { name, role: 'broker', levels: '1234' });
});

describe('an auction bounded against hostile brokers', () => {
  it('refuses questions of 340 KB with a 422: twenty of them leave the view as small as it was', async () => {
    const { id } = await tenderingInsider(api);
    const before = await viewBytes(id);
    const huge = aQuestion({ description: 'x'.repeat(340_000) });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post(`${INSIDER}/${id}/questions`, huge, { as: i % 2 ? 'broker' : 'broker2' }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 422));
    expect(errorOf(answers[0])).toEqual(['String value is too long.']); // the description's own bound comes first
    // Within every field's bound but too large as a whole: the question's own limit.
    const large = await api.post(`${INSIDER}/${id}/questions`, aQuestion({ description: 'я'.repeat(15_000) }));
    expect(large.status).toBe(422);
    expect(errorOf(large)).toBe('The question is too large: at most 20 KB as JSON');
    expect(await viewBytes(id)).toBe(before);
  });

  it('takes 300 KB of questions, keeps the rest of the 400 KB for the answers, and the view stays under 5 MB', async () => {
    const { id, token } = await tenderingInsider(api);
    const big = aQuestion({ description: 'я'.repeat(6_000) }); // about 12.5 KB as UTF-8 JSON
    const answers = [];
    for (let i = 0; i < 30; i++)
      answers.push(await api.post(`${INSIDER}/${id}/questions`, big, { as: ASKERS[i % ASKERS.length] }));
    const accepted = answers.filter((r) => r.status === 201);
    expect(accepted.length).toBeGreaterThanOrEqual(22);
    expect(accepted.length).toBeLessThan(25);
    const refused = answers.slice(accepted.length);
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));
    expect(errorOf(refused[0])).toBe(
      'The auction takes at most 300 KB of questions (the rest of its 400 KB is kept for the answers)',
    );
    // The organizer answers every one of them (about 3.8 KB each: 90 KB in all), though the brokers asked all they could.
    const answered = await Promise.all(
      accepted.map((q) =>
        api.patch(`${INSIDER}/${id}/questions/${q.body.data.id}`, { answer: 'ф'.repeat(1_900) }, { token }),
      ),
    );
    expect(answered.map((r) => r.status)).toEqual(answered.map(() => 200));
    // An answer is still a part of the questions' 400 KB: a second round of longer ones meets that bound.
    const longer = [];
    for (const q of accepted)
      longer.push(
        await api.patch(`${INSIDER}/${id}/questions/${q.body.data.id}`, { answer: 'ф'.repeat(3_500) }, { token }),
      );
    expect(longer.some((r) => r.status === 403)).toBe(true);
    expect(errorOf(longer.find((r) => r.status === 403)!)).toBe('The auction holds at most 400 KB of questions');
    const view = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(view.questions).toHaveLength(accepted.length);
    expect(view.questions.every((q: { answer?: string }) => q.answer?.length)).toBe(true);
    expect(await viewBytes(id)).toBeLessThan(VIEW_BOUND);
  });

  it("lets one broker's key ask at most 100 KB of questions on an auction; the others still ask", async () => {
    const { id } = await tenderingInsider(api);
    const question = aQuestion({ description: 'я'.repeat(4_500) }); // about 9.5 KB as UTF-8 JSON
    const answers = [];
    for (let i = 0; i < 13; i++)
      answers.push(await api.post(`${INSIDER}/${id}/questions`, question, { as: 'broker2' }));
    const accepted = answers.filter((r) => r.status === 201).length;
    expect(accepted).toBeGreaterThanOrEqual(9);
    expect(accepted).toBeLessThan(12);
    const refused = answers.slice(accepted);
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));
    expect(errorOf(refused[0])).toBe("One broker's key asks at most 100 KB of questions on an auction");
    expect((await api.post(`${INSIDER}/${id}/questions`, question, { as: 'broker' })).status).toBe(201);
    const view = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(view.questions).toHaveLength(accepted + 1);
    expect(JSON.stringify(view)).not.toContain('asker'); // the asking key is the server's, never shown
  });

  it('takes bids up to 1000 KB in all, even sent at once, and refuses the rest with a 403', async () => {
    const { id } = await tenderingInsider(api);
    // About 7.5 KB a bid (two names within their 2,000-character bound): the 1000 KB of bids take about 130 of them.
    const name = `ТОВ ${'б'.repeat(1_800)}`;
    const bid = () => anInsiderBid({ tenderers: [anOrganization({ name, name_ru: name })] });
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        api.post(`${INSIDER}/${id}/bids`, bid(), { as: BIDDERS[i % BIDDERS.length] }),
      ),
    );
    const accepted = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(accepted.length).toBeGreaterThan(120);
    expect(accepted.length).toBeLessThan(140);
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));
    expect(errorOf(refused[0])).toBe('The auction takes at most 1000 bids, of at most 1000 KB in all');
    // As stored: without the participation link each answer computes.
    const stored = accepted.reduce((sum, r) => {
      const { participationUrl: _, ...bid } = r.body.data;
      return sum + Buffer.byteLength(JSON.stringify(bid));
    }, 0);
    expect(stored).toBeLessThanOrEqual(1_000_000);
    // A bid larger than one may be is refused on its own.
    const long = 'я'.repeat(1_900); // each name within its bound, the bid over 8 KB in all
    const huge = anInsiderBid({
      tenderers: [anOrganization({ name: long, name_ru: long, name_en: 'x'.repeat(1_900) })],
    });
    const tooLarge = await api.post(`${INSIDER}/${id}/bids`, huge, { as: 'broker2' });
    expect(tooLarge.status).toBe(422);
    expect(errorOf(tooLarge)).toBe('The bid is too large: at most 8 KB as JSON');
  });

  it("lets one broker's key place at most 100 bids on an auction, even at once; the others still bid", async () => {
    const { id } = await tenderingInsider(api);
    const answers = await Promise.all(
      Array.from({ length: 110 }, () => api.post(`${INSIDER}/${id}/bids`, anInsiderBid(), { as: 'broker2' })),
    );
    const refused = answers.filter((r) => r.status !== 201);
    expect(answers.length - refused.length).toBe(100);
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));
    expect(errorOf(refused[0])).toBe(
      "One broker's key places at most 100 bids, of at most 200 KB in all, on an auction",
    );
    expect((await api.post(`${INSIDER}/${id}/bids`, anInsiderBid(), { as: 'broker' })).status).toBe(201);
    // A withdrawn bid gives its place back.
    const withdrawn = answers.find((r) => r.status === 201)!;
    const url = `${INSIDER}/${id}/bids/${withdrawn.body.data.id}`;
    expect((await api.del(url, { as: 'broker2', token: withdrawn.body.access.token })).status).toBe(200);
    expect((await api.post(`${INSIDER}/${id}/bids`, anInsiderBid(), { as: 'broker2' })).status).toBe(201);
  });

  it("lets one broker's key place at most 200 KB of bids and 60 KB of their documents; the others still bid", async () => {
    const a = await tenderingInsider(api);
    const name = `ТОВ ${'б'.repeat(1_800)}`; // about 7.5 KB a bid
    const answers = [];
    for (let i = 0; i < 30; i++)
      answers.push(
        await api.post(
          `${INSIDER}/${a.id}/bids`,
          anInsiderBid({ tenderers: [anOrganization({ name, name_ru: name })] }),
          {
            as: 'broker2',
          },
        ),
      );
    const accepted = answers.filter((r) => r.status === 201);
    expect(accepted.length).toBeGreaterThan(24);
    expect(accepted.length).toBeLessThan(28);
    expect(errorOf(answers[accepted.length])).toBe(
      "One broker's key places at most 100 bids, of at most 200 KB in all, on an auction",
    );
    const text = 'б'.repeat(1_800); // about 7.4 KB a document
    const bid = accepted[0]!.body;
    const documents = [];
    for (let i = 0; i < 10; i++)
      documents.push(
        await api.post(
          `${INSIDER}/${a.id}/bids/${bid.data.id}/documents`,
          aDocument({ title: text, description: text }),
          { as: 'broker2', token: bid.access.token },
        ),
      );
    const added = documents.filter((r) => r.status === 201).length;
    expect(added).toBeGreaterThanOrEqual(7);
    expect(added).toBeLessThanOrEqual(8);
    expect(documents[added]!.status).toBe(403);
    expect(errorOf(documents[added]!)).toBe(
      "The bids of one broker's key hold at most 60 KB of documents on an auction (their awards' too; every version counts)",
    );
    // Another broker's bidder still bids and adds its documents.
    const other = await insiderBid(api, a.id, 'broker');
    const document = await api.post(`${INSIDER}/${a.id}/bids/${other.id}/documents`, aDocument(), {
      as: 'broker',
      token: other.token,
    });
    expect(document.status).toBe(201);
  });

  it("keeps half the documents' budget from the bids: the owner's documents still fit when the bids' are full", async () => {
    const a = await tenderingInsider(api);
    const bids = await Promise.all(BIDDERS.map(async (as) => ({ ...(await insiderBid(api, a.id, as)), as })));
    // About 7.4 KB a document as stored: the bids' 300 KB take about 40 of them.
    const text = 'б'.repeat(1_800);
    const bidDocument = () => aDocument({ documentType: 'eligibilityDocuments', title: text, description: text });
    const perBid = await Promise.all(
      bids.map(async (b) => {
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          const res = await api.post(`${INSIDER}/${a.id}/bids/${b.id}/documents`, bidDocument(), {
            as: b.as,
            token: b.token,
          });
          statuses.push(res.status);
          if (res.status !== 201)
            expect(errorOf(res)).toBe(
              "The bids of an auction hold at most 300 KB of documents (their awards' too; every version counts)",
            );
        }
        return statuses;
      }),
    );
    const accepted = perBid.flat().filter((s) => s === 201).length;
    expect(accepted).toBeGreaterThan(35);
    expect(accepted).toBeLessThan(45);
    expect(
      perBid
        .flat()
        .filter((s) => s !== 201)
        .every((s) => s === 403),
    ).toBe(true);
    const notice = await api.post(`${INSIDER}/${a.id}/documents`, aDocument({ title: text, description: text }), {
      token: a.token,
    });
    expect(notice.status).toBe(201);
  });
});

describe('an object bounded as it is answered, not only as it is stored', () => {
  it('refuses a draft filled with control characters past 400 KB as JSON: its GET stays that small, pretty too', async () => {
    const { id, token } = await draftAuction(api);
    const url = `${AUCTIONS}/${id}`;
    // 20,000 characters of U+0001 take 20 KB in DynamoDB and 120 KB as JSON (`\u0001`, six bytes each).
    const controls = '\u0001'.repeat(20_000);
    const { items } = (await api.get(url)).body.data;
    const statuses: number[] = [];
    for (const patch of [
      { description: controls },
      { description_en: controls },
      { description_ru: controls },
      { items: items.map((item: object) => ({ ...item, description: controls })) },
      {
        title_en: controls.slice(0, 2_000),
        items: [...items, ...items].map((item: object) => ({ ...item, description: controls })),
      },
    ]) {
      const res = await api.patch(url, patch, { token });
      statuses.push(res.status);
      if (res.status !== 200)
        expect(res.body.errors[0].description).toBe('The object is too large: at most 400 KB as JSON');
    }
    expect(statuses).toContain(422);
    for (const query of ['', '?opt_pretty=1']) {
      // A draft: its owner's key reads it.
      const res = await fetch(`${service.url}${url}${query}`, {
        headers: { authorization: `Basic ${Buffer.from('broker:').toString('base64')}` },
      });
      expect(res.status).toBe(200);
      // The root's 400 KB as JSON, and the envelope and indentation around it.
      expect(Buffer.byteLength(await res.text()), query).toBeLessThan(420_000);
    }
  });
});
