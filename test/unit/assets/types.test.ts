import { describe, expect, it } from 'vitest';
import { ASSET_TYPES } from '../../../functions/domain/assets/types/catalog.ts';
import { assetType } from '../../../functions/domain/assets/types/registry.ts';

describe('asset types: descriptor and definition', () => {
  it.each(ASSET_TYPES.map((d) => [d.assetType, d] as const))(
    '%s: the definition has the descriptor name and feed, and related process rules exactly when the descriptor says',
    (name, descriptor) => {
      const definition = assetType(name);
      expect(definition.assetType).toBe(descriptor.assetType);
      expect(definition.feed).toBe(descriptor.feed);
      expect(definition.relatedProcesses !== undefined).toBe(descriptor.relatedProcesses);
    },
  );
});
