import type { AssetTypeDescriptor } from '../../descriptor.ts';

/** assetType `bounce` at /api/2.4/assets: linked to lots by related processes. */
export const bounceType = {
  assetType: 'bounce',
  feed: 'assets.bounce',
  relatedProcesses: true,
} as const satisfies AssetTypeDescriptor;
