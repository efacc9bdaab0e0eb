import { describe, expect, it } from 'vitest';
import { UnprocessableError } from '../../../functions/domain/kernel/errors.ts';
import { checkWith, type ValidatorName } from '../../../functions/domain/kernel/validation.ts';

/**
 * The request schemas are served closed (unknown fields refused at every depth) and bounded, as copies: the
 * domain's schemas stay as declared. Imported lazily, so that the declared schemas are read before anything that
 * serves them is loaded (each test file gets fresh modules).
 */
const domainSchemas = async (): Promise<Record<string, any>> => {
  const [lots, documents, basic, bounce, registry, subscriptions] = await Promise.all([
    import('../../../functions/domain/lots/lot.ts'),
    import('../../../functions/domain/documents/documents.ts'),
    import('../../../functions/domain/assets/types/basic/definition.ts'),
    import('../../../functions/domain/assets/types/bounce/definition.ts'),
    import('../../../functions/domain/auctions/registry.ts'),
    import('../../../functions/domain/webhooks/subscription.ts'),
  ]);
  return {
    lot: lots.lotSchema,
    document: documents.documentSchema,
    basicAsset: basic.assetSchema,
    bounceAsset: bounce.assetSchema,
    bounceItem: bounce.itemSchema,
    subscription: subscriptions.subscriptionSchema,
    ...Object.fromEntries(registry.auctionDefinitions.map((d) => [d.procurementMethodType, d.schemas])),
  };
};

function entriesOf(name: ValidatorName, schema: object, data: unknown) {
  try {
    checkWith(name, schema, data);
  } catch (error) {
    if (error instanceof UnprocessableError) return error.entries;
    throw error;
  }
  throw new Error('expected a 422');
}

describe('the request schemas as served', () => {
  it("leave the domain's schemas as declared: no module changes another's objects on import", async () => {
    const declared = await domainSchemas();
    const before = structuredClone(declared);
    const { requestSchemas } = await import('../../../functions/domain/schemas/request-schemas.ts');
    const { openApiDocument } = await import('../../../functions/openapi/document.ts');
    openApiDocument();
    expect(declared).toEqual(before);
    // The landlease auction's item classification is declared open; only its served copy is closed.
    const served = requestSchemas.landleaseAuction as any;
    expect(served.properties.items.items.properties.classification.additionalProperties).toBe(false);
    expect(declared.landlease.auction.properties.items.items.properties.classification).not.toHaveProperty(
      'additionalProperties',
    );
  });

  it('refuse a field the model does not know, at any depth, as "Rogue field"', async () => {
    const { requestSchemas } = await import('../../../functions/domain/schemas/request-schemas.ts');
    const schema = requestSchemas.landleaseAuction!;
    const item = { classification: { scheme: 'CAV-PS', id: '06110000-6', description: 'x', rogue: 1 } };
    const entries = entriesOf('landleaseAuction', schema, { rogue: 1, items: [item] });
    expect(entries).toContainEqual({ location: 'body', name: 'rogue', description: ['Rogue field'] });
    expect(entries).toContainEqual({
      location: 'body',
      name: 'items',
      description: [expect.objectContaining({ classification: { rogue: ['Rogue field'] } })],
    });
  });

  it('are what the OpenAPI document shows: closed at every depth, every string and list bounded', async () => {
    const { requestSchemas } = await import('../../../functions/domain/schemas/request-schemas.ts');
    const { openApiDocument, openBranches } = await import('../../../functions/openapi/document.ts');
    const shown = (openApiDocument() as any).components.schemas;
    // Their conditional parts say they close nothing (`unevaluatedProperties: true`, a no-op): as served otherwise.
    expect(shown['auction.landlease']).toEqual(openBranches(requestSchemas.landleaseAuction));
    expect(shown.lot).toEqual(openBranches(requestSchemas.lot));
    expect(shown['asset.bounce']).toEqual(openBranches(requestSchemas.bounceAsset));
    const classification = shown['auction.landlease'].properties.items.items.properties.classification;
    expect(classification.additionalProperties).toBe(false);
    expect(classification.properties.description.maxLength).toEqual(expect.any(Number));
  });
});
