import type { Indexing } from '../kernel/aggregate.ts';
import type { DocumentFields, DocumentRecord } from '../documents/documents.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import type { ObjectModel } from '../protocol/model.ts';
import type {
  BasicAsset as BasicAssetBody,
  BounceAsset as BounceAssetBody,
  BounceRelatedProcess,
} from '../schemas/generated/request-types.ts';
import type { StatusGraph } from '../kernel/status-graph.ts';
import type { Micros } from '../kernel/time.ts';

/** The server's own fields of an asset: ids, status from the status graph, dates, owner, links set by bots. */
type AssetServer<T extends string> = {
  id: string;
  assetID: string;
  assetType: T;
  status: AssetStatus;
  owner: string;
  date: string;
  dateModified: string;
  relatedLot?: string;
  rectificationPeriod?: { startDate: string; endDate: string };
  /** Bounce: links to other processes (at most one, of `type` `lot`), managed by the concierge. */
  relatedProcesses?: RelatedProcess[];
  mode?: 'test';
};
/** A bounce asset's link to another process (a lot), as stored: the request fields and its id. */
export type RelatedProcess = BounceRelatedProcess & { id: string };

/** The stored record of each asset type: the fields its request schema allows (generated) and the server's. */
export type BasicAsset = Omit<BasicAssetBody, keyof AssetServer<string>> & AssetServer<'basic'>;
export type BounceAsset = Omit<BounceAssetBody, keyof AssetServer<string>> & AssetServer<'bounce'>;
/** An asset of any type (interface.md §2.4): what GET shows, without its documents (children of the aggregate). */
export type Asset = BasicAsset | BounceAsset;

/** The items of an asset (only bounce assets have them). */
export const itemsOf = (asset: Asset | undefined): BounceAsset['items'] =>
  asset?.assetType === 'bounce' ? asset.items : undefined;
/** The decisions of an asset (only bounce assets have them). */
export const decisionsOf = (asset: Asset | undefined): BounceAsset['decisions'] =>
  asset?.assetType === 'bounce' ? asset.decisions : undefined;

export const ASSET_STATUSES = ['draft', 'pending', 'verification', 'active', 'deleted', 'complete'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];
export type AssetRole = 'owner' | 'concierge' | 'admin';

/**
 * Upstream assets.core STATUS_CHANGES, shared by every asset type (reference-behaviour.md §4.1, interface.md §3.2).
 * The concierge reaches `verification` from `pending` only: the asset of a lot under verification must be free.
 */
export const assetStatusGraph: StatusGraph<AssetStatus, AssetRole> = {
  draft: { editableBy: ['owner', 'admin'], next: { pending: ['owner', 'admin'] } },
  pending: {
    editableBy: ['owner', 'concierge', 'admin'],
    next: { deleted: ['owner', 'admin'], verification: ['concierge', 'admin'] },
  },
  verification: {
    editableBy: ['concierge', 'admin'],
    next: { active: ['concierge', 'admin'], pending: ['concierge', 'admin'] },
  },
  active: {
    editableBy: ['concierge', 'admin'],
    next: { pending: ['concierge', 'admin'], complete: ['concierge', 'admin'] },
  },
  deleted: { editableBy: [], next: {} },
  complete: { editableBy: [], next: {} },
};

/** Fields the server owns: sent by a client they are ignored (upstream create and edit roles). */
export const SERVER_FIELDS = [
  'id',
  'assetID',
  'owner',
  'date',
  'dateModified',
  'documents',
  'rectificationPeriod',
  'revisions',
  'doc_id',
  // written only through `/related_processes` (bounce), never by an asset POST or PATCH
  'relatedProcesses',
] as const;

/** Statuses in which the owner may change the asset's content (in `pending`, only during rectification). */
export const OWNER_EDIT_STATUSES: readonly AssetStatus[] = ['draft', 'pending'];

/** Fields each role may PATCH; anything else in the body is dropped silently, as upstream. */
export function editableFields(
  role: AssetRole,
  status: AssetStatus,
  ownerFields: readonly string[],
): readonly string[] {
  switch (role) {
    case 'owner':
      return OWNER_EDIT_STATUSES.includes(status) ? ['status', ...ownerFields] : ['status'];
    case 'concierge':
      return ['status', 'relatedLot'];
    case 'admin':
      return ['status', 'mode', 'relatedLot'];
  }
}

/** What a transition rule sees besides the asset: the request time and the asset's current documents. */
export interface TransitionContext {
  now: Micros;
  documents: readonly DocumentRecord[];
}

/** A guard or effect of one status change: returns the asset to save, or throws the refusal. */
export type TransitionRule = (asset: Asset, ctx: TransitionContext) => Asset;

/** The rules of a type keyed by `'<from>-><to>'`, run in order on the merged asset before it is validated. */
export type TransitionRules = Partial<Record<`${AssetStatus}->${AssetStatus}`, readonly TransitionRule[]>>;

/** A document the server adds when it creates an asset of a type. */
export type DocumentSeed = DocumentFields;

/**
 * One asset type (registered in `types/registry.ts`): the data and rules that make `bounce` and `basic` differ.
 * Commands never branch on the type name; they read its definition.
 */
export interface AssetTypeDefinition {
  assetType: string;
  /** `assetID` prefix: `UA-AR-DGF-<Kyiv date>-<n>` (bounce), `UA-<Kyiv date>-<n>` (basic); also the counter's name. */
  idPrefix: string;
  /** The listing feed of this type (each type is listed at its own API path). */
  feed: string;
  /** Accreditation level a broker needs to create one (upstream `create_accreditation`). */
  createLevel: string;
  /** The asset as the original model declares it (protocol/model.ts): what is known, and so what is rogue. */
  model: ObjectModel;
  /** Content fields the owner writes on create and PATCHes (besides `status`) in draft, and in pending during rectification. */
  ownerFields: readonly string[];
  /** Fields holding an Organization the directory can complete. */
  organizations: readonly string[];
  /**
   * Normalises and validates the client fields of an asset (on create, and the whole asset after a PATCH):
   * server ids for new items, defaults, the JSON Schema (422), then `schema_properties` of its items (422).
   * `previous` is the stored asset on PATCH (items keep their ids).
   */
  accept(fields: JsonRecord, previous?: Asset): JsonRecord;
  /** Documents the server adds at creation. */
  initialDocuments: readonly DocumentSeed[];
  /** Guards and effects of status changes, shared ones included (see rules.ts). */
  transitions: TransitionRules;
  /** The items sub-resource, for types whose items are edited one by one. */
  items?: {
    /** Validates one item after a PATCH merged into it (JSON Schema, then `schema_properties`). */
    accept(item: JsonRecord): JsonRecord;
  };
  /** The decisions sub-resource, for types whose decisions are added one by one (bounce). */
  decisions?: {
    /** Validates one new decision (422) and makes it the asset's own (`decisionOf`). */
    accept(decision: JsonRecord): JsonRecord;
  };
  /** The related processes sub-resource, for types that have one (bounce). */
  relatedProcesses?: {
    /** At most this many on one asset. */
    max: number;
    /** Validates one related process (422), with the id the caller gives it. */
    accept(process: JsonRecord, id: string): RelatedProcess;
  };
}

export function assetIndexing(asset: Asset, feed: string): Indexing {
  return { feed: { name: feed, test: asset.mode === 'test' }, ...(asset.status === 'draft' && { draft: true }) };
}
