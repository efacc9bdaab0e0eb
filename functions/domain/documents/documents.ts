import type { FromSchema } from 'json-schema-to-ts';
import { childrenWhere, type Child, type ChildOwner, type ChildPlace } from '../kernel/aggregate.ts';
import { NotFoundError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { isOneOf, omit, type JsonRecord } from '../kernel/objects.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';
import { checkWith, type CheckOf } from '../kernel/validation.ts';
import type { Document as DocumentBody } from '../schemas/generated/request-types.ts';
import { checkDocumentUrl, requireFiles, temporaryUrl, type DocumentContext } from './docservice.ts';
import { declare, fieldsOf, multilingual, schemaOf, serverSet, writable } from '../protocol/model.ts';

/**
 * Documents of every registry (lots, assets, auctions, bids, awards, contracts): the input rules, versions kept as
 * children `DOC#<id>#<version>` of the aggregate, `previousVersions`, and the display order of illustrations.
 */
export type DocumentRecord = DocumentFields & {
  id: string;
  documentOf: string;
  /** Who added it (`auction_owner`, `bid_owner`, ...); absent where upstream sets none (lot and asset documents). */
  author?: string;
  datePublished: string;
  dateModified: string;
  previousVersions?: DocumentRecord[];
};

const documentProperties = {
  ...multilingual('title', { type: 'string', minLength: 1 }),
  ...multilingual('description'),
  url: { type: 'string', format: 'uri' },
  format: { type: 'string', pattern: '^[-\\w.+]+/[-\\w.+]+$' },
  hash: {
    type: 'string',
    pattern: '^md5:[0-9a-f]{32}$',
    'x-messages': {
      pattern: "Hash type is not supported or hash value doesn't match the pattern md5:<32 hex characters>.",
    },
  },
  documentType: { type: 'string', minLength: 1 },
  index: { type: 'integer', minimum: 0 },
  language: { type: 'string' },
  relatedItem: { type: 'string' },
  accessDetails: { type: 'string' },
} as const;

/**
 * The document of the auctions and the registries (issue 22): openprocurement.api `BaseDocument` (models/ocds.py)
 * with the registries' `LokiDocument` additions (models/registry_models.py: `index`, `accessDetails`, `url` and `format`
 * optional for offline and link-only types), which the dgf auctions' Document has too.
 */
export const documentModel = declare({
  source:
    'openprocurement.api@ea_core_master src/openprocurement/api/models/ocds.py BaseDocument + models/registry_models.py LokiDocument',
  fields: {
    ...documentProperties,
    id: serverSet,
    author: serverSet,
    documentOf: serverSet,
    datePublished: serverSet,
    dateModified: serverSet,
    previousVersions: serverSet,
  },
  ours: {
    previousVersions:
      "the older versions in one document's GET (upstream's view built the same list): known so that a client resending a document it read is not refused",
  },
  required: ['title'],
});

/**
 * A lot's document: openprocurement.api `BaseDocument` (models/ocds.py, the `Document` openregistry.lots.core's Lot
 * lists). Agora's lots share the registries' document rules, so `index` and `accessDetails` are ours here.
 */
export const lotDocumentModel = declare({
  ...documentModel,
  source:
    'openprocurement.api@ea_core_master src/openprocurement/api/models/ocds.py BaseDocument (openregistry.lots.core Lot.documents)',
  ours: {
    ...documentModel.ours,
    index: 'the order of illustrations, as asset and auction documents have it (LokiDocument); a lot shows them alike',
    accessDetails:
      'where to see the asset for an offline document (LokiDocument), so a lot takes the same types an asset does',
  },
});

/**
 * Upstream `document_roles` (models/roles.py): create (POST and PUT) writes all but `id`, `datePublished`,
 * `dateModified` and `author`; edit (PATCH) neither `url` nor `hash` too. `documentOf` (writable upstream, one of
 * two values) is set by the server from the route, and the view's `previousVersions` is never written.
 */
const SERVER_SET = ['id', 'author', 'documentOf', 'datePublished', 'dateModified', 'previousVersions'] as const;
const CREATE_FIELDS = fieldsOf(documentModel).filter((f) => !isOneOf(SERVER_SET, f));
const EDIT_FIELDS = CREATE_FIELDS.filter((f) => f !== 'url' && f !== 'hash');

/** A document's client fields, typed from the properties its validator checks (the type rules below only require more). */
export type DocumentFields = FromSchema<{
  type: 'object';
  additionalProperties: false;
  required: ['title'];
  properties: typeof documentProperties;
}>;

/**
 * Upstream DOCUMENT_TYPE_OFFLINE: no file, only where and when to see the asset (`accessDetails`); and
 * DOCUMENT_TYPE_URL_ONLY: a plain link. Neither goes through the document service.
 */
const OFFLINE_TYPES = ['x_dgfAssetFamiliarization'];
/** What upstream answered as the `format` of an offline document (the insider recording shows it). */
const OFFLINE_FORMAT = 'offline/on-site-examination';
const URL_ONLY_TYPES = ['virtualDataRoom', 'x_dgfPublicAssetCertificate', 'x_dgfPlatformLegalDetails'];

const ofType = (types: string[]) => ({ required: ['documentType'], properties: { documentType: { enum: types } } });
const notRequired = { not: {}, 'x-messages': { not: 'This field is not required.' } };

/**
 * The upstream dgf Document validators (`validate_url`, `validate_hash`, `validate_format`, `validate_accessDetails`):
 * an offline document needs `accessDetails` and must not carry `url` or `hash`; a link needs `url` and must not carry
 * `hash` or `format`; every other document is a file: `url`, `format` and `hash` required.
 */
export const documentSchema = {
  ...schemaOf(documentModel, { only: CREATE_FIELDS }),
  allOf: [
    {
      if: ofType(OFFLINE_TYPES),
      then: {
        required: ['accessDetails'],
        properties: { accessDetails: documentProperties.accessDetails, url: notRequired, hash: notRequired },
      },
    },
    {
      if: ofType(URL_ONLY_TYPES),
      then: { required: ['url'], properties: { url: documentProperties.url, hash: notRequired, format: notRequired } },
    },
    {
      if: ofType([...OFFLINE_TYPES, ...URL_ONLY_TYPES]),
      else: {
        required: ['url', 'format', 'hash'],
        properties: { url: documentProperties.url, format: documentProperties.format, hash: documentProperties.hash },
      },
    },
  ],
};
const checkNew: CheckOf<DocumentBody> = (data) => checkWith('document', documentSchema, data);

export const DOC = 'DOC';

/** Types whose `url` is a plain link or that have no file at all: no document service checks. */
const WITHOUT_FILE = new Set([...OFFLINE_TYPES, ...URL_ONLY_TYPES]);

/** The same link: stored as a path (`/api/...`), answered and resent absolute (`<base>/api/...`). */
/** A previous version without a link (an offline document) has no file to keep. */
const sameLink = (sent: unknown, stored: string | undefined, files: DocumentContext | undefined) =>
  stored !== undefined && (sent === stored || (stored.startsWith('/') && sent === `${files?.baseUrl ?? ''}${stored}`));

/**
 * A document's file: its `url` must come from the document service, signed for its `hash`; it is stored as the API's
 * own link, the path `<collection>/<id>?download=<key>` (made absolute when answered). A version that resends its
 * previous `url` and `hash` keeps the file.
 */
function withFile<B extends JsonRecord>(
  body: B,
  id: string,
  files: DocumentContext | undefined,
  previous?: DocumentRecord,
): B {
  const documentType = typeof body.documentType === 'string' ? body.documentType : '';
  if (OFFLINE_TYPES.includes(documentType)) return { ...body, format: OFFLINE_FORMAT };
  if (WITHOUT_FILE.has(documentType)) return body;
  if (previous && sameLink(body.url, previous.url, files) && body.hash === previous.hash)
    return { ...body, url: previous.url };
  const ctx = requireFiles(files);
  const key = checkDocumentUrl(
    ctx.keyring,
    ctx.docservice,
    String(body.url), // checked by the document schema before
    typeof body.hash === 'string' ? body.hash : undefined,
  );
  ctx.attached.push(key);
  return { ...body, url: `${ctx.collection}/${id}?download=${key}` };
}

const downloadKey = (d: DocumentRecord): string | undefined => {
  try {
    // Stored links are paths; older ones absolute: either way the key is the `download` parameter.
    return d.url === undefined
      ? undefined
      : (new URL(d.url, 'http://link.invalid').searchParams.get('download') ?? undefined);
  } catch {
    return undefined;
  }
};

/**
 * Documents belong to the aggregate itself (no scope) or to one of its children, e.g. a bid (scope `{kind: BID,
 * id}`), so each owner's documents are read and versioned apart; each version is a child of its own.
 */
const versionPlace = (scope: ChildOwner | undefined, id: string, version: number): ChildPlace => ({
  kind: DOC,
  id,
  version,
  ...(scope && { under: scope }),
});

/** The document versions of one scope. */
const inScope = (children: Child[], scope: ChildOwner | undefined): Child<DocumentRecord>[] =>
  childrenWhere<DocumentRecord>(
    children,
    (c) => c.place.kind === DOC && c.place.under?.kind === scope?.kind && c.place.under?.id === scope?.id,
  );

/** Stored order: by document id, then version. */
/** Versions oldest first; documents keep the order they were made in (the children's order), as a stable sort. */
const byVersion = (a: Child, b: Child): number => (a.place.version ?? 0) - (b.place.version ?? 0);

/** A new document (first version) and the child item that stores it. */
export function newDocument(
  input: JsonRecord,
  meta: { id?: string; author?: string; documentOf: string; now: Micros; files: DocumentContext | undefined },
  scope?: ChildOwner,
): { document: DocumentRecord; child: Child } {
  const body = writable(documentModel, input, CREATE_FIELDS);
  checkNew(body);
  const at = formatKyiv(meta.now);
  const id = meta.id ?? newId();
  const document: DocumentRecord = {
    ...withFile(body, id, meta.files),
    id,
    documentOf: meta.documentOf,
    ...(meta.author && { author: meta.author }),
    datePublished: at,
    dateModified: at,
  };
  return { document, child: { place: versionPlace(scope, document.id, 1), entity: 'document', data: document } };
}

/**
 * A document the server adds itself (a bounce asset's `informationDetails`): a link without a file, so no client
 * checks and no `hash` or `format`, as upstream.
 */
export function serverDocument(
  fields: DocumentFields,
  meta: { documentOf: string; now: Micros },
): { document: DocumentRecord; child: Child } {
  const at = formatKyiv(meta.now);
  const document: DocumentRecord = {
    ...fields,
    id: newId(),
    documentOf: meta.documentOf,
    datePublished: at,
    dateModified: at,
  };
  return { document, child: { place: versionPlace(undefined, document.id, 1), entity: 'document', data: document } };
}

/** Every stored version of every document of a scope, grouped by id, oldest version first. */
function versions(children: Child[], scope?: ChildOwner): Map<string, DocumentRecord[]> {
  const byId = new Map<string, DocumentRecord[]>();
  for (const c of inScope(children, scope).sort(byVersion)) {
    byId.set(c.place.id, [...(byId.get(c.place.id) ?? []), c.data]);
  }
  return byId;
}

/** PUT: a new version with the same `id`, `datePublished` and `author`, unspecified fields carried over. */
export function newVersion(
  children: Child[],
  id: string,
  input: JsonRecord,
  meta: { now: Micros; files: DocumentContext | undefined },
  scope?: ChildOwner,
): { document: DocumentRecord; child: Child } {
  const { now } = meta;
  const history = versions(children, scope).get(id);
  if (!history) throw new NotFoundError('document_id');
  const previous = history[history.length - 1];
  const body = { ...omit(previous, SERVER_SET), ...writable(documentModel, input, CREATE_FIELDS) };
  // A stored link is a path; carried over (no `url` sent), it is checked as the absolute link it stands for.
  const kept = input.url === undefined && typeof body.url === 'string' && body.url.startsWith('/');
  checkNew(kept ? { ...body, url: `http://link.invalid${body.url}` } : body);
  // Checked just above (a kept link as the absolute link it stands for, so the check ran on a copy).
  const document = {
    ...withFile(body, id, meta.files, previous),
    id,
    documentOf: previous.documentOf,
    ...(previous.author && { author: previous.author }),
    datePublished: previous.datePublished,
    dateModified: formatKyiv(now),
  } as DocumentRecord;
  return {
    document,
    child: { place: versionPlace(scope, id, history.length + 1), entity: 'document', data: document },
  };
}

/**
 * PATCH (upstream `apply_patch` on the current version): the sent descriptive fields change the current version in
 * place, no new version; its file (`url`, `hash`) and the server fields stay as they are.
 */
export function patchedDocument(
  children: Child[],
  id: string,
  input: JsonRecord,
  scope?: ChildOwner,
): { document: DocumentRecord; child: Child } {
  const history = versions(children, scope).get(id);
  if (!history) throw new NotFoundError('document_id');
  const previous = history[history.length - 1];
  // Checked below as a document, its server fields aside (on a copy: its stored link checked as an absolute one).
  const document = { ...previous, ...writable(documentModel, input, EDIT_FIELDS) } as DocumentRecord;
  const body = omit(document, SERVER_SET);
  // The stored link is a path; it is checked as the absolute link it stands for.
  checkNew(
    typeof body.url === 'string' && body.url.startsWith('/')
      ? { ...body, url: `http://link.invalid${body.url}` }
      : body,
  );
  return { document, child: { place: versionPlace(scope, id, history.length), entity: 'document', data: document } };
}

/** Illustrations take the places of illustrations by ascending `index` (equal indexes keep their order: the sort is stable). */
function illustrationsByIndex(uploaded: DocumentRecord[]): DocumentRecord[] {
  const illustrations = uploaded.filter(isIllustration).sort((a, b) => (a.index ?? Infinity) - (b.index ?? Infinity));
  let next = 0;
  return uploaded.map((d) => (isIllustration(d) ? illustrations[next++] : d));
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The current version of each document in upload order, illustrations by ascending `index`. */
export function currentDocuments(children: Child[], scope?: ChildOwner): DocumentRecord[] {
  const current = [...versions(children, scope).values()].map((h) => h[h.length - 1]);
  return illustrationsByIndex(current.sort((a, b) => byText(a.datePublished, b.datePublished)));
}

/**
 * Every version of every document, in the order they were uploaded (a version's `dateModified` is its upload
 * time; the order they were made in breaks ties), illustrations by ascending `index`: what an object's own view lists in `documents`,
 * as upstream, whose document lists kept each version. The versions of one document keep their own order whatever
 * the clocks said (a later version never takes the place of the first): the places a document's versions got are
 * filled with them oldest first.
 */
export function allDocuments(children: Child[], scope?: ChildOwner): DocumentRecord[] {
  const uploaded = inScope(children, scope).sort(
    (a, b) => byText(a.data.dateModified, b.data.dateModified) || byVersion(a, b),
  );
  const history = versions(children, scope);
  const next = new Map<string, number>();
  const inVersionOrder = uploaded.map((c) => {
    const n = next.get(c.place.id) ?? 0;
    next.set(c.place.id, n + 1);
    return history.get(c.place.id)![n]!;
  });
  return illustrationsByIndex(inVersionOrder);
}

/** A document collection GET: the current version of each, or with `?all=1` every version (upstream `all`). */
export const documentList = (
  children: Child[],
  query: Record<string, string | undefined>,
  scope?: ChildOwner,
): DocumentRecord[] => (query.all ? allDocuments(children, scope) : currentDocuments(children, scope));

const isIllustration = (d: DocumentRecord) => d.documentType === 'illustration';

/** One document with its older versions (oldest first) in `previousVersions`. */
export function documentWithHistory(children: Child[], id: string, scope?: ChildOwner): DocumentRecord {
  const history = versions(children, scope).get(id);
  if (!history) throw new NotFoundError('document_id');
  return { ...history[history.length - 1], previousVersions: history.slice(0, -1) };
}

/**
 * GET of one document: `?download=<key>` answers a redirect to a short-lived link of the document service for a
 * file of one of its versions (unknown key: 404 `download`), anything else the document with its history.
 */
export function documentRead(
  children: Child[],
  id: string,
  query: Record<string, string>,
  files: DocumentContext | undefined,
  scope?: ChildOwner,
): { data: DocumentRecord } | { redirect: string } {
  const document = documentWithHistory(children, id, scope);
  if (query.download === undefined) return { data: document };
  const versions = [document, ...(document.previousVersions ?? [])];
  if (!versions.some((v) => downloadKey(v) === query.download)) throw new NotFoundError('download');
  const ctx = requireFiles(files);
  return { redirect: temporaryUrl(ctx.keyring, ctx.docservice, query.download, ctx.nowSeconds) };
}
