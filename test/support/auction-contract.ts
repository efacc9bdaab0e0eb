import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aDocument, aQuestion } from './builders.ts';
import { clockOf, type AuctionFixture } from './auctions.ts';
import { client } from './http.ts';
import { useService } from './service.ts';

const forbidden = (description: string, name = 'data') => ({
  status: 'error',
  errors: [{ location: 'body', name, description }],
});
const PERMISSION = { status: 'error', errors: [{ location: 'url', name: 'permission', description: 'Forbidden' }] };
const UNKNOWN = '0'.repeat(32);

/**
 * What every auction type must do, whatever its procedure: one suite, run by one file per type
 * (`<type>-contract.test.ts`) against that type's fixture. What only one type does lives in that type's own files.
 */
export function auctionContract(fx: AuctionFixture) {
  const service = useService({ journal: true });
  const api = client(() => service.url);
  const clock = clockOf(service);
  // The clock only moves forward within the file: each test makes its own auctions at the moved time, and the tests
  // of one stage share one auction (set up once, the costly part) and leave it as the next test expects.
  afterAll(() => clock.reset());
  const url = (id: string) => `${fx.base}/${id}`;

  /** A tendering auction with two active bids (broker2's, then broker's), run to `active.auction`. */
  async function runningAuction() {
    const a = await fx.tendering(api, service, clock);
    const bids = [
      { ...(await fx.bid(api, a.id, 'broker2', 1)), as: 'broker2' },
      { ...(await fx.bid(api, a.id, 'broker', 2)), as: 'broker' },
    ];
    await fx.toAuction(service, clock, a.auction);
    return { ...a, bids };
  }

  describe(`${fx.type} auction: creation and reading`, () => {
    it('creates an auction with its server fields, owner token and Location, and reads it back in one request', async () => {
      const created = await api.post(fx.base, fx.body());
      expect(created.status).toBe(201);
      const { id } = created.body.data;
      expect(created.headers.get('location')).toBe(fx.location(service, url(id)));
      expect(created.body.access).toEqual(fx.access);
      expect(created.body.data).toMatchObject({ ...fx.serverFields, procurementMethodType: fx.type });
      expect(created.body.data.auctionID).toMatch(/^UA-EA-\d{4}-\d{2}-\d{2}-\d{6}$/);
      expect(created.body.data.items[0].id).toMatch(/^[0-9a-f]{32}$/);
      const read = await api.get(url(id));
      expect(read.requests).toBe(1);
      expect(read.body.data).toEqual(created.body.data);
      expect((await api.get(url(UNKNOWN))).body.errors[0]).toMatchObject({
        location: 'url',
        name: 'auction_id',
        description: 'Not Found',
      });
    });

    it('refuses another procurementMethodType (415), bots (403) and anonymous callers (401)', async () => {
      expect((await api.post(fx.base, fx.body({ procurementMethodType: fx.otherType }))).status).toBe(415);
      expect((await api.post(fx.base, fx.body(), { as: 'concierge' })).status).toBe(403);
      expect((await api.post(fx.base, fx.body(), { as: 'nobody' })).status).toBe(401);
    });

    it('keeps a draft out of the listing until its owner commits it; only the owner token commits', async () => {
      // Outside the sandbox: the feed of real auctions.
      const draft = await api.post(
        fx.base,
        fx.body({ status: 'draft', mode: undefined, procurementMethodDetails: undefined }),
      );
      expect(draft.body.data.status).toBe('draft');
      const { id } = draft.body.data;
      const token = draft.body.access.token;
      const listed = async () => {
        await service.journaled();
        return (await api.get(fx.base)).body.data.map((r: { id: string }) => r.id);
      };
      expect(await listed()).not.toContain(id);
      const commit = { status: fx.committed };
      expect((await api.patch(url(id), commit)).body).toEqual(PERMISSION);
      expect((await api.patch(url(id), commit, { token: 'f'.repeat(32) })).status).toBe(403);
      // Another broker's key, even with the token: the draft is not its own, so it answers as an unknown id does.
      const unknown = await api.patch(url('0'.repeat(32)), commit, { as: 'broker2', token });
      expect((await api.patch(url(id), commit, { as: 'broker2', token })).body).toEqual(unknown.body);
      expect((await api.get(url(id))).body.data.status).toBe('draft');
      expect((await api.patch(url(id), commit, { token })).body.data.status).toBe(fx.committed);
      expect(await listed()).toContain(id);
    });

    it('lets only the owner change the auction', async () => {
      const a = await fx.open(api);
      expect((await api.patch(url(a.id), { title: 'Чужа назва' })).body).toEqual(PERMISSION);
      expect((await api.patch(url(a.id), { title: 'Чужа назва' }, { as: 'broker2', token: a.token })).body).toEqual(
        PERMISSION,
      );
      expect((await api.get(url(a.id))).body.data.title).toBe(a.auction.title);
    });
  });

  describe(`${fx.type} auction: documents and questions`, () => {
    it('takes documents from the owner only, keeps versions, and answers 404 on unknown ones', async () => {
      const a = await fx.open(api);
      const docs = `${url(a.id)}/documents`;
      expect((await api.post(docs, aDocument())).body).toEqual(PERMISSION);
      expect((await api.post(docs, aDocument(), { as: 'broker2', token: a.token })).status).toBe(403);
      const first = await api.post(docs, aDocument({ title: 'v1.pdf' }), { token: a.token });
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({ documentOf: fx.documentOf.auction, author: 'auction_owner' });
      const second = await api.put(`${docs}/${first.body.data.id}`, aDocument({ title: 'v2.pdf' }), { token: a.token });
      expect(second.body.data).toMatchObject({
        id: first.body.data.id,
        title: 'v2.pdf',
        datePublished: first.body.data.datePublished,
      });
      const one = (await api.get(`${docs}/${first.body.data.id}`)).body.data;
      expect(one.previousVersions.map((v: { title: string }) => v.title)).toEqual(['v1.pdf']);
      expect((await api.get(docs)).body.data.map((d: { title: string }) => d.title)).toContain('v2.pdf');
      expect((await api.put(`${docs}/${UNKNOWN}`, aDocument(), { token: a.token })).status).toBe(404);
      expect((await api.get(`${docs}/${UNKNOWN}`)).body.errors[0]).toMatchObject({
        name: 'document_id',
        description: 'Not Found',
      });
    });

    it('takes questions until the enquiry period ends, answered by the owner only', async () => {
      const a = await fx.open(api);
      const question = await api.post(`${url(a.id)}/questions`, aQuestion(), { as: 'broker2' });
      expect(question.status).toBe(201);
      // Only the answer to the one who asked shows the author; every read hides it, as the originals' views did.
      expect(question.body.data.author).toEqual(aQuestion().author);
      const answerUrl = `${url(a.id)}/questions/${question.body.data.id}`;
      expect((await api.get(answerUrl)).body.data).not.toHaveProperty('author');
      expect((await api.get(url(a.id))).body.data.questions[0]).not.toHaveProperty('author');
      expect((await api.patch(answerUrl, { answer: 'Ні' }, { as: 'broker2' })).body).toEqual(PERMISSION);
      expect((await api.patch(answerUrl, { answer: 'Так' }, { token: a.token })).body.data).toMatchObject({
        answer: 'Так',
        questionOf: 'tender',
      });
      const listed = (await api.get(`${url(a.id)}/questions`)).body.data;
      expect(listed).toMatchObject([{ id: question.body.data.id, answer: 'Так' }]);
      expect(listed[0]).not.toHaveProperty('author');
      await clock.passTo(a.auction.enquiryPeriod.endDate);
      expect((await api.post(`${url(a.id)}/questions`, aQuestion())).body).toEqual(
        forbidden('Can add question only in enquiryPeriod'),
      );
    });
  });

  describe(`${fx.type} auction: bids`, () => {
    let a: Awaited<ReturnType<AuctionFixture['tendering']>>;
    beforeAll(async () => {
      a = await fx.tendering(api, service, clock);
    });

    it('gives each bid its own token: no token, a wrong one, or the auction owner token are refused', async () => {
      const bid = await fx.bid(api, a.id, 'broker2', 1);
      const bidUrl = `${url(a.id)}/bids/${bid.id}`;
      expect((await api.patch(bidUrl, { status: 'active' })).body).toEqual(PERMISSION);
      expect((await api.patch(bidUrl, { status: 'active' }, { token: a.token })).body).toEqual(PERMISSION);
      expect((await api.del(bidUrl, { as: 'broker2', token: 'f'.repeat(32) })).status).toBe(403);
      expect((await api.patch(bidUrl, { status: 'active' }, { as: 'broker', token: bid.token })).status).toBe(403);
      expect((await api.get(bidUrl, { as: 'broker2', token: bid.token })).body.data).toMatchObject({
        id: bid.id,
        status: 'active',
      });
    });

    it('hides bids from others while tendering, and lets the bidder withdraw its bid', async () => {
      const bid = await fx.bid(api, a.id, 'broker2', 2);
      const bidUrl = `${url(a.id)}/bids/${bid.id}`;
      expect((await api.get(url(a.id))).body.data).not.toHaveProperty('bids');
      expect((await api.get(bidUrl, { as: 'broker' })).body).toEqual(
        forbidden("Can't view bid in current (active.tendering) auction status"),
      );
      const withdrawn = await api.del(bidUrl, { as: 'broker2', token: bid.token });
      expect(withdrawn.status).toBe(200);
      expect(withdrawn.body.data.id).toBe(bid.id);
      expect((await api.get(bidUrl, { as: 'broker2', token: bid.token })).status).toBe(404);
    });

    it('takes no results before the auction runs', async () => {
      const res = await api.post(`${url(a.id)}/auction`, { bids: [] }, { as: 'auction' });
      expect(res.body).toEqual(forbidden("Can't report auction results in current (active.tendering) auction status"));
    });
  });

  describe(`${fx.type} auction: the auction, the award and the contract`, () => {
    let a: Awaited<ReturnType<typeof runningAuction>>;
    beforeAll(async () => {
      a = await runningAuction();
    });

    it('runs the auction with the bids hidden and each bidder on its own unguessable link', async () => {
      const read = await api.get(url(a.id));
      expect(read.requests).toBe(1); // the auction and its bids: one Query
      const running = read.body.data;
      expect(running).toMatchObject({
        status: 'active.auction',
        numberOfBids: 2,
        auctionUrl: expect.stringContaining(a.id),
      });
      expect(running).not.toHaveProperty('bids');
      if (fx.nextCheckInAuction) expect(running.next_check).toBeDefined();
      else expect(running).not.toHaveProperty('next_check');
      const [first, second] = a.bids;
      expect((await api.get(`${url(a.id)}/bids/${first.id}`, { as: 'broker' })).body).toEqual(
        forbidden("Can't view bid in current (active.auction) auction status"),
      );
      const links = await Promise.all(
        a.bids.map(
          async (b) =>
            (await api.get(`${url(a.id)}/bids/${b.id}`, { as: b.as, token: b.token })).body.data.participationUrl,
        ),
      );
      // The original links: 2.3 an Ed25519 signature (base64, quoted), 2.5 the SHA-1 hash of the secret and the bid.
      const key = running.procurementMethodType === 'dgfInsider' ? 'signature=[A-Za-z0-9%/]{86,}' : 'hash=[0-9a-f]{40}';
      for (const [i, link] of links.entries()) {
        expect(link).toMatch(new RegExp(`^${running.auctionUrl}/login\\?bidder_id=${a.bids[i].id}&${key}$`));
        // The key is made under the server secret: knowing the ids gives nothing.
        const [, secretPart] = link.split(/signature=|hash=/);
        expect(secretPart).not.toContain(a.bids[i].id);
        expect(secretPart).not.toContain(second.id);
      }
      expect(links[0]).not.toBe(links[1]);
      const module = await api.get(`${url(a.id)}/auction`, { as: 'auction' });
      expect(module.body.data.bids.map((b: { id: string }) => b.id).sort()).toEqual(a.bids.map((b) => b.id).sort());
    });

    it('takes results only from the auction system, matching the active bids', async () => {
      const results = a.bids.map((b) => ({ id: b.id, value: { amount: 100000 } }));
      const module = `${url(a.id)}/auction`;
      expect((await api.post(module, { bids: results })).status).toBe(403);
      expect((await api.get(module)).status).toBe(403);
      expect((await api.post(module, { bids: results.slice(1) }, { as: 'auction' })).body).toEqual({
        status: 'error',
        errors: [
          {
            location: 'body',
            name: 'bids',
            description: ['Number of auction results did not match the number of auction bids'],
          },
        ],
      });
      expect(
        (await api.post(module, { bids: [results[0], { ...results[1], id: 'f'.repeat(32) }] }, { as: 'auction' })).body
          .errors[0].description,
      ).toEqual(['Auction bids should be identical to the auction bids']);
      expect((await api.get(url(a.id))).body.data.status).toBe('active.auction');
    });

    it('awards the best bid, activates the award after the protocol, and completes when the contract is signed', async () => {
      const [low, best] = a.bids;
      const results = [
        { id: low.id, value: { amount: 110000 } },
        { id: best.id, value: { amount: 125000 } },
      ];
      expect((await api.post(`${url(a.id)}/auction`, { bids: results }, { as: 'auction' })).status).toBe(200);
      const qualifying = (await api.get(url(a.id))).body.data;
      expect(qualifying.status).toBe('active.qualification');
      expect(qualifying.awardPeriod).toHaveProperty('startDate');
      // The bids' documents stay theirs: none shows among the auction's own.
      expect((qualifying.documents ?? []).map((d: { documentType: string }) => d.documentType)).not.toContain(
        'eligibilityDocuments',
      );
      const award = qualifying.awards.find((w: { status: string }) => w.status === 'pending');
      expect(award).toMatchObject({ bid_id: best.id, value: { amount: 125000 } });
      expect((await api.get(`${url(a.id)}/awards`)).body.data.map((w: { id: string }) => w.id)).toContain(award.id);

      const awardUrl = `${url(a.id)}/awards/${award.id}`;
      expect((await api.patch(awardUrl, { status: 'active' }, { token: a.token })).body).toEqual(
        forbidden("Can't switch award status to (active) before auction owner load auction protocol"),
      );
      expect((await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }))).body).toEqual(
        PERMISSION,
      );
      const protocol = await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), {
        token: a.token,
      });
      expect(protocol.status).toBe(201);
      expect(protocol.body.data).toMatchObject({ author: 'auction_owner', documentOf: fx.documentOf.award });
      expect((await api.patch(awardUrl, { status: 'active' })).body).toEqual(PERMISSION);
      expect((await api.patch(awardUrl, { status: 'active' }, { token: a.token })).body.data.status).toBe('active');

      const awarded = (await api.get(url(a.id))).body.data;
      expect(awarded.status).toBe('active.awarded');
      expect(awarded.contracts).toMatchObject([
        { status: 'pending', awardID: award.id, contractID: `${awarded.auctionID}-1` },
      ]);
      expect((await api.get(`${url(a.id)}/contracts`)).body.data).toEqual(awarded.contracts);
      const contractUrl = `${url(a.id)}/contracts/${awarded.contracts[0].id}`;
      expect((await api.patch(contractUrl, { status: 'active' }, { token: a.token })).body).toEqual(
        forbidden("Can't switch contract status to (active) before dateSigned is set"),
      );
      const contractDocument = await api.post(`${contractUrl}/documents`, aDocument(), { token: a.token });
      expect(contractDocument.body.data).toMatchObject({ documentOf: fx.documentOf.contract });
      expect((await api.patch(contractUrl, { dateSigned: clock.now() })).body).toEqual(PERMISSION);
      expect((await api.patch(contractUrl, { dateSigned: clock.now() }, { token: a.token })).status).toBe(200);
      expect((await api.patch(contractUrl, { status: 'active' }, { token: a.token })).body.data.status).toBe('active');

      const done = (await api.get(url(a.id))).body.data;
      expect(done.status).toBe('complete');
      expect(done.awardPeriod).toHaveProperty('endDate');
      expect(done.bids).toHaveLength(2);
      expect(done.bids.every((b: Record<string, unknown>) => !('participationUrl' in b))).toBe(true);
      // Each bid came with its bidder's eligibility document (the fixture's bid).
      for (const b of done.bids)
        expect(b.documents).toMatchObject([{ documentOf: fx.documentOf.bid, author: 'bid_owner' }]);
      expect((await api.get(`${url(a.id)}/bids/${low.id}`, { as: 'broker' })).body.data.id).toBe(low.id);
    });
  });

  describe(`${fx.type} auction: cancellation`, () => {
    it('lets the owner add a pending cancellation, edit and activate it: the auction is cancelled for good', async () => {
      const a = await fx.tendering(api, service, clock);
      const cancellations = `${url(a.id)}/cancellations`;
      expect((await api.post(cancellations, { reason: 'Чужий' }, { as: 'broker2' })).body).toEqual(PERMISSION);
      const missing = await api.post(cancellations, { reasonType: 'x' }, { token: a.token });
      expect(missing.status).toBe(422);
      expect(missing.body.errors[0].name).toBe('reason');

      const created = await api.post(
        cancellations,
        { reason: 'Рішення власника', id: 'mine', date: '2000-01-01' },
        { token: a.token },
      );
      expect(created.status).toBe(201);
      const cancellation = created.body.data;
      expect(cancellation).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        reason: 'Рішення власника',
        status: 'pending',
        cancellationOf: 'tender',
        date: expect.any(String),
      });
      const cancellationUrl = `${cancellations}/${cancellation.id}`;
      expect(created.headers.get('location')).toBe(fx.location(service, cancellationUrl));
      const list = await api.get(cancellations);
      expect(list.requests).toBe(1);
      expect(list.body.data).toEqual([cancellation]);
      expect((await api.get(cancellationUrl)).body.data).toEqual(cancellation);
      expect((await api.get(`${cancellations}/${UNKNOWN}`)).status).toBe(404);
      expect((await api.get(url(a.id))).body.data).toMatchObject({
        status: 'active.tendering',
        cancellations: [cancellation],
        next_check: a.auction.next_check,
      });

      expect((await api.patch(cancellationUrl, { status: 'active' }, { as: 'broker2' })).body).toEqual(PERMISSION);
      expect((await api.patch(cancellationUrl, { status: 'closed' }, { token: a.token })).status).toBe(422);
      expect((await api.patch(cancellationUrl, { reason: 'Уточнено' }, { token: a.token })).body.data).toMatchObject({
        reason: 'Уточнено',
        status: 'pending',
      });
      const activated = await api.patch(cancellationUrl, { status: 'active' }, { token: a.token });
      expect(activated.body.data).toMatchObject({ id: cancellation.id, status: 'active' });
      const cancelled = (await api.get(url(a.id))).body.data;
      expect(cancelled).toMatchObject({ status: 'cancelled', cancellations: [{ status: 'active' }] });
      expect(cancelled).not.toHaveProperty('next_check');
      expect(cancelled.date).toBe(cancelled.dateModified);

      expect((await api.post(cancellations, { reason: 'Ще раз' }, { token: a.token })).body).toEqual(
        forbidden("Can't add cancellation in current (cancelled) auction status"),
      );
      expect((await api.patch(cancellationUrl, { reason: 'Пізно' }, { token: a.token })).body).toEqual(
        forbidden("Can't update cancellation in current (cancelled) auction status"),
      );
      expect((await api.patch(url(a.id), { title: 'Пізно' }, { token: a.token })).body).toEqual(
        forbidden(fx.closedForEdits('cancelled')),
      );
      // The chronograph leaves it alone.
      await clock.passTo(a.auction.enquiryPeriod.endDate);
      await service.bot('chronograph');
      expect((await api.get(url(a.id))).body.data.status).toBe('cancelled');
    });

    it("takes the owner's cancellation documents, versioned, shown on the cancellation, until the auction is cancelled", async () => {
      const a = await fx.tendering(api, service, clock);
      const cancellationUrl = `${url(a.id)}/cancellations/${
        (await api.post(`${url(a.id)}/cancellations`, { reason: 'Рішення власника' }, { token: a.token })).body.data.id
      }`;
      const documents = `${cancellationUrl}/documents`;
      expect((await api.post(documents, aDocument(), { as: 'broker2' })).body).toEqual(PERMISSION);
      expect(
        (await api.post(`${url(a.id)}/cancellations/${UNKNOWN}/documents`, aDocument(), { token: a.token })).status,
      ).toBe(404);
      const added = await api.post(documents, aDocument({ title: 'Рішення.pdf' }), { token: a.token });
      expect(added.status).toBe(201);
      const document = added.body.data;
      expect(document).toMatchObject({
        title: 'Рішення.pdf',
        author: 'auction_owner',
        documentOf: fx.documentOf.auction,
      });
      const documentUrl = `${documents}/${document.id}`;
      expect(added.headers.get('location')).toBe(fx.location(service, documentUrl));
      const patched = await api.patch(documentUrl, { description: 'Змінено' }, { token: a.token });
      expect(patched.body.data).toMatchObject({ id: document.id, title: 'Рішення.pdf', description: 'Змінено' });
      const replaced = await api.put(documentUrl, aDocument({ title: 'Рішення-2.pdf' }), { token: a.token });
      expect(replaced.body.data).toMatchObject({ id: document.id, title: 'Рішення-2.pdf', description: 'Змінено' });
      expect((await api.get(documents)).body.data).toMatchObject([{ id: document.id, title: 'Рішення-2.pdf' }]);
      expect((await api.get(`${documents}?all=1`)).body.data).toHaveLength(2);
      expect((await api.get(documentUrl)).body.data).toMatchObject({
        title: 'Рішення-2.pdf',
        previousVersions: [{ title: 'Рішення.pdf' }],
      });
      expect((await api.get(`${documents}/${UNKNOWN}`)).status).toBe(404);
      // The cancellation shows every version, as the original did; activated, it cancels the auction, and its
      // documents are closed with it.
      const activated = await api.patch(cancellationUrl, { status: 'active' }, { token: a.token });
      expect(activated.body.data.documents.map((d: { title: string }) => d.title)).toEqual([
        'Рішення.pdf',
        'Рішення-2.pdf',
      ]);
      expect((await api.get(url(a.id))).body.data.cancellations[0].documents).toHaveLength(2);
      expect((await api.post(documents, aDocument(), { token: a.token })).body).toEqual(
        forbidden("Can't add document in current (cancelled) auction status"),
      );
      expect((await api.patch(documentUrl, { description: 'Пізно' }, { token: a.token })).body).toEqual(
        forbidden("Can't update document in current (cancelled) auction status"),
      );
    });

    it('answers 404 on a cancellation of an unknown auction', async () => {
      expect((await api.post(`${url(UNKNOWN)}/cancellations`, { reason: 'x' }, { token: 'x' })).status).toBe(404);
    });
  });
}
