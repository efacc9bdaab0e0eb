/**
 * THE table design: keys, indexes and key builders. The CDK DataStack, the test tables and `npm start` all build
 * the table from this module, so it holds data only (no SDK imports).
 *
 * Item collections: an aggregate is `PK=<KIND>#<id>` with its root at `SK=#ROOT` and its children beside it
 * (`DOC#<docId>#<version>`, `BID#<id>`, ...). Reading an aggregate is one Query on PK.
 */
export const TABLE_KEYS = { partitionKey: 'PK', sortKey: 'SK' } as const;

export interface IndexDesign {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** What the index copies besides the keys: only what its readers use, so a page stays small and fast. */
  projection: 'keys' | { include: readonly string[] };
  purpose: string;
}

/** The small view of an item the listing feed serves (`id`, `dateModified`, the listing fields): never the whole item. */
export const FEED_VIEW = 'feed';

export const INDEXES: readonly IndexDesign[] = [
  {
    name: 'GSI1',
    partitionKey: 'GSI1PK',
    sortKey: 'GSI1SK',
    projection: { include: [FEED_VIEW] },
    purpose:
      'listing feed: <feed>[#test] -> <dateModified UTC fixed width>#<id>; drafts carry no key (sparse) ' +
      '(revisions written before the journal: <feed>[#test]#CHANGES -> <revision date UTC>#<id>#<seq>)',
  },
  {
    name: 'GSI2',
    partitionKey: 'GSI2PK',
    sortKey: 'GSI2SK',
    projection: 'keys',
    purpose: 'bot work: WORK#<bot> -> <due UTC fixed width>#<id>; only items a bot must look at (sparse)',
  },
];

export const ROOT_SK = '#ROOT';

/** The partitions whose roots' stream records are changes the journal takes: lots, assets, auctions (lib/webhooks.ts). */
export const CHANGE_PARTITIONS = ['LOT#', 'ASSET#', 'AUCTION#'] as const;

/** The partition of a room connection's own item (its session, its message allowance): IAM grants name it. */
export const CONNECTION_PARTITION = 'CONN#';

export const keys = {
  root: (kind: string, id: string) => ({ PK: `${kind}#${id}`, SK: ROOT_SK }),
  aggregate: (kind: string, id: string) => `${kind}#${id}`,
  child: (kind: string, id: string, childKey: string) => ({ PK: `${kind}#${id}`, SK: childKey }),
  apiKey: (keyHash: string) => ({ PK: `APIKEY#${keyHash}`, SK: '#KEY' }),
  /** A key's request allowance (the authorizer's token bucket), by key name. */
  rateLimit: (keyName: string) => ({ PK: `RATE#${keyName}`, SK: '#BUCKET' }),
  sequence: (prefix: string, day: string) => ({ PK: `SEQ#${prefix}`, SK: day }),
  /** The kept first answer of a create sent with an Idempotency-Key, by the hash of its scope (runtime/idempotency.ts). */
  idempotency: (scope: string) => ({ PK: `IDEMPOTENCY#${scope}`, SK: '#ANSWER' }),
  organization: (scheme: string, id: string) => ({ PK: `ORG#${scheme}#${id}`, SK: '#ORG' }),
  feed: (feed: string, test: boolean) => (test ? `${feed}#test` : feed),
  /**
   * The change log of one object, outside its aggregate's partition (no GET of the object reads it): one item per
   * revision, `SK` = the revision's number zero-padded (1: the create), so a Query on `PK` pages the history in order.
   */
  revisions: (kind: string, id: string) => `REV#${kind}#${id}`,
  revision: (kind: string, id: string, seq: number) => ({ PK: `REV#${kind}#${id}`, SK: revisionSortKey(seq) }),
  work: (bot: string) => `WORK#${bot}`,
  /** The working-day calendar (one item, `#ROOT`; its change log at `revisions('CALENDAR', <name>)`). */
  calendar: (name: string) => ({ PK: `CALENDAR#${name}`, SK: ROOT_SK }),
  /**
   * The auction room, in its own partition so no auction read loads it: its state (`#STATE`), the sealed bids
   * (`SEALED#<bid>`, never in a public answer), the bid journal (`JOURNAL#<date>#<n>`) and its connections
   * (`CONN#<connection>`); and each connection's room (`CONN#<connection>` / `#ROOM`) for its disconnect.
   */
  room: (auctionId: string) => `ROOM#${auctionId}`,
  roomState: (auctionId: string) => ({ PK: `ROOM#${auctionId}`, SK: '#STATE' }),
  roomSealed: (auctionId: string, bidId: string) => ({ PK: `ROOM#${auctionId}`, SK: `SEALED#${bidId}` }),
  roomJournal: (auctionId: string, at: string) => ({ PK: `ROOM#${auctionId}`, SK: `JOURNAL#${at}` }),
  /** How many of a bidder's bids the room refused (the journal keeps the first few: room/room.ts). */
  roomRefusals: (auctionId: string, bidderId: string) => ({ PK: `ROOM#${auctionId}`, SK: `REFUSED#${bidderId}` }),
  /** The answer to a bid the client named (`bidId` of the message): a repeated message gets it, never a second bid. */
  roomBidAnswer: (auctionId: string, bidderId: string, clientBidId: string) => ({
    PK: `ROOM#${auctionId}`,
    SK: `ANSWER#${bidderId}#${clientBidId}`,
  }),
  roomConnection: (auctionId: string, connectionId: string) => ({
    PK: `ROOM#${auctionId}`,
    SK: `CONN#${connectionId}`,
  }),
  connectionRoom: (connectionId: string) => ({ PK: `${CONNECTION_PARTITION}${connectionId}`, SK: '#ROOM' }),
  /** A webhook subscription (its root). */
  subscription: (id: string) => ({ PK: `SUBSCRIPTION#${id}`, SK: ROOT_SK }),
  /** An active subscription's row in the fan-out's list (what it hears), written with the subscription and the version. */
  activeSubscription: (id: string) => ({ PK: 'SUBSCRIPTIONS', SK: `ACTIVE#${id}` }),
  /** A subscription's cursor over one journal lane, in the subscription's partition (store/cursors.ts). */
  subscriptionCursor: (id: string, lane: string) => ({ PK: `SUBSCRIPTION#${id}`, SK: `${CURSOR_PREFIX}${lane}` }),
  /** The active subscriptions' version (counted up in every subscription write: the fan-out's list is kept by it). */
  subscriptionsVersion: { PK: 'SUBSCRIPTIONS', SK: '#VERSION' },
  /** A migration run's state, per data model (store/migrations.ts). */
  migrationState: (model: number) => ({ PK: `MIGRATION#${String(model).padStart(4, '0')}`, SK: '#STATE' }),
  /** How many subscriptions a key holds (bounded: domain/webhooks/subscription.ts). */
  subscriber: (owner: string) => ({ PK: `SUBSCRIBER#${owner}`, SK: '#COUNT' }),
  /**
   * The journal (domain/journal/journal.ts): one lane per listing feed key, its entries by position (zero-padded, so
   * a Query pages them in order) beside its head (`#HEAD`: the next position and the last stamp; `#` sorts before
   * every digit, so no page of entries reads it).
   */
  journal: (lane: string) => `JOURNAL#${lane}`,
  journalHead: (lane: string) => ({ PK: `JOURNAL#${lane}`, SK: '#HEAD' }),
  journalEntry: (lane: string, pos: number) => ({ PK: `JOURNAL#${lane}`, SK: journalPosition(pos) }),
  /**
   * The listing (the dateModified feeds) of a lane: one row per listed object, at its last entry's stamp (sortable
   * UTC), moved by the journal's writer in the same transaction as the entry (store/journal.ts).
   */
  listing: (lane: string) => `LIST#${lane}`,
  listingRow: (lane: string, stampUtc: string) => ({ PK: `LIST#${lane}`, SK: stampUtc }),
  /** How far the journal has taken an object's change log: the last `seq` journaled (drafts' changes included). */
  journalMark: (kind: string, id: string) => ({ PK: `JOURNALED#${kind}#${id}`, SK: '#SEQ' }),
};

/** The sort keys of a subscription's cursors begin so. */
export const CURSOR_PREFIX = 'CURSOR#';

/** What the keys above hold, read back: the one place that parses a key. */
export const keyParts = {
  subscriptionId: (pk: unknown) => String(pk).slice('SUBSCRIPTION#'.length),
  cursorLane: (sk: unknown) => String(sk).slice(CURSOR_PREFIX.length),
  apiKeyHash: (pk: unknown) => String(pk).slice('APIKEY#'.length),
  isSubscriptionRoot: (item: { PK?: unknown; SK?: unknown }) =>
    String(item.PK).startsWith('SUBSCRIPTION#') && item.SK === ROOT_SK,
};

/** A journal position as a sort key: zero-padded to 12 digits, so that the strings sort as the numbers. */
export const journalPosition = (pos: number) => String(pos).padStart(12, '0');

/** A revision's number as a sort key: zero-padded, so that the strings sort as the numbers. */
export const revisionSortKey = (seq: number) => String(seq).padStart(10, '0');

/**
 * A revision item (`entity: 'revision'`, at `keys.revision`), written in the same transaction as the change it
 * records. Its consumers (the revisions route, the change feed, webhooks) read these plain attributes and never
 * parse the revision: `objectKind` (lot | asset | auction), `seq`, the object's `status` after the change (its id is
 * the key's and its `dateModified` the revision's `date`; items written before issue 46 carry `objectId` and
 * `dateModified` too), `objectType` (an auction's procurementMethodType, an asset's assetType), and `revision` itself as served (`date`, `author`, `changes`, `previousHash`, `hash`).
 * Revisions of a listed object also carry `lane` (the feed key it was listed under) and `feed` (its listing view after
 * the change), which the journal takes when it reads a change from the log (store/journal.ts).
 * The chain's head (`{seq, hash}` of the last revision) is the root item's `history` attribute, moved with `rev`.
 */
export const REVISION_ENTITY = 'revision';
export type RevisionObjectKind = 'lot' | 'asset' | 'auction';

/** Every item carries this so a migration can tell what it reads: the last step of functions/store/migration-steps.ts. */
export const SCHEMA_VERSION = 8;

/** An index's projection in the DynamoDB API's own shape (CreateTable, and the CloudFormation template). */
export const indexProjection = (i: IndexDesign) =>
  i.projection === 'keys'
    ? { ProjectionType: 'KEYS_ONLY' as const }
    : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...i.projection.include] };

/** What the journal's writer reads of a root (domain/journal `changeOfRoot`), and of its `data`. */
const ROOT_ATTRIBUTES = ['PK', 'SK', 'history', 'lane', 'feed'];
const DATA_ATTRIBUTES = ['dateModified', 'status', 'owner'];
const imagePath = (path: string) => `<$.dynamodb.NewImage.${path}>`;
/**
 * What the pipe writes into the queue for a stream record (its target's input template, lib/webhooks.ts): the
 * record's id and keys and what the journal's writer reads of the root (domain/journal `changeOfRoot`), still in DynamoDB JSON, so a message stays small
 * whatever the object holds (a root may be 400 KB, a queue message 256 KB) and carries no internal attribute. Every path
 * is on every root the pipe's filter passes (`lane` and `feed` on drafts too); the local pipe fills it by the same
 * rules and fails on a path that is not there.
 */
export const PIPE_MESSAGE_TEMPLATE = `{"eventID":"<$.eventID>","dynamodb":{"Keys":<$.dynamodb.Keys>,"NewImage":{${ROOT_ATTRIBUTES.map(
  (a) => `"${a}":${imagePath(a)}`,
).join(',')},"data":{"M":{${DATA_ATTRIBUTES.map((a) => `"${a}":${imagePath(`data.M.${a}`)}`).join(',')}}}}}}`;
