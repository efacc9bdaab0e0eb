import { describe, expect, it } from 'vitest';
import { AUCTION_TYPES, type AuctionTypeName } from '../../../functions/domain/auctions/catalog.ts';
import { auctionDefinitions, definitionFor } from '../../../functions/domain/auctions/registry.ts';
import * as generated from '../../../functions/domain/schemas/generated/request-validators.js';
import {
  auctionValidatorName,
  requestSchemas,
  servedSchema,
} from '../../../functions/domain/schemas/request-schemas.ts';
import type { Validator } from '../../../functions/domain/kernel/validation.ts';
import { openApiDocument } from '../../../functions/openapi/document.ts';
import { AUCTION_EXAMPLES, EXAMPLES } from '../../../functions/openapi/examples.ts';
import { auctionSchemaNames as documented, namedSchemas } from '../../../functions/openapi/schemas.ts';
import { routes } from '../../../functions/routes.ts';

/**
 * A new auction type is its folder plus one line in catalog.ts, one in registry.ts and one in openapi/examples.ts (its
 * examples, which no Lambda but the document's carries): everything else (validators, the body types, OpenAPI
 * schemas, routes) is read from its definition. These checks fail when a type is
 * listed but something it needs was not made from it (say `npm run generate` was not run).
 */
const validators = generated as unknown as Record<string, Validator>;
const TYPES = AUCTION_TYPES.map((t) => t.procurementMethodType);

describe('every auction type in the catalog', () => {
  it('has a definition, and the registry holds no other', () => {
    for (const t of TYPES) expect(definitionFor(t).procurementMethodType).toBe(t);
    expect(auctionDefinitions.map((d) => d.procurementMethodType)).toEqual(TYPES);
  });

  it.each(TYPES)('%s: each of its schemas is a generated validator, under its own name', (t) => {
    const { schemas } = definitionFor(t);
    for (const [key, schema] of Object.entries(schemas)) {
      const name = auctionValidatorName(t, key);
      expect(requestSchemas[name], name).toEqual(servedSchema(schema));
      expect(typeof validators[name], `${name} (run npm run generate)`).toBe('function');
    }
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['auction', 'auctionStored', 'bid', 'bidPatch']));
  });

  it('no two types, nor a type and another schema, share a validator name', () => {
    const auctionNames = auctionDefinitions.flatMap((d) =>
      Object.keys(d.schemas).map((key) => auctionValidatorName(d.procurementMethodType, key)),
    );
    expect(new Set(auctionNames).size).toBe(auctionNames.length);
    // Another entry of request-schemas.ts under the same name would replace the type's schema.
    for (const d of auctionDefinitions)
      for (const [key, schema] of Object.entries(d.schemas))
        expect(requestSchemas[auctionValidatorName(d.procurementMethodType, key)]).toEqual(servedSchema(schema));
  });

  it.each(TYPES)('%s: its OpenAPI schemas and examples are its own, and its validators accept its examples', (t) => {
    const { schemas } = definitionFor(t);
    const examples = AUCTION_EXAMPLES[t as AuctionTypeName];
    for (const [key, name] of Object.entries(documented(t)) as [keyof typeof examples, string][]) {
      expect(namedSchemas[name], name).toBe(requestSchemas[auctionValidatorName(t, key)]);
      expect(EXAMPLES[name], name).toBe(examples[key]);
      if (key === 'auctionStored') {
        // A change of an auction is any part of its stored fields (the document shows the schema as partial).
        const fields = Object.keys((schemas.auctionStored as { properties: object }).properties);
        expect(fields, name).toEqual(expect.arrayContaining(Object.keys(examples.auctionStored)));
        continue;
      }
      const validate = validators[auctionValidatorName(t, key)]!;
      expect(validate(structuredClone(examples[key])), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it.each(TYPES)('%s: its routes that take its bodies show its examples in the OpenAPI document', (t) => {
    const document = openApiDocument() as { paths: Record<string, Record<string, any>> };
    const names = Object.values(documented(t)) as string[];
    const taking = routes.filter((r) => r.type === t && r.doc?.request && names.includes(r.doc.request));
    // create, change, place a bid, change a bid
    expect(taking.length).toBeGreaterThanOrEqual(4);
    for (const route of taking) {
      const op = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.requestBody.content['application/json'].example, `${route.method} ${route.path}`).toEqual({
        data: EXAMPLES[route.doc!.request!],
      });
    }
  });
});
