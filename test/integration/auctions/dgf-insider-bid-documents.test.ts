import { afterEach, describe, expect, it } from 'vitest';
import { aBid, aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, INSIDER, insiderBid, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const forbidden = (description: string, name = 'data', location = 'body') => ({
  status: 'error',
  errors: [{ location, name, description }],
});
const titles = (docs: { title: string }[]) => docs.map((d) => d.title);

describe('dgfInsider bid documents', () => {
  it('lets the owner of an active bid add, list and version documents while tendering; the bid shows them', async () => {
    const { id } = await tenderingInsider(api);
    const bid = await insiderBid(api, id);
    const owner = { as: 'broker2', token: bid.token };
    const docs = `${INSIDER}/${id}/bids/${bid.id}/documents`;
    expect(bid.bid.status).toBe('active');

    const added = await api.post(docs, aDocument({ title: 'licence.pdf', documentType: 'financialLicense' }), owner);
    expect(added.status).toBe(201);
    expect(added.headers.get('location')).toBe(`${service.url}${docs}/${added.body.data.id}`);
    expect(added.body.data).toMatchObject({ title: 'licence.pdf', documentOf: 'tender', author: 'bid_owner' });

    const before = (await api.get(`${INSIDER}/${id}`)).body.data.dateModified;
    const put = await api.put(
      `${docs}/${added.body.data.id}`,
      aDocument({ title: 'licence-v2.pdf', documentType: 'financialLicense' }),
      owner,
    );
    // While tendering bid documents leave the auction's dateModified alone (upstream `auction.modified = False`).
    expect((await api.get(`${INSIDER}/${id}`)).body.data.dateModified).toBe(before);
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      id: added.body.data.id,
      title: 'licence-v2.pdf',
      datePublished: added.body.data.datePublished,
    });

    const listed = await api.get(docs, owner);
    expect(listed.status).toBe(200);
    expect(titles(listed.body.data)).toEqual(['licence-v2.pdf']);
    expect(listed.requests).toBe(1);
    expect(titles((await api.get(`${docs}?all=1`, owner)).body.data)).toEqual(['licence.pdf', 'licence-v2.pdf']);
    const one = (await api.get(`${docs}/${added.body.data.id}`, owner)).body.data;
    expect(titles(one.previousVersions)).toEqual(['licence.pdf']);
    // The bid itself lists every version, as upstream.
    expect(titles((await api.get(`${INSIDER}/${id}/bids/${bid.id}`, owner)).body.data.documents)).toEqual([
      'licence.pdf',
      'licence-v2.pdf',
    ]);
  });

  it('refuses others, unknown bids and documents, the auction protocol, and reads by others while bids are hidden', async () => {
    const { id } = await tenderingInsider(api);
    const bid = await insiderBid(api, id);
    const docs = `${INSIDER}/${id}/bids/${bid.id}/documents`;
    const doc = (await api.post(docs, aDocument(), { as: 'broker2', token: bid.token })).body.data;

    expect((await api.post(docs, aDocument(), { as: 'broker' })).body).toEqual(
      forbidden('Forbidden', 'permission', 'url'),
    );
    expect((await api.post(docs, aDocument(), { as: 'broker', token: bid.token })).status).toBe(403);
    expect((await api.put(`${docs}/${doc.id}`, aDocument(), { as: 'broker' })).body).toEqual(
      forbidden('Forbidden', 'permission', 'url'),
    );
    expect(
      (await api.post(docs, aDocument({ documentType: 'auctionProtocol' }), { as: 'broker2', token: bid.token })).body,
    ).toEqual(forbidden("Can't add document with auctionProtocol documentType"));
    expect(
      (
        await api.put(`${docs}/${doc.id}`, aDocument({ documentType: 'auctionProtocol' }), {
          as: 'broker2',
          token: bid.token,
        })
      ).body,
    ).toEqual(forbidden("Can't update document with auctionProtocol documentType"));
    expect(
      (await api.put(`${docs}/${'0'.repeat(32)}`, aDocument(), { as: 'broker2', token: bid.token })).body.errors[0],
    ).toMatchObject({ name: 'document_id' });
    expect((await api.get(`${INSIDER}/${id}/bids/${'0'.repeat(32)}/documents`)).body.errors[0]).toMatchObject({
      name: 'bid_id',
      description: 'Not Found',
    });
    const bad = await api.post(docs, aDocument({ url: undefined }), { as: 'broker2', token: bid.token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ location: 'body', name: 'url', description: ['This field is required.'] }]);

    expect((await api.get(docs, { as: 'broker' })).body).toEqual(
      forbidden("Can't view bid documents in current (active.tendering) auction status"),
    );
    expect((await api.get(`${docs}/${doc.id}`, { as: 'broker' })).body).toEqual(
      forbidden("Can't view bid document in current (active.tendering) auction status"),
    );
  });

  it('takes documents only within the tender period, then from the bidder whose award is pending; everyone reads them once bids are disclosed', async () => {
    const { id, auction } = await tenderingInsider(api);
    const first = await insiderBid(api, id, 'broker2');
    const second = await insiderBid(api, id, 'broker');
    const docsOf = (b: { id: string }) => `${INSIDER}/${id}/bids/${b.id}/documents`;
    const span = `from (${auction.tenderPeriod.startDate}) to (${auction.tenderPeriod.endDate})`;

    // Past the tender period, before the chronograph looked: the auction still says tendering.
    await clock.passTo(auction.tenderPeriod.endDate);
    expect((await api.post(docsOf(first), aDocument(), { as: 'broker2', token: first.token })).body).toEqual(
      forbidden(`Document can be added only during the tendering period: ${span}.`),
    );
    await service.bot('chronograph');
    expect((await api.get(`${INSIDER}/${id}`)).body.data.status).toBe('active.auction');
    expect((await api.post(docsOf(first), aDocument(), { as: 'broker2', token: first.token })).body).toEqual(
      forbidden("Can't add document in current (active.auction) auction status"),
    );
    expect((await api.get(docsOf(first), { as: 'broker' })).body).toEqual(
      forbidden("Can't view bid documents in current (active.auction) auction status"),
    );

    // Results: the first bid wins (pending award), the second waits.
    const results = await api.post(
      `${INSIDER}/${id}/auction`,
      {
        bids: [
          { id: first.id, value: { amount: 200000 } },
          { id: second.id, value: { amount: 150000 } },
        ],
      },
      { as: 'auction' },
    );
    expect(results.body.data.status).toBe('active.qualification');
    const added = await api.post(docsOf(first), aDocument({ title: 'winner.pdf' }), {
      as: 'broker2',
      token: first.token,
    });
    expect(added.status).toBe(201);
    // In qualification a bid document changes the auction (upstream saves it modified): its dateModified moves on.
    const qualifying = (await api.get(`${INSIDER}/${id}`)).body.data;
    expect(qualifying.dateModified).toBe(added.body.data.dateModified);
    expect(qualifying.dateModified > results.body.data.dateModified).toBe(true);
    const version = await api.put(`${docsOf(first)}/${added.body.data.id}`, aDocument({ title: 'winner-v2.pdf' }), {
      as: 'broker2',
      token: first.token,
    });
    expect((await api.get(`${INSIDER}/${id}`)).body.data.dateModified).toBe(version.body.data.dateModified);
    expect((await api.post(docsOf(second), aDocument(), { as: 'broker', token: second.token })).body).toEqual(
      forbidden("Can't add document because award of bid is not in pending state"),
    );
    const disclosed = await api.get(docsOf(first), { as: 'broker' });
    expect(disclosed.status).toBe(200);
    expect(titles(disclosed.body.data)).toEqual(['winner-v2.pdf']);
    expect((await api.get(`${docsOf(first)}/${added.body.data.id}`)).body.data.title).toBe('winner-v2.pdf');
  });
});

describe('PATCH of a bid document', () => {
  it('dgfInsider: the bid owner changes the current version in place while tendering; its file stays, others are refused', async () => {
    const { id, auction } = await tenderingInsider(api);
    const bid = await insiderBid(api, id);
    const owner = { as: 'broker2', token: bid.token };
    const docs = `${INSIDER}/${id}/bids/${bid.id}/documents`;
    const doc = (await api.post(docs, aDocument({ title: 'licence.pdf', documentType: 'financialLicense' }), owner))
      .body.data;
    const before = (await api.get(`${INSIDER}/${id}`)).body.data.dateModified;

    const patched = await api.patch(
      `${docs}/${doc.id}`,
      { title: 'licence (signed).pdf', description: 'Підписана', url: 'http://elsewhere.invalid/x', id: 'x' },
      owner,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ ...doc, title: 'licence (signed).pdf', description: 'Підписана' });
    // No new version; while tendering the auction's dateModified stays.
    expect((await api.get(`${docs}?all=1`, owner)).body.data).toEqual([patched.body.data]);
    expect((await api.get(`${INSIDER}/${id}`)).body.data.dateModified).toBe(before);

    expect((await api.patch(`${docs}/${doc.id}`, { title: '' }, owner)).status).toBe(422);
    expect((await api.patch(`${docs}/${doc.id}`, { title: 'x.pdf' }, { as: 'broker', token: bid.token })).status).toBe(
      403,
    );
    expect((await api.patch(`${docs}/${doc.id}`, { title: 'x.pdf' })).status).toBe(403);
    const unknown = await api.patch(`${docs}/${'0'.repeat(32)}`, { title: 'x.pdf' }, owner);
    expect(unknown.body.errors[0]).toMatchObject({ location: 'url', name: 'document_id' });
    expect((await api.patch(`${docs}/${doc.id}`, { documentType: 'auctionProtocol' }, owner)).body).toEqual(
      forbidden("Can't update document with auctionProtocol documentType"),
    );

    await clock.passTo(auction.tenderPeriod.endDate);
    expect((await api.patch(`${docs}/${doc.id}`, { title: 'late.pdf' }, owner)).body).toEqual(
      forbidden(
        `Document can be updated only during the tendering period: from (${auction.tenderPeriod.startDate}) to (${auction.tenderPeriod.endDate}).`,
      ),
    );
    expect((await api.get(`${docs}/${doc.id}`, owner)).body.data.title).toBe('licence (signed).pdf');
  });

  it('landlease: the bid owner changes it until the bid is active', async () => {
    const { id, auction } = await rectifyingAuction(api);
    await clock.passTo(auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const bids = `${AUCTIONS}/${id}/bids`;
    const created = await api.post(bids, aBid(), { as: 'broker2' });
    const owner = { as: 'broker2', token: created.body.access.token };
    const docs = `${bids}/${created.body.data.id}/documents`;
    await api.patch(`${bids}/${created.body.data.id}`, { status: 'pending' }, owner);
    const doc = (await api.post(docs, aDocument({ title: 'e1.pdf', documentType: 'eligibilityDocuments' }), owner)).body
      .data;
    const patched = await api.patch(`${docs}/${doc.id}`, { title: 'e1 (signed).pdf' }, owner);
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ ...doc, title: 'e1 (signed).pdf' });
    await api.patch(`${bids}/${created.body.data.id}`, { status: 'active', qualified: true, bidNumber: 1 }, owner);
    expect((await api.patch(`${docs}/${doc.id}`, { title: 'late.pdf' }, owner)).body).toEqual(
      forbidden("Can't update document in current (active) bid status"),
    );
  });
});

describe('landlease bid documents', () => {
  it('lists and versions the eligibility documents of a bid until it is active', async () => {
    const { id, auction } = await rectifyingAuction(api);
    await clock.passTo(auction.rectificationPeriod.endDate);
    await service.bot('chronograph');
    const bids = `${AUCTIONS}/${id}/bids`;
    const created = await api.post(bids, aBid(), { as: 'broker2' });
    expect(created.status).toBe(201);
    const owner = { as: 'broker2', token: created.body.access.token };
    const docs = `${bids}/${created.body.data.id}/documents`;
    await api.patch(`${bids}/${created.body.data.id}`, { status: 'pending' }, owner);
    const doc = (await api.post(docs, aDocument({ title: 'e1.pdf', documentType: 'eligibilityDocuments' }), owner)).body
      .data;
    const put = await api.put(
      `${docs}/${doc.id}`,
      aDocument({ title: 'e2.pdf', documentType: 'eligibilityDocuments' }),
      owner,
    );
    expect(put.status).toBe(200);
    expect(titles((await api.get(docs, owner)).body.data)).toEqual(['e2.pdf']);
    expect(titles((await api.get(`${docs}?all=1`, owner)).body.data)).toEqual(['e1.pdf', 'e2.pdf']);
    expect((await api.get(docs, { as: 'broker' })).body).toEqual(
      forbidden("Can't view bid documents in current (active.tendering) auction status"),
    );

    const active = await api.patch(
      `${bids}/${created.body.data.id}`,
      { status: 'active', qualified: true, bidNumber: 1 },
      owner,
    );
    expect(active.body.data.status).toBe('active');
    expect(
      (await api.put(`${docs}/${doc.id}`, aDocument({ documentType: 'eligibilityDocuments' }), owner)).body,
    ).toEqual(forbidden("Can't update document in current (active) bid status"));
  });
});
