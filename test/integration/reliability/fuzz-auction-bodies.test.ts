import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  aBid,
  aDocument,
  aLandItem,
  aLandleaseAuction,
  anInsiderAuction,
  anInsiderBid,
  anOrganization,
  aQuestion,
} from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import {
  AUCTIONS,
  clockOf,
  INSIDER,
  insiderBid,
  kyivDayIn,
  rectifyingAuction,
  SANDBOX,
  tenderingInsider,
} from '../../support/auctions.ts';
import { fuzzEndpoint, fuzzTimeout, mutated, type Target } from './fuzz-support.ts';

const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterAll(() => clock.reset());

const RUNS = 60;
const SLOW = fuzzTimeout(90_000);

const landleasePatch = () => ({
  title: 'Нова назва',
  description: 'Новий опис',
  value: { amount: 120000, currency: 'UAH' },
  items: [aLandItem()],
  lotHolder: anOrganization(),
});
const insiderPatch = () => ({
  description: 'Новий опис',
  dgfID: 'N-0000000001',
  guarantee: { amount: 800, currency: 'UAH' },
  tenderAttempts: 2,
});

interface Fixture {
  id: string;
  token: string;
  url: string;
  pk: string;
}
const fixture = (base: string, a: { id: string; token: string }): Fixture => ({
  id: a.id,
  token: a.token,
  url: `${base}/${a.id}`,
  pk: `AUCTION#${a.id}`,
});

describe('fuzzing the bodies of the auctions', () => {
  let land: Fixture;
  let insider: Fixture;
  const docs: Record<string, string> = {};
  const questions: Record<string, string> = {};
  let insiderBidOf: { id: string; token: string };
  beforeAll(async () => {
    land = fixture(AUCTIONS, await rectifyingAuction(api));
    insider = fixture(INSIDER, await tenderingInsider(api));
    for (const a of [land, insider]) {
      docs[a.id] = (await api.post(`${a.url}/documents`, aDocument(), { token: a.token })).body.data.id;
      questions[a.id] = (await api.post(`${a.url}/questions`, aQuestion(), { as: 'broker2' })).body.data.id;
    }
    insiderBidOf = await insiderBid(api, insider.id, 'broker2');
  });
  const owner =
    (a: () => Fixture, method: Target['method'], path = ''): (() => Target) =>
    () => ({ method, path: `${a().url}${path}`, token: a().token, pk: a().pk });

  it(
    'POST of auctions of both types',
    async () => {
      await fuzzEndpoint(
        api,
        () => ({ method: 'POST', path: AUCTIONS }),
        mutated(() => aLandleaseAuction(kyivDayIn(21), SANDBOX)),
        RUNS,
      );
      await fuzzEndpoint(
        api,
        () => ({ method: 'POST', path: INSIDER }),
        mutated(() => anInsiderAuction(kyivDayIn(14), SANDBOX)),
        RUNS,
      );
    },
    SLOW,
  );

  it(
    'PATCH of auctions of both types within rectification',
    async () => {
      await fuzzEndpoint(
        api,
        owner(() => land, 'PATCH'),
        mutated(landleasePatch),
        RUNS,
      );
      await fuzzEndpoint(
        api,
        owner(() => insider, 'PATCH'),
        mutated(insiderPatch),
        RUNS,
      );
    },
    SLOW,
  );

  it(
    'POST and PUT of auction documents',
    async () => {
      for (const a of [land, insider]) {
        await fuzzEndpoint(
          api,
          owner(() => a, 'POST', '/documents'),
          mutated(aDocument),
          RUNS / 2,
        );
        await fuzzEndpoint(
          api,
          owner(() => a, 'PUT', `/documents/${docs[a.id]}`),
          mutated(aDocument),
          RUNS / 2,
        );
      }
    },
    SLOW,
  );

  it(
    'POST of questions and PATCH of answers',
    async () => {
      for (const a of [land, insider]) {
        await fuzzEndpoint(
          api,
          () => ({ method: 'POST', path: `${a.url}/questions`, as: 'broker2', pk: a.pk }),
          mutated(aQuestion),
          RUNS / 2,
        );
        await fuzzEndpoint(
          api,
          owner(() => a, 'PATCH', `/questions/${questions[a.id]}`),
          mutated(() => ({ answer: 'Так' })),
          RUNS / 2,
        );
      }
    },
    SLOW,
  );

  it(
    'dgfInsider bids: POST, PATCH, documents',
    async () => {
      await fuzzEndpoint(
        api,
        () => ({ method: 'POST', path: `${insider.url}/bids`, as: 'broker2', pk: insider.pk }),
        mutated(anInsiderBid),
        RUNS,
      );
      const bid = () => ({
        method: 'PATCH' as const,
        path: `${insider.url}/bids/${insiderBidOf.id}`,
        as: 'broker2',
        token: insiderBidOf.token,
        pk: insider.pk,
      });
      await fuzzEndpoint(
        api,
        bid,
        mutated(() => ({ status: 'active', qualified: true, eligible: true, tenderers: [anOrganization()] })),
        RUNS,
      );
      await fuzzEndpoint(
        api,
        () => ({ ...bid(), method: 'POST', path: `${bid().path}/documents` }),
        mutated(() => aDocument({ documentType: 'eligibilityDocuments' })),
        RUNS / 2,
      );
    },
    SLOW,
  );

  it(
    'landlease bids in active.tendering: POST, PATCH, documents',
    async () => {
      await clock.passTo((await api.get(land.url)).body.data.rectificationPeriod.endDate);
      await service.bot('chronograph');
      // The PATCH fuzz may have changed the auction's value: a bid offers what the auction asks now.
      const value = (await api.get(land.url)).body.data.value;
      const landBid = () => aBid({ value });
      const created = await api.post(`${land.url}/bids`, landBid(), { as: 'broker2' });
      if (created.status !== 201) throw new Error(`bid: ${created.status} ${JSON.stringify(created.body)}`);
      const bidOf = { id: created.body.data.id, token: created.body.access.token };
      await fuzzEndpoint(
        api,
        () => ({ method: 'POST', path: `${land.url}/bids`, as: 'broker2', pk: land.pk }),
        mutated(landBid),
        RUNS,
      );
      const bid = () => ({
        method: 'PATCH' as const,
        path: `${land.url}/bids/${bidOf.id}`,
        as: 'broker2',
        token: bidOf.token,
        pk: land.pk,
      });
      await fuzzEndpoint(
        api,
        () => ({ ...bid(), method: 'POST', path: `${bid().path}/documents` }),
        mutated(() => aDocument({ documentType: 'eligibilityDocuments' })),
        RUNS / 2,
      );
      await fuzzEndpoint(
        api,
        bid,
        mutated(() => ({ status: 'pending', value })),
        RUNS,
      );
    },
    SLOW,
  );

  it(
    'cancellations of both types: POST and PATCH',
    async () => {
      // Fresh auctions: an active cancellation ends the auction it cancels.
      for (const a of [
        fixture(AUCTIONS, await rectifyingAuction(api)),
        fixture(INSIDER, await tenderingInsider(api)),
      ]) {
        const created = await api.post(`${a.url}/cancellations`, { reason: 'Рішення органу' }, { token: a.token });
        if (created.status !== 201) throw new Error(`cancellation: ${created.status} ${JSON.stringify(created.body)}`);
        await fuzzEndpoint(
          api,
          owner(() => a, 'PATCH', `/cancellations/${created.body.data.id}`),
          mutated(() => ({ reason: 'Інше рішення' })),
          RUNS / 2,
        );
        await fuzzEndpoint(
          api,
          owner(() => a, 'POST', '/cancellations'),
          mutated(() => ({ reason: 'Рішення органу' })),
          RUNS / 2,
        );
      }
    },
    SLOW,
  );

  it(
    'dgfInsider auction results, awards and contracts',
    async () => {
      const auction = await tenderingInsider(api);
      const a = fixture(INSIDER, auction);
      const bids = [await insiderBid(api, a.id, 'broker2'), await insiderBid(api, a.id, 'broker')];
      await clock.passTo(auction.auction.enquiryPeriod.endDate);
      await service.bot('chronograph');
      const results = () => ({ bids: bids.map((b, i) => ({ id: b.id, value: { amount: 150000 - i * 10000 } })) });
      await fuzzEndpoint(
        api,
        () => ({ method: 'POST', path: `${a.url}/auction`, as: 'auction', pk: a.pk }),
        mutated(results),
        RUNS,
      );
      await api.post(`${a.url}/auction`, results(), { as: 'auction' });
      const award = (await api.get(a.url)).body.data.awards?.[0];
      if (!award) throw new Error('no award after the results');
      await fuzzEndpoint(
        api,
        owner(() => a, 'POST', `/awards/${award.id}/documents`),
        mutated(() => aDocument({ documentType: 'auctionProtocol' })),
        RUNS / 2,
      );
      const awardDoc = (
        await api.post(`${a.url}/awards/${award.id}/documents`, aDocument({ documentType: 'auctionProtocol' }), {
          token: a.token,
        })
      ).body.data.id;
      await fuzzEndpoint(
        api,
        owner(() => a, 'PUT', `/awards/${award.id}/documents/${awardDoc}`),
        mutated(() => aDocument({ documentType: 'auctionProtocol' })),
        RUNS / 2,
      );
      await fuzzEndpoint(
        api,
        owner(() => a, 'PATCH', `/awards/${award.id}`),
        mutated(() => ({ status: 'active' })),
        RUNS,
      );
      await api.patch(`${a.url}/awards/${award.id}`, { status: 'active' }, { token: a.token });
      const contract = (await api.get(a.url)).body.data.contracts?.[0];
      if (!contract) throw new Error('no contract after the award');
      const contractDocs = `/contracts/${contract.id}/documents`;
      await fuzzEndpoint(
        api,
        owner(() => a, 'POST', contractDocs),
        mutated(() => aDocument({ documentType: 'contractSigned' })),
        RUNS / 2,
      );
      const contractDoc = (
        await api.post(`${a.url}${contractDocs}`, aDocument({ documentType: 'contractSigned' }), { token: a.token })
      ).body.data.id;
      await fuzzEndpoint(
        api,
        owner(() => a, 'PUT', `${contractDocs}/${contractDoc}`),
        mutated(() => aDocument({ documentType: 'contractSigned' })),
        RUNS / 2,
      );
      await fuzzEndpoint(
        api,
        owner(() => a, 'PATCH', `/contracts/${contract.id}`),
        mutated(() => ({ dateSigned: clock.now() })),
        RUNS,
      );
    },
    SLOW,
  );
});
