/**
 * What the reads and the store need of an asset type, kept apart from its definition (`types/<type>/definition.ts`,
 * with its schemas and validators): the read routes import these few literals, never the definitions.
 */
export interface AssetTypeDescriptor {
  /** Its name in the API (`assetType`) and the `variant` of its routes. */
  assetType: string;
  /** The listing feed of this type (each type is listed at its own API path). */
  feed: string;
  /** It has the related processes sub-resource (its definition gives their rules). */
  relatedProcesses: boolean;
}
