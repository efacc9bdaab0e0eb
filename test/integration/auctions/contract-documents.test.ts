import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { clockOf, qualifyingInsider, qualifyingLandlease } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const forbidden = (description: string) => ({
  status: 'error',
  errors: [{ location: 'body', name: 'data', description }],
});
const PERMISSION = { status: 'error', errors: [{ location: 'url', name: 'permission', description: 'Forbidden' }] };
const signed = (overrides: Record<string, unknown> = {}) =>
  aDocument({ documentType: 'contractSigned', title: 'contract.pdf', ...overrides });

/** An auction of either type with its award activated: a pending contract. */
async function pendingContract(type: 'dgfInsider' | 'landlease') {
  const a =
    type === 'dgfInsider'
      ? await qualifyingInsider(api, service, clock)
      : await qualifyingLandlease(api, service, clock);
  const [award] = a.auction.awards;
  const awardUrl = `${a.url}/awards/${award.id}`;
  await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token: a.token });
  const activated = await api.patch(awardUrl, { status: 'active' }, { token: a.token });
  if (activated.status !== 200) throw new Error(JSON.stringify(activated.body));
  const [contract] = (await api.get(`${a.url}/contracts`)).body.data;
  return { ...a, contract, contractUrl: `${a.url}/contracts/${contract.id}` };
}

describe.each([
  ['dgfInsider', 'tender'],
  ['landlease', 'auction'],
] as const)('%s contract documents', (type, documentOf) => {
  it('are added, listed, read and versioned by the auction owner while the contract is pending; the contract shows them', async () => {
    const { url, token, contractUrl } = await pendingContract(type);
    const docs = `${contractUrl}/documents`;
    expect((await api.get(docs)).body.data).toEqual([]);

    const first = await api.post(docs, signed(), { token });
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toMatch(new RegExp(`${docs}/${first.body.data.id}$`));
    expect(first.body.data).toMatchObject({
      documentType: 'contractSigned',
      title: 'contract.pdf',
      documentOf,
      author: 'auction_owner',
    });
    expect(first.body.data.url).toContain(`${docs}/${first.body.data.id}?download=`);

    const second = await api.put(`${docs}/${first.body.data.id}`, signed({ title: 'contract-v2.pdf' }), { token });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({
      id: first.body.data.id,
      title: 'contract-v2.pdf',
      datePublished: first.body.data.datePublished,
      documentOf,
      author: 'auction_owner',
    });

    const one = (await api.get(`${docs}/${first.body.data.id}`)).body.data;
    expect(one.title).toBe('contract-v2.pdf');
    expect(one.previousVersions.map((v: { title: string }) => v.title)).toEqual(['contract.pdf']);
    const download = await api.get(
      `${docs}/${first.body.data.id}?download=${new URL(first.body.data.url).searchParams.get('download')}`,
    );
    expect(download.status).toBe(302);
    expect((await api.get(docs)).body.data.map((d: { title: string }) => d.title)).toEqual(['contract-v2.pdf']);
    expect((await api.get(`${docs}?all=1`)).body.data.map((d: { title: string }) => d.title)).toEqual([
      'contract.pdf',
      'contract-v2.pdf',
    ]);

    const auction = (await api.get(url)).body.data;
    expect(auction.status).toBe('active.awarded');
    expect(auction.contracts[0].documents.map((d: { title: string }) => d.title)).toEqual(['contract-v2.pdf']);
    expect((await api.get(contractUrl)).body.data.documents).toHaveLength(1);
  });

  it('refuse anyone but the auction owner, unknown contracts and documents, and a completed auction', async () => {
    const { url, token, bids, contractUrl } = await pendingContract(type);
    const docs = `${contractUrl}/documents`;
    expect((await api.post(docs, signed())).body).toEqual(PERMISSION);
    expect((await api.post(docs, signed(), { as: bids[0].as, token: bids[0].token })).body).toEqual(PERMISSION);
    expect((await api.post(docs, signed(), { as: 'broker2', token })).body).toEqual(PERMISSION);

    const unknown = await api.post(`${url}/contracts/${'0'.repeat(32)}/documents`, signed(), { token });
    expect([unknown.status, unknown.body.errors[0].name]).toEqual([404, 'contract_id']);
    expect((await api.get(`${url}/contracts/${'0'.repeat(32)}/documents`)).status).toBe(404);
    const noDoc = await api.put(`${docs}/${'0'.repeat(32)}`, signed(), { token });
    expect([noDoc.status, noDoc.body.errors[0].name]).toEqual([404, 'document_id']);
    expect((await api.get(`${docs}/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await api.post(docs, { title: 'no file' }, { token })).status).toBe(422);

    const doc = (await api.post(docs, signed(), { token })).body.data;
    await api.patch(contractUrl, { dateSigned: clock.now() }, { token });
    expect((await api.patch(contractUrl, { status: 'active' }, { token })).body.data.status).toBe('active');
    expect((await api.get(url)).body.data.status).toBe('complete');
    expect((await api.post(docs, signed(), { token })).body).toEqual(
      forbidden("Can't add document in current (complete) auction status"),
    );
    expect((await api.put(`${docs}/${doc.id}`, signed(), { token })).body).toEqual(
      forbidden("Can't update document in current (complete) auction status"),
    );
    // As upstream, the document itself is checked before the statuses.
    expect((await api.post(docs, { title: 'no file' }, { token })).status).toBe(422);
    expect((await api.get(docs)).body.data).toHaveLength(1);
  });
});

describe('contract documents of a cancelled contract', () => {
  it('are refused once the contract is cancelled by a disqualification', async () => {
    const { url, token, auction, contractUrl } = await pendingContract('dgfInsider');
    // Disqualifying the active award cancels its contract; the next award becomes pending (back to qualification).
    expect(
      (await api.patch(`${url}/awards/${auction.awards[0].id}`, { status: 'unsuccessful' }, { token })).status,
    ).toBe(200);
    expect((await api.get(url)).body.data.status).toBe('active.qualification');
    expect((await api.post(`${contractUrl}/documents`, signed(), { token })).body).toEqual(
      forbidden("Can't add document in current contract status"),
    );
  });
});

describe('dgfInsider contract document types (AC 1.2.13 contracting v3: dgfDocument)', () => {
  it('takes a documentType of the original contract model and shows it; an untyped document stays untyped; others 422', async () => {
    const { url, token, contractUrl } = await pendingContract('dgfInsider');
    const docs = `${contractUrl}/documents`;
    const annexe = await api.post(docs, signed({ documentType: 'contractAnnexe' }), { token });
    expect(annexe.status).toBe(201);
    expect(annexe.body.data.documentType).toBe('contractAnnexe');
    const { documentType: _, ...bare } = signed({ title: 'untyped.pdf' });
    const untyped = await api.post(docs, bare, { token });
    expect(untyped.status).toBe(201);
    expect(untyped.body.data).not.toHaveProperty('documentType');

    // The prolongation's type, which the recordings show from before AC d784b7d, is not a contract document's.
    const protocol = await api.post(docs, signed({ documentType: 'prolongationProtocol' }), { token });
    expect(protocol.status).toBe(422);
    expect(protocol.body.errors).toEqual([
      {
        location: 'body',
        name: 'documentType',
        description: [expect.stringMatching(/^Value must be one of \['auctionNotice', .*'contractSigned', .*\]\.$/)],
      },
    ]);
    const legal = await api.post(
      docs,
      { title: 'legal', documentType: 'x_dgfPlatformLegalDetails', url: 'http://torgi.fg.gov.ua/prozorrosale' },
      { token },
    );
    expect(legal.status).toBe(422);
    expect(legal.body.errors).toEqual([
      {
        location: 'body',
        name: 'documents',
        description: ['Disallow documents with x_dgfPlatformLegalDetails documentType'],
      },
    ]);
    // A new version is checked alike, with the type it carries over or is sent.
    const version = await api.put(`${docs}/${annexe.body.data.id}`, signed({ documentType: 'whim' }), { token });
    expect(version.status).toBe(422);
    const kept = await api.put(`${docs}/${annexe.body.data.id}`, signed({ title: 'annexe-2.pdf' }), { token });
    expect(kept.body.data).toMatchObject({ title: 'annexe-2.pdf', documentType: 'contractSigned' });

    // Shown wherever the contract is.
    const types = (await api.get(contractUrl)).body.data.documents.map(
      (d: { documentType?: string }) => d.documentType,
    );
    expect(types).toEqual(['contractSigned', undefined]);
    expect((await api.get(url)).body.data.contracts[0].documents).toHaveLength(2);
  });
});
