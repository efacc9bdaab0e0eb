import type { AssetTypeDescriptor } from '../../descriptor.ts';

/** assetType `basic` at /api/0.1/assets. */
export const basicType = {
  assetType: 'basic',
  apiBase: '/api/0.1/assets',
  items: false,
  decisions: false,
  documents: false,
  feed: 'assets.basic',
  relatedProcesses: false,
} as const satisfies AssetTypeDescriptor;
