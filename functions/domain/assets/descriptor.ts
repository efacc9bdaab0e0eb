/**
 * What the reads and the store need of an asset type, kept apart from its definition (`types/<type>/definition.ts`,
 * with its schemas and validators): the read routes import these few literals, never the definitions.
 */
export interface AssetTypeDescriptor {
  /** Its name in the API (`assetType`) and the `type` of its routes. */
  assetType: string;
  /** Where its assets are served, e.g. `/api/2.4/assets`. */
  apiBase: string;
  /** Its assets change hands with the transfers of this API version, served beside them. Absent: the lots' (0.1). */
  transfers?: { version: string };
  /** Its items are added and changed one by one (`POST .../items`, `PATCH .../items/{itemId}`). */
  items: boolean;
  /** Decisions are added one by one (`POST .../decisions`). */
  decisions: boolean;
  /** It has the documents sub-resource. */
  documents: boolean;
  /** The listing feed of this type (each type is listed at its own API path). */
  feed: string;
  /** It has the related processes sub-resource (its definition gives their rules). */
  relatedProcesses: boolean;
}
