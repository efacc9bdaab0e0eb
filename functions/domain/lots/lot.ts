import type { Indexing } from '../kernel/aggregate.ts';
import { ID_PATTERN } from '../kernel/ids.ts';
import type { Lot as LotBody } from '../schemas/generated/request-types.ts';
import { organizationSchema } from '../protocol/parts.ts';
import type { StatusGraph } from '../kernel/status-graph.ts';
import { parseInstant } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import { BOUNDS, code, declare, list, multilingual, name, schemaOf, serverSet } from '../protocol/model.ts';

/**
 * A lot of lotType `basic` (interface.md §2.3, reference-behaviour.md §2): the fields its request schema allows
 * (generated from `lotSchema`), with the server's own fields (ids, status from the status graph, dates, owner).
 */
export type Lot = Omit<LotBody, 'status' | 'lotType'> & {
  id: string;
  lotID: string;
  lotType: 'basic';
  status: LotStatus;
  owner: string;
  date: string;
  dateModified: string;
};

export const LOT_STATUSES = [
  'draft',
  'pending',
  'verification',
  'active.salable',
  'active.awaiting',
  'active.auction',
  'pending.sold',
  'sold',
  'recomposed',
  'pending.dissolution',
  'dissolved',
  'pending.deleted',
  'deleted',
] as const;
export type LotStatus = (typeof LOT_STATUSES)[number];
export type LotRole = 'owner' | 'concierge' | 'convoy' | 'admin';

/** Upstream STATUS_CHANGES of lots.basic, transcribed (reference-behaviour.md §2.3). */
export const lotStatusGraph: StatusGraph<LotStatus, LotRole> = {
  draft: { editableBy: ['owner', 'admin'], next: { pending: ['owner', 'admin'] } },
  // `deleted`: the owner deletes a pending lot outright (lots.basic); its assets are free already
  pending: {
    editableBy: ['owner', 'admin'],
    next: {
      verification: ['owner', 'admin'],
      'pending.deleted': ['owner', 'admin'],
      'pending.dissolution': ['owner', 'admin'],
      deleted: ['owner', 'admin'],
    },
  },
  verification: {
    editableBy: ['concierge', 'admin'],
    next: { 'active.salable': ['concierge', 'admin'], pending: ['concierge', 'admin'] },
  },
  'pending.deleted': { editableBy: ['concierge', 'admin'], next: { deleted: ['concierge', 'admin'] } },
  recomposed: { editableBy: ['concierge', 'admin'], next: { pending: ['concierge', 'admin'] } },
  'active.salable': {
    editableBy: ['convoy', 'admin', 'owner'],
    next: {
      'pending.dissolution': ['owner', 'admin'],
      recomposed: ['owner', 'admin'],
      'active.awaiting': ['convoy', 'admin'],
      verification: ['admin'],
    },
  },
  'pending.dissolution': {
    editableBy: ['concierge', 'admin'],
    next: { dissolved: ['concierge', 'admin'], 'active.salable': ['admin'] },
  },
  'active.awaiting': {
    editableBy: ['convoy', 'admin'],
    next: { 'active.auction': ['convoy', 'admin'], 'active.salable': ['convoy', 'admin'] },
  },
  'active.auction': {
    editableBy: ['convoy', 'admin'],
    next: { 'active.salable': ['convoy', 'admin'], 'pending.sold': ['convoy', 'admin'] },
  },
  'pending.sold': { editableBy: ['concierge', 'admin'], next: { sold: ['concierge', 'admin'] } },
  sold: { editableBy: [], next: {} },
  dissolved: { editableBy: [], next: {} },
  deleted: { editableBy: [], next: {} },
};

/** Content the owner writes on create and edits while the lot is `pending`. */
const OWNER_CONTENT = [
  'lotIdentifier',
  'title',
  'title_en',
  'title_ru',
  'description',
  'description_en',
  'description_ru',
  'lotCustodian',
  'assets',
  'sandboxParameters',
] as const satisfies readonly LotField[];

/**
 * Fields each role may PATCH, per status (openregistry.lots.core `edit_role`, `Administrator_role`; lots.basic: the
 * convoy writes `auctions`); a known field outside them is dropped silently, an unknown one is 422 (protocol/model.ts).
 */
export function editableFields(role: LotRole, status: LotStatus): readonly LotField[] {
  switch (role) {
    case 'owner':
      return status === 'pending' ? ['status', ...OWNER_CONTENT] : ['status'];
    case 'concierge':
      return ['status'];
    case 'convoy':
      return ['status', 'auctions'];
    case 'admin':
      return ['status', 'mode'];
  }
}

/** What the owner writes on create (lots.core `create_role`: the server sets the rest). */
export const CREATE_FIELDS: readonly LotField[] = [...OWNER_CONTENT, 'lotType', 'mode', 'status'];

/** Statuses in which a bot has work on the lot (the concierge settles assets; the sparse work index lists them). */
export const CONCIERGE_STATUSES: readonly LotStatus[] = [
  'verification',
  'recomposed',
  'pending.dissolution',
  'pending.deleted',
  'pending.sold',
];

export function lotIndexing(lot: Lot): Indexing {
  return {
    feed: { name: 'lots', test: lot.mode === 'test' },
    ...(lot.status === 'draft' && { draft: true }),
    ...(CONCIERGE_STATUSES.includes(lot.status) && {
      work: { bot: 'concierge', due: parseInstant(lot.dateModified) ?? 0 },
    }),
  };
}

const idList = { type: 'string', pattern: ID_PATTERN } as const;

/** A lot as openregistry.lots.core `BaseLot`/`Lot` and lots.basic declare it. */
export const lotModel = declare({
  source: 'openregistry.lots.core models.py BaseLot, Lot; openregistry.lots.basic models.py Lot',
  fields: {
    id: serverSet,
    lotID: serverSet,
    owner: serverSet,
    owner_token: serverSet,
    transfer_token: serverSet,
    date: serverSet,
    dateModified: serverSet,
    revisions: serverSet,
    documents: serverSet,
    lotIdentifier: code(1),
    ...multilingual('title', name(1)),
    ...multilingual('description'),
    lotType: { enum: ['basic'] },
    lotCustodian: organizationSchema,
    assets: list(idList, BOUNDS.items, {
      minItems: 1,
      uniqueItems: true,
      'x-messages': { uniqueItems: 'Assets should be unique' },
    }),
    auctions: list(idList),
    mode: { enum: ['test'] },
    status: { enum: [...LOT_STATUSES] },
    sandboxParameters: name(),
  },
  required: ['lotIdentifier', 'title', 'lotCustodian', 'assets'],
});
export type LotField = keyof typeof lotModel.fields;

/** Client-writable fields of a lot, as one schema for create and for the result of a PATCH. */
export const lotSchema = schemaOf(lotModel, { only: [...CREATE_FIELDS, 'auctions'] });
export const checkLotFields: CheckOf<LotBody> = (data) => checkWith('lot', lotSchema, data);

/** Server-owned fields a client may send but never sets (upstream create role blacklist). */
export const SERVER_FIELDS = ['id', 'lotID', 'owner', 'date', 'dateModified', 'documents', 'revisions', 'doc_id'];
