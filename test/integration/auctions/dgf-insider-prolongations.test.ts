import { afterEach, describe, expect, it } from 'vitest';
import { aDocument } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, clockOf, qualifyingInsider } from '../../support/auctions.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const read = async (path: string) => (await api.get(path)).body.data;
const errorOf = (res: { body: any }) => res.body.errors?.[0]?.description;
/** A document sent without a type, as the tutorial sent the prolongation's protocol. */
const untyped = (overrides: Record<string, unknown> = {}) => {
  const { documentType: _, ...document } = aDocument(overrides);
  return document;
};
const ms = (instant: string) => Date.parse(instant);

/** A sandbox dgfInsider auction (accelerated 1440 times) awarded: its pending contract and the owner's token. */
async function awardedInsider() {
  const { url, token, auction } = await qualifyingInsider(api, service, clock);
  const awardUrl = `${url}/awards/${auction.awards[0].id}`;
  await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token });
  expect((await api.patch(awardUrl, { status: 'active' }, { token })).status).toBe(200);
  const [contract] = (await read(url)).contracts;
  return { url, token, contract, contractUrl: `${url}/contracts/${contract.id}` };
}

const aProlongation = (overrides: Record<string, unknown> = {}) => ({
  decisionID: 'ZM-937-99-92',
  reason: 'other',
  description: 'Prolongation description',
  datePublished: new Date(Date.now() + clock.offset).toISOString(),
  ...overrides,
});

describe('dgfInsider contract prolongations (contracting v3)', () => {
  it('records a draft, takes its protocol, and applied extends the signing period: 42, then 132 working days', async () => {
    const { url, token, contract, contractUrl } = await awardedInsider();
    const prolongations = `${contractUrl}/prolongations`;
    // Only the auction owner; a known field it may not write is dropped; unknown ones, a bad reason: 422.
    expect((await api.post(prolongations, aProlongation(), { as: 'broker2' })).status).toBe(403);
    expect((await api.post(prolongations, aProlongation({ reason: 'whim' }), { token })).status).toBe(422);
    expect((await api.post(prolongations, aProlongation({ description: 'short' }), { token })).status).toBe(422);
    expect((await api.post(prolongations, aProlongation({ rogue: 1 }), { token })).status).toBe(422);
    const stale = await api.post(prolongations, aProlongation({ datePublished: '2020-01-01T00:00:00+02:00' }), {
      token,
    });
    expect(stale.status).toBe(422);
    expect(errorOf(stale)).toEqual(['datePublished must be no less on 20 days, than dateCreated']);
    const applied = await api.post(prolongations, aProlongation({ status: 'applied' }), { token });
    expect(applied.status).toBe(403);
    expect(errorOf(applied)).toBe("Can't create prolongation in active.awarded status");

    const created = await api.post(prolongations, aProlongation({ id: 'mine', documents: [] }), { token });
    expect(created.status).toBe(201);
    const first = created.body.data;
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      dateCreated: expect.any(String),
      datePublished: expect.any(String),
      decisionID: 'ZM-937-99-92',
      reason: 'other',
      description: 'Prolongation description',
      status: 'draft',
    });
    const firstUrl = `${prolongations}/${first.id}`;
    expect(created.headers.get('location')).toBe(`${service.url}${firstUrl}`);
    expect(await read(prolongations)).toEqual([first]);
    expect(await read(firstUrl)).toEqual(first);

    // Applied only with its protocol.
    const bare = await api.patch(firstUrl, { status: 'applied' }, { token });
    expect(bare.status).toBe(403);
    expect(errorOf(bare)).toBe('Prolongation must have documents to apply');
    const wrongType = await api.post(`${firstUrl}/documents`, aDocument({ documentType: 'notice' }), { token });
    expect(wrongType.status).toBe(422);
    const protocol = await api.post(`${firstUrl}/documents`, untyped({ title: 'Prolongation.doc' }), { token });
    expect(protocol.status).toBe(201);
    expect(protocol.body.data).toMatchObject({ documentType: 'prolongationProtocol', author: 'auction_owner' });
    const patchedDocument = await api.patch(
      `${firstUrl}/documents/${protocol.body.data.id}`,
      { description: 'Рішення' },
      { token },
    );
    expect(patchedDocument.body.data).toMatchObject({ description: 'Рішення', documentType: 'prolongationProtocol' });
    expect((await api.patch(firstUrl, { description: 'Prolongation, as decided' }, { token })).status).toBe(200);

    const start = ms(contract.signingPeriod.startDate);
    const before = ms(contract.signingPeriod.endDate);
    const apply = await api.patch(firstUrl, { status: 'applied' }, { token });
    expect(apply.status).toBe(200);
    expect(apply.body.data).toMatchObject({
      status: 'applied',
      description: 'Prolongation, as decided',
      documents: [{ title: 'Prolongation.doc' }],
    });
    const once = await read(url);
    const signing = once.contracts[0].signingPeriod;
    expect(signing.startDate).toBe(contract.signingPeriod.startDate);
    // 20 working days to sign became 42 (the sandbox divides each by 1440 from the start).
    const firstEnd = ms(signing.endDate);
    expect(firstEnd - start).toBeGreaterThan((before - start) * 1.8);
    expect(once.next_check).toBe(signing.endDate);
    expect(once.contracts[0].prolongations).toMatchObject([{ id: first.id, status: 'applied' }]);
    const late = await api.patch(firstUrl, { description: 'Too late to change it' }, { token });
    expect(late.status).toBe(403);
    expect(errorOf(late)).toBe("Can't patch prolongation in current applied status");

    // The second: 132 working days from the same start; there is no third.
    const second = (await api.post(prolongations, aProlongation({ decisionID: 'ZM-2' }), { token })).body.data;
    await api.post(`${prolongations}/${second.id}/documents`, untyped(), { token });
    expect((await api.patch(`${prolongations}/${second.id}`, { status: 'applied' }, { token })).status).toBe(200);
    const twice = await read(url);
    expect(ms(twice.contracts[0].signingPeriod.endDate) - start).toBeGreaterThan((firstEnd - start) * 2.8);
    const third = (await api.post(prolongations, aProlongation({ decisionID: 'ZM-3' }), { token })).body.data;
    await api.post(`${prolongations}/${third.id}/documents`, untyped({ documentType: 'prolongationProtocol' }), {
      token,
    });
    const refused = await api.patch(`${prolongations}/${third.id}`, { status: 'applied' }, { token });
    expect(refused.status).toBe(403);
    expect(errorOf(refused)).toBe('Contract can be prolongated for 2 times only.');

    // The award does not fail at the signing period the award was given: the chronograph reads the contract's.
    await clock.passTo(new Date(before + 1000).toISOString());
    await service.bot('chronograph');
    expect((await read(url)).awards[0].status).toBe('active');
    expect((await api.get(`${prolongations}/${'0'.repeat(32)}`)).status).toBe(404);
  });

  it("shows a contract's prolongations in the contract itself, on every read path, each read one DynamoDB request", async () => {
    const { url, token, contractUrl } = await awardedInsider();
    // As the original's empty list: a contract with no prolongation shows none (nor an empty list).
    const bare = await api.get(contractUrl);
    expect(bare.body.data).not.toHaveProperty('prolongations');
    const prolongations = `${contractUrl}/prolongations`;
    const draft = (await api.post(prolongations, aProlongation(), { token })).body.data;
    await api.post(`${prolongations}/${draft.id}/documents`, untyped({ title: 'Prolongation.doc' }), { token });
    const applied = (await api.patch(`${prolongations}/${draft.id}`, { status: 'applied' }, { token })).body.data;
    const second = (await api.post(prolongations, aProlongation({ decisionID: 'ZM-2' }), { token })).body.data;
    const shown = [applied, second];
    expect(shown.map((p) => p.status)).toEqual(['applied', 'draft']);
    expect(applied.documents).toEqual([expect.objectContaining({ documentType: 'prolongationProtocol' })]);

    // The contract (GET, and the owner's PATCH answer), the auction's contracts and the auction: the same list.
    const contract = await api.get(contractUrl);
    const contracts = await api.get(`${url}/contracts`);
    const auction = await api.get(url);
    for (const res of [contract, contracts, auction]) expect(res.requests).toBe(1);
    expect(contract.body.data.prolongations).toEqual(shown);
    expect(contracts.body.data[0].prolongations).toEqual(shown);
    expect(auction.body.data.contracts[0].prolongations).toEqual(shown);
    expect(contract.body.data).toEqual(auction.body.data.contracts[0]);
    const signed = await api.patch(contractUrl, { dateSigned: clock.now() }, { token });
    expect(signed.body.data.prolongations).toEqual(shown);
    // What the list holds is the prolongation as its own route shows it.
    expect(await read(prolongations)).toEqual(shown);
  });

  it('has no prolongations on landlease contracts (contracting v3.1 had none)', async () => {
    const res = await api.get(`${AUCTIONS}/${'0'.repeat(32)}/contracts/${'0'.repeat(32)}/prolongations`);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].name).not.toBe('auction_id');
  });
});
