import { documentModel } from '#domain/documents/documents.ts';
import { AUCTION_TYPES } from '#domain/auctions/catalog.ts';
import type { JsonRecord } from '#domain/kernel/objects.ts';
import { auctionValidatorName, requestSchemas } from '#domain/schemas/request-schemas.ts';

/** The request schema served under a validator's name (a missing one fails as the document is built). */
function served(name: string): JsonRecord {
  const schema = requestSchemas[name];
  if (!schema) throw new Error(`no request schema "${name}" (functions/domain/schemas/request-schemas.ts)`);
  return schema;
}

/**
 * The names routes.ts gives an auction type's request schemas, by their key in its definition (`schemas`, `examples`).
 */
export function auctionSchemaNames(type: string) {
  return {
    auction: `auction.${type}`,
    auctionStored: `auction.${type}.stored`,
    bid: `bid.${type}`,
    bidPatch: `bid.${type}.patch`,
  } as const;
}

/**
 * The schemas routes.ts names (`doc.request`, `doc.resource`). Those of request bodies are the request schemas as
 * served (schemas/request-schemas.ts: closed, bounded), the very objects the validators are generated from. The few entries below the line have no
 * JSON Schema in the domain (the answer of a command, or a body checked by rules rather than a schema): they describe
 * the shape here, and say so.
 */
export const namedSchemas: Readonly<Record<string, object>> = {
  lot: served('lot'),
  document: served('document'),
  'asset.bounce': served('bounceAsset'),
  'item.bounce': served('bounceItem'),
  'decision.bounce': served('bounceDecision'),
  'asset.basic': served('basicAsset'),
  // Each auction type's schemas, from its definition (registry.ts), under its validators' names.
  ...Object.fromEntries(
    AUCTION_TYPES.flatMap(({ procurementMethodType: t }) =>
      Object.entries(auctionSchemaNames(t)).map(([key, name]) => [name, served(auctionValidatorName(t, key))]),
    ),
  ),
  question: served('question'),
  answer: served('answer'),
  'contract.patch': served('contractPatch'),
  'auction.results': served('auctionResults'),
  cancellation: served('cancellation'),
  'cancellation.patch': served('cancellationPatch'),
  prolongation: served('prolongation'),
  'prolongation.patch': served('prolongationPatch'),
  relatedProcess: served('bounceRelatedProcess'),
  subscription: served('subscription'),
  'subscription.patch': served('subscriptionPatch'),
  'subscription.replay': served('subscriptionReplay'),
  'calendar.change': served('calendarChange'),
  // ---- shapes without a domain JSON Schema
  calendar: {
    type: 'object',
    description:
      'The working-day calendar (Kyiv dates): Saturdays and Sundays are days off unless listed as working weekends, weekdays working unless listed as holidays; `mode` (AGORA_CALENDAR) says which pair of lists counts: `holidays`/`workingWeekends` under martial law, the `peacetime` ones otherwise. A day outside `coverage` cannot be counted (403).',
    properties: {
      source: { type: 'string', description: 'What the lists rest on (statutes, resolutions).' },
      coverage: {
        type: 'object',
        properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
      },
      holidays: { type: 'array', items: { type: 'string', format: 'date' } },
      workingWeekends: { type: 'array', items: { type: 'string', format: 'date' } },
      peacetimeHolidays: { type: 'array', items: { type: 'string', format: 'date' } },
      peacetimeWorkingWeekends: { type: 'array', items: { type: 'string', format: 'date' } },
      mode: { enum: ['martial-law', 'peacetime'] },
      dateModified: { type: 'string', description: 'The last change (absent: the shipped calendar, never changed).' },
    },
  },
  'subscription.secret': {
    type: 'object',
    description:
      'The new signing secret (`whsec_` and base64 of 32 bytes), shown once; for a `v1a` subscription, instead the ' +
      'new Ed25519 public key (`whpk_` and base64 of 32 bytes); its private half is never shown.',
    properties: { secret: { type: 'string' }, publicKey: { type: 'string' } },
  },
  'subscription.replayed': {
    type: 'object',
    description:
      "Where the subscription's cursor in that lane now stands (`after`), and how many journal positions it went back (`rewound`): everything it hears after `after` is sent again, in order.",
    properties: { after: { type: 'string' }, rewound: { type: 'integer' } },
  },
  delivery: {
    type: 'object',
    description:
      "One event of a subscription's: its message (as signed), where it stands against the subscription's cursor, the attempts kept (all of the one the cursor waits on, newest 20; the last of those sent lately) and the next retry.",
    properties: {
      id: { type: 'string', description: 'The `webhook-id` header: the same on every retry and replay.' },
      type: { type: 'string' },
      cursor: { type: 'string', description: 'Its place in the journal (`<lane>:<position>`, as `feed=changes`).' },
      state: { enum: ['pending', 'delivered'] },
      nextAttempt: { type: 'string' },
      attemptCount: { type: 'integer' },
      attempts: { type: 'array', items: { type: 'object' } },
      body: { type: 'object' },
    },
  },
  credentials: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      owner: { type: 'string' },
      transfer_token: { type: ['string', 'null'], description: 'The hash the service keeps, never the token.' },
    },
  },
  'document.patch': {
    type: 'object',
    description:
      'Any descriptive field of a document (title, description, documentType, format, index, language, accessDetails…); its file (url, hash) and the server fields stay. The merged document is checked as a document.',
  },
  'award.patch': {
    type: 'object',
    description: 'Checked by the awarding rules of the auction type (allowed transitions), not by a JSON Schema.',
    properties: { status: { enum: ['active', 'unsuccessful', 'cancelled'] } },
  },
  award: {
    type: 'object',
    description: 'Created by the service when results are reported; its status follows the awarding rules.',
    properties: {
      id: { type: 'string' },
      bid_id: { type: 'string' },
      status: { type: 'string' },
      date: { type: 'string', format: 'date-time' },
      value: { type: 'object', description: 'The bid amount in the auction currency, with valueAddedTaxIncluded.' },
      suppliers: { type: 'array', items: { type: 'object' } },
      complaintPeriod: { type: 'object', description: 'From the award creation; endDate once the award is decided.' },
      verificationPeriod: { type: 'object' },
      signingPeriod: { type: 'object' },
      documents: {
        type: 'array',
        items: { type: 'object' },
        description: 'The auction protocol, by the auction owner (author auction_owner) and the winner (bid_owner).',
      },
    },
  },
  contract: {
    type: 'object',
    description: 'Created by the service when an award becomes active.',
    properties: {
      id: { type: 'string' },
      awardID: { type: 'string' },
      status: { type: 'string' },
      dateSigned: { type: 'string', format: 'date-time' },
      value: { type: 'object' },
      signingPeriod: { type: 'object' },
      documents: { type: 'array', items: { type: 'object' } },
      prolongations: {
        type: 'array',
        items: { type: 'object' },
        description:
          'dgfInsider (2.3): its prolongations, in the order they were made, each with its documents (as `.../prolongations` shows them); absent while it has none.',
      },
    },
  },
  'docservice.register': {
    type: 'object',
    description: 'Checked by the document service (md5 only).',
    required: ['hash'],
    properties: { hash: documentModel.fields.hash },
  },
  'docservice.file': {
    type: 'object',
    properties: {
      key: { type: 'string' },
      hash: documentModel.fields.hash,
      url: { type: 'string', format: 'uri', description: 'The signed link the APIs accept as a document `url`.' },
      upload_url: { type: 'string', format: 'uri', description: 'Where to PUT the bytes (register only).' },
      direct_upload: {
        type: 'object',
        description: 'In AWS: a presigned S3 PUT for files past the API body limit (register only).',
      },
    },
  },
  ownership: {
    type: 'object',
    description:
      "Checked by the ownership rules: both required; `transfer` is the object's own transfer token (its `access.transfer`).",
    required: ['id', 'transfer'],
    properties: { id: { type: 'string', description: "The transfer's id." }, transfer: { type: 'string' } },
  },
  transfer: {
    type: 'object',
    description:
      'Created by POST /transfers; its `access` (token, transfer) becomes the tokens of the object it takes over.',
    properties: {
      id: { type: 'string' },
      date: { type: 'string', format: 'date-time' },
      usedFor: { type: 'string', description: "The object's path, e.g. `/lots/<id>`." },
    },
  },
  'schema.entry': {
    type: 'object',
    properties: {
      code: { type: 'string' },
      version: { type: 'string' },
      id: { type: 'string' },
      title: { type: 'string' },
    },
  },
};
