import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestSchemas } from '../../../functions/domain/schemas/request-schemas.ts';
import { openApiDocument, openBranches, operationId, undocumented } from '../../../functions/openapi/document.ts';
import { namedSchemas } from '../../../functions/openapi/schemas.ts';
import { routes } from '../../../functions/routes.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const apiRoutes = routes.filter((r) => r.path.startsWith('/api/'));
const doc = openApiDocument() as any;

/** Every `$ref` in a JSON value. */
const refsOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(refsOf)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsOf(v)))
      : [];

describe('the OpenAPI document', () => {
  it('describes every route: a summary, its answer, and schemas that exist (add `doc` to the route in routes.ts)', () => {
    expect(undocumented()).toEqual([]);
  });

  it('has one operation per (method, path) of routes.ts, with unique operation ids', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(apiRoutes.map((r) => `${r.method} ${r.path}`).sort());
    const ids = apiRoutes.map(operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names operations as a generated client should call them (createLot, listLandleaseAuctions)', () => {
    const id = (method: string, path: string) => doc.paths[path][method].operationId;
    expect(id('post', '/api/0.1/lots')).toBe('createLot');
    expect(id('get', '/api/2.5/auctions')).toBe('listLandleaseAuctions');
    expect(id('patch', '/api/2.4/assets/{assetId}')).toBe('updateBounceAsset');
    expect(id('post', '/api/2.3/auctions/{auctionId}/auction')).toBe('reportDgfInsiderAuctionResults');
    expect(id('get', '/api/health')).toBe('getHealth');
    for (const r of apiRoutes) expect(operationId(r), `${r.method} ${r.path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
  });

  it('gives servers, tag descriptions and real request examples; a PATCH with a schema of its own references it', () => {
    // The service that serves the document, on whatever port it runs: no fixed host nor port.
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    const post = doc.paths['/api/0.1/lots'].post.requestBody.content['application/json'];
    expect(post.example.data.lotType).toBe('basic');
    const award =
      doc.paths['/api/2.5/auctions/{auctionId}/awards/{awardId}'].patch.requestBody.content['application/json'];
    expect(award.schema.properties.data).toEqual({ $ref: '#/components/schemas/award.patch' });
  });

  it('is OpenAPI 3.1 with the key (Basic) and the owner token (acc_token, X-Access-Token) as security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes).toMatchObject({
      apiKey: { type: 'http', scheme: 'basic' },
      accessToken: { type: 'apiKey', in: 'query', name: 'acc_token' },
      accessTokenHeader: { type: 'apiKey', in: 'header', name: 'X-Access-Token' },
    });
    for (const r of apiRoutes) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      if (r.auth === 'public') expect(op.security, r.path).toEqual([]);
      else {
        // A read of public data also takes no key: `{}`, the empty requirement, first.
        const [first, ...keyed] = op.security;
        if (r.auth === 'read') expect(first, r.path).toEqual({});
        expect(
          (r.auth === 'read' ? keyed : op.security).every((s: object) => 'apiKey' in s),
          `${r.method} ${r.path}`,
        ).toBe(true);
      }
      if (r.doc?.token)
        expect(op.security.map((s: object) => Object.keys(s).sort())).toContainEqual(['accessToken', 'apiKey']);
    }
  });

  it('shows the request schemas as the validators are generated from them (closed, bounded: request-schemas.ts)', () => {
    expect(namedSchemas.lot).toBe(requestSchemas.lot);
    expect(namedSchemas['asset.bounce']).toBe(requestSchemas.bounceAsset);
    expect(namedSchemas['auction.landlease']).toBe(requestSchemas.landleaseAuction);
    // As served, its conditional parts saying they close nothing (a no-op: openBranches).
    expect(doc.components.schemas.lot).toEqual(openBranches(requestSchemas.lot));
    expect(doc.components.schemas.document).toEqual(openBranches(requestSchemas.document));
    expect(doc.components.schemas.document.allOf[0].then.unevaluatedProperties).toBe(true);
    const post = doc.paths['/api/0.1/lots'].post;
    expect(post.requestBody.content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/lot',
    });
    // A PATCH takes any part of the fields.
    const patch = doc.paths['/api/0.1/lots/{lotId}'].patch;
    expect(patch.requestBody.content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/lot.partial',
    });
    expect(doc.components.schemas['lot.partial'].required).toBeUndefined();
  });

  it('gives every JSON body route a request body, every listing the feed shape, every refusal the error envelope', () => {
    for (const r of apiRoutes.filter((r) => r.doc?.request)) {
      expect(doc.paths[r.path][r.method.toLowerCase()].requestBody, `${r.method} ${r.path}`).toBeDefined();
    }
    for (const r of apiRoutes.filter((r) => r.doc?.response === 'listing')) {
      const content = doc.paths[r.path].get.responses[200].content;
      expect(Object.values(content)[0]).toEqual({ schema: { $ref: '#/components/schemas/Listing' } });
    }
    expect(doc.components.schemas.Error.properties.status).toEqual({ const: 'error' });
    expect(doc.components.responses.Unprocessable.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });

  it('resolves every $ref', () => {
    for (const ref of new Set(refsOf(doc))) {
      const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      expect(doc.components[kind]?.[name], ref).toBeDefined();
    }
  });

  it('is generated from pure modules: the domain, the route table and node built-ins', () => {
    const dir = join(ROOT, 'functions/openapi');
    const imports = readdirSync(dir).flatMap((f) =>
      [...readFileSync(join(dir, f), 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(
        ([, spec]) => spec,
      ),
    );
    expect(imports.filter((i) => !/^(#domain\/|\.\.\/routes\.ts$|\.\/|node:)/.test(i))).toEqual([]);
  });
});
