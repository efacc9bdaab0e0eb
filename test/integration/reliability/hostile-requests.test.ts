import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { aDocument, aLot, anOrganization } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { assetIn } from '../../support/assets.ts';
import { lotIn } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';
import {
  AUCTIONS,
  clockOf,
  INSIDER,
  insiderBid,
  qualifyingInsider,
  rectifyingAuction,
  tenderingInsider,
} from '../../support/auctions.ts';

/**
 * What a hostile client tried against the service (issue 15) and must not get: links built from its headers, the
 * bidders before the auction, a body read before its credential, unknown nested fields stored, an internal error text.
 */
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());
const basic = (as: string) => `Basic ${Buffer.from(`${as}:`).toString('base64')}`;

/** The headers a hostile client sends to steer absolute links (fetch cannot set Host, so node:http does it). */
const HOSTILE = {
  host: 'evil.example',
  'x-forwarded-proto': 'javascript:alert(document.domain)//',
  'x-forwarded-host': 'evil.example',
};

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request over a raw socket with exactly these headers. */
function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Raw> {
  const { port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          /* keep the text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const hostileJson = (method: string, path: string, data: unknown, token?: string, as = 'broker') =>
  raw(method, token ? `${path}?acc_token=${token}` : path, {
    headers: { ...HOSTILE, authorization: basic(as), 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  });

describe('absolute links come from the configured base URL, never from request headers', () => {
  /** Each document route: how to reach a collection that takes documents, and its owner's token. */
  const documentRoutes: {
    name: string;
    collection: () => Promise<{ path: string; token: string; as?: string; read: string; documentType?: string }>;
  }[] = [
    {
      name: 'lot documents',
      collection: async () => {
        const lot = await lotIn(api, 'pending');
        return { path: `/api/0.1/lots/${lot.id}/documents`, token: lot.token, read: `/api/0.1/lots/${lot.id}` };
      },
    },
    {
      name: 'bounce asset documents',
      collection: async () => {
        const asset = await assetIn(api, 'bounce', 'pending');
        return { path: `${asset.url}/documents`, token: asset.token, read: asset.url };
      },
    },
    {
      name: 'landlease auction documents',
      collection: async () => {
        const a = await rectifyingAuction(api);
        return { path: `${AUCTIONS}/${a.id}/documents`, token: a.token, read: `${AUCTIONS}/${a.id}` };
      },
    },
    {
      name: 'bid documents',
      collection: async () => {
        const a = await tenderingInsider(api);
        const bid = await insiderBid(api, a.id, 'broker2', { status: 'draft' });
        const url = `${INSIDER}/${a.id}/bids/${bid.id}`;
        return { path: `${url}/documents`, token: bid.token, as: 'broker2', read: url };
      },
    },
    {
      name: 'award documents',
      collection: async () => {
        const a = await qualifyingInsider(api, service, clock);
        const url = `${a.url}/awards/${a.auction.awards[0].id}`;
        return { path: `${url}/documents`, token: a.token, read: url, documentType: 'auctionProtocol' };
      },
    },
    {
      name: 'contract documents',
      collection: async () => {
        const a = await qualifyingInsider(api, service, clock);
        const awardUrl = `${a.url}/awards/${a.auction.awards[0].id}`;
        await api.post(`${awardUrl}/documents`, aDocument({ documentType: 'auctionProtocol' }), { token: a.token });
        expect((await api.patch(awardUrl, { status: 'active' }, { token: a.token })).status).toBe(200);
        const [contract] = (await api.get(`${a.url}/contracts`)).body.data;
        const url = `${a.url}/contracts/${contract.id}`;
        return { path: `${url}/documents`, token: a.token, read: url, documentType: 'contractSigned' };
      },
    },
    {
      name: 'dgfInsider auction documents',
      collection: async () => {
        const a = await tenderingInsider(api);
        return { path: `${INSIDER}/${a.id}/documents`, token: a.token, read: `${INSIDER}/${a.id}` };
      },
    },
  ];

  for (const route of documentRoutes) {
    it(`stores and shows ${route.name} links on the service's own host, whatever Host and X-Forwarded-Proto say`, async () => {
      const target = await route.collection();
      const document = () => aDocument(target.documentType ? { documentType: target.documentType } : {});
      const posted = await hostileJson('POST', target.path, document(), target.token, target.as);
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
      expect(posted.body.data.url.startsWith(`${service.url}${target.path}/${posted.body.data.id}?download=`)).toBe(
        true,
      );
      // 2.5 answers Location as a path; the others as an absolute URL on the service's own host.
      expect(String(posted.headers.location ?? '/')).toMatch(new RegExp(`^(${service.url})?/`));
      const read = await api.get(`${target.read}?acc_token=${target.token}`, { as: target.as ?? 'broker' });
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toMatch(/evil\.example|javascript:/);
      const mine = read.body.data.documents.find((d: { id: string }) => d.id === posted.body.data.id);
      expect(mine.url.startsWith(`${service.url}${target.path}/`), mine.url).toBe(true);
      if (route.name === 'lot documents' || route.name === 'landlease auction documents') {
        const put = await hostileJson(
          'PUT',
          `${target.path}/${posted.body.data.id}`,
          document(),
          target.token,
          target.as,
        );
        expect(put.status, JSON.stringify(put.body)).toBe(200);
        expect(put.body.data.url.startsWith(`${service.url}/`)).toBe(true);
      }
    });
  }

  it('builds Location and next_page from the base URL too', async () => {
    const created = await hostileJson('POST', '/api/0.1/lots', aLot());
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${service.url}/api/0.1/lots/${created.body.data.id}`);
    const listing = await raw('GET', '/api/0.1/lots', { headers: { ...HOSTILE, authorization: basic('broker') } });
    expect(listing.body.next_page.uri.startsWith(`${service.url}/api/0.1/lots?`)).toBe(true);
  });
});

describe('the auction system', () => {
  it('reads the bidders only in active.auction: 403 before, as upstream', async () => {
    const a = await tenderingInsider(api);
    await insiderBid(api, a.id);
    const early = await api.get(`${INSIDER}/${a.id}/auction`, { as: 'auction' });
    expect(early.status).toBe(403);
    expect(early.body.errors).toEqual([
      {
        location: 'body',
        name: 'data',
        description: "Can't get auction info in current (active.tendering) auction status",
      },
    ]);
    expect(JSON.stringify(early.body)).not.toContain('tenderers');
  });
});

describe('the credential comes before the body', () => {
  const LOTS = '/api/0.1/lots';
  it('answers 401 without a key whatever the body: wrong type, malformed JSON, too large', async () => {
    const wrongType = await raw('POST', LOTS, { headers: { 'content-type': 'text/plain' }, body: 'x' });
    const malformed = await raw('POST', LOTS, { headers: { 'content-type': 'application/json' }, body: '{"data": ' });
    const huge = await raw('POST', LOTS, {
      headers: { 'content-type': 'application/json' },
      body: `{"data": {"title": "${'x'.repeat(8 * 1024 * 1024)}"}}`,
    });
    for (const res of [wrongType, malformed, huge]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic/);
      expect(res.body.errors[0]).toMatchObject({ location: 'header', name: 'Authorization' });
    }
  });

  it('refuses a body larger than anything it stores before parsing it: 413 in the envelope', async () => {
    const res = await api.post(LOTS, aLot({ description: 'x'.repeat(500 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 'error', errors: [{ location: 'body', name: 'data' }] });
  });

  it('refuses deep nesting with a clear limit, never an internal error text', async () => {
    const deep = `{"data": {"title": ${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    const res = await api.call('POST', LOTS, undefined, { as: 'broker', raw: deep });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'data', description: 'JSON nested deeper than 32 levels' },
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/call stack/i);
  });
});

describe('unknown fields', () => {
  it('are refused at every level, not only at the top ("Rogue field")', async () => {
    const custodian = anOrganization();
    const rogue = { ...custodian, contactPoint: { ...custodian.contactPoint, rogue: '<img src=x onerror=alert(1)>' } };
    const res = await api.post('/api/0.1/lots', aLot({ lotCustodian: rogue }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'lotCustodian', description: { contactPoint: { rogue: ['Rogue field'] } } },
    ]);
    const inIdentifier = await api.post(
      '/api/0.1/lots',
      aLot({ lotCustodian: { ...custodian, identifier: { ...custodian.identifier, x: 1 } } }),
    );
    expect(inIdentifier.status).toBe(422);
    const listed = await api.get('/api/0.1/lots?opt_fields=lotCustodian');
    expect(JSON.stringify(listed.body)).not.toContain('onerror');
  });
});

describe('headers', () => {
  it('asks for Basic credentials on 401, and lets no cache keep an answer with a token', async () => {
    const none = await api.call('POST', '/api/0.1/lots', aLot());
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic/);
    const created = await api.post('/api/0.1/lots', aLot());
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const asOwner = await api.get(`/api/0.1/lots/${created.body.data.id}`, { token: created.body.access.token });
    expect(asOwner.headers.get('cache-control')).toBe('no-store');
  });

  it('serves the reference page with a Content Security Policy and no framing', async () => {
    const res = await fetch(`${service.url}/api/docs`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('answers 404 for a POST to an unknown path, whatever its body', async () => {
    const res = await raw('POST', '/api/0.1/nothing-here', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.status).toBe('error');
  });

  it('answers bad input to the local-only routes with a 4xx in the envelope', async () => {
    const clock = await raw('PUT', '/_local/clock', {
      headers: { 'content-type': 'application/json' },
      body: '{"offsetMs": ',
    });
    expect(clock.status).toBe(422);
    expect(clock.body.status).toBe('error');
    const text = await raw('PUT', '/_local/clock', {
      headers: { 'content-type': 'application/json' },
      body: '{"offsetMs": "soon"}',
    });
    expect(text.status).toBe(422);
    const bot = await raw('POST', '/_local/bots/nobody', { headers: { 'content-type': 'application/json' } });
    expect(bot.status).toBe(404);
    expect(bot.body.errors[0]).toMatchObject({ location: 'url', name: 'bot' });
  });

  it('refuses the local-only routes to a simple cross-site request and to a foreign Host, and serves a proper one', async () => {
    const { port } = new URL(service.url);
    const json = { 'content-type': 'application/json' };
    // A page on another site may post text/plain (or a form) without a preflight.
    const textPost = await raw('POST', '/_local/bots/chronograph', {
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(textPost.status).toBe(403);
    expect(textPost.body.errors[0]).toMatchObject({ location: 'header', name: 'local' });
    const noType = await raw('PUT', '/_local/clock', { body: '{"offsetMs": 1}' });
    expect(noType.status).toBe(403);
    // A DNS-rebinding page reaches this port under its own host name.
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`]) {
      const rebound = await raw('POST', '/_local/bots/chronograph', { headers: { ...json, host }, body: '{}' });
      expect(rebound.status, host).toBe(403);
      expect((await raw('GET', '/_local/faults', { headers: { host } })).status, host).toBe(403);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const proper = await raw('POST', '/_local/bots/chronograph', { headers: { ...json, host } });
      expect(proper.status, host).toBe(200);
      expect(proper.body.data).toMatchObject({ bot: 'chronograph' });
    }
    expect((await raw('GET', '/_local/faults')).status).toBe(200);
  });
});
