import type { AssetTypeDescriptor } from '../../descriptor.ts';

/** assetType `bounce` at /api/2.4/assets: linked to lots by related processes. */
export const bounceType = {
  assetType: 'bounce',
  apiBase: '/api/2.4/assets',
  transfers: { version: '2.4' },
  items: true,
  decisions: true,
  documents: true,
  feed: 'assets.bounce',
  relatedProcesses: true,
} as const satisfies AssetTypeDescriptor;
