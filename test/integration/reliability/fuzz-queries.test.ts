import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { lotIn } from '../../support/lots.ts';
import { assetIn } from '../../support/assets.ts';
import { useService } from '../../support/service.ts';
import { AUCTIONS, INSIDER, rectifyingAuction, tenderingInsider } from '../../support/auctions.ts';
import { expectNoServerError, fuzzParameters } from './fuzz-support.ts';

const service = useService();
const api = client(() => service.url);

/** Query strings of the listings and reads: known parameters with valid, odd and hostile values, and unknown ones. */
const value = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '1',
    '-1',
    '1000',
    '1001',
    '100000000000000000000',
    '1e3',
    '0x10',
    'NaN',
    'true',
    'false',
    'test',
    'null',
    '[]',
    '{}',
    '%',
    '%zz',
    '%00',
    '..',
    '/',
  ),
  fc.constantFrom(
    '2026-01-01T00:00:00+02:00',
    '2026-03-29T03:30:00+03:00',
    '2026-13-45T99:99:99',
    '1970-01-01',
    '9999-12-31T23:59:59.999999+02:00',
    '2026-01-01T00:00:00.000000Z',
  ),
  fc.constantFrom(
    'id,title',
    'status,dateModified,owner',
    'id',
    ',,,',
    'tokenHash',
    '__proto__',
    'constructor',
    'data.title',
    'x'.repeat(5000),
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);
const name = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      'offset',
      'limit',
      'descending',
      'opt_fields',
      'mode',
      'acc_token',
      'opt_pretty',
      'feed',
      'opt_jsonp',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', '', 'offset[]', 'ключ') },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
/** Encoded as a client would, or raw (malformed escapes included). */
const query = fc
  .array(fc.tuple(name, value, fc.boolean()), { maxLength: 5 })
  .map((pairs) =>
    pairs
      .map(([k, v, raw]) =>
        raw ? `${k}=${v.replace(/[#\s]/g, '')}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`,
      )
      .join('&'),
  );
const RUNS = 150;

describe('fuzzing the query strings of listings and reads', () => {
  const reads: string[] = [];
  beforeAll(async () => {
    const lot = await lotIn(api, 'pending');
    const bounce = await assetIn(api, 'bounce', 'pending');
    const basic = await assetIn(api, 'basic', 'pending');
    const land = await rectifyingAuction(api);
    const insider = await tenderingInsider(api);
    reads.push(
      `/api/0.1/lots/${lot.id}`,
      bounce.url,
      basic.url,
      `${AUCTIONS}/${land.id}`,
      `${INSIDER}/${insider.id}`,
      `${INSIDER}/${insider.id}/documents`,
    );
  });

  for (const listing of ['/api/0.1/lots', '/api/2.4/assets', '/api/0.1/assets', AUCTIONS, INSIDER]) {
    it(`GET ${listing}?…`, () =>
      fc.assert(
        fc.asyncProperty(query, fc.constantFrom('broker', 'concierge', 'admin'), async (q, as) => {
          const res = await api.call('GET', `${listing}?${q}`, undefined, { as });
          expectNoServerError(res, `GET ${listing}?${q}`);
          if (res.status === 200) expect(Array.isArray(res.body.data), q).toBe(true);
        }),
        fuzzParameters(RUNS),
      ));
  }

  it('GET of objects with any query string, and of ids that are not ids', () =>
    fc.assert(
      fc.asyncProperty(
        fc.nat(),
        query,
        fc.oneof(
          fc.constant(undefined),
          fc.string(),
          fc.constantFrom('0'.repeat(32), 'A'.repeat(32), '..', '%2F', '%zz'),
        ),
        async (n, q, id) => {
          let path = reads[n % reads.length];
          if (id !== undefined) path = path.replace(/[0-9a-f]{32}/, id.replace(/[/?#\s]/g, '') || 'x');
          const res = await api.call('GET', `${path}?${q}`, undefined, { as: 'broker' });
          expectNoServerError(res, `GET ${path}?${q}`);
        },
      ),
      fuzzParameters(RUNS),
    ));
});
