import type { Timing } from '../calendar/periods.ts';
import type { DocumentFields } from '../documents/documents.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import type { AuctionOf, AuctionStatus, PeriodName, Working } from './auction.ts';
import type { AwardingRules } from './awarding.ts';
import type { AuctionTypeName } from './catalog.ts';
import type { BidPolicy } from './bids.ts';
import type { TimedEvent } from './timed-events.ts';

/**
 * One auction type (landlease, dgfInsider, ...) as data and small functions; the kernel commands do the rest
 * (storage, tokens, documents, questions, bids, auction results, awards, contracts, the chronograph). Every member
 * is required: no type is the default of another; what two types share is a named block both import. What the
 * reads need (feed, statuses where bids are hidden) is in its descriptor (`types/<type>/descriptor.ts`), not here.
 */
export interface AuctionDefinition<T extends AuctionTypeName = AuctionTypeName, A extends AuctionOf<T> = AuctionOf<T>> {
  procurementMethodType: T;
  /** Accreditation level needed to create. */
  accreditation: string;
  /** The creation answer also carries `access.transfer`. */
  transferToken: boolean;
  /**
   * Validates the client's fields (422) and returns the type's part of a new auction: status, defaults, periods.
   * The hooks that may count periods get the time with the working-day calendar (`Timing`), never a configured one.
   */
  initialize(fields: JsonRecord, timing: Timing): Omit<A, AuctionStamp>;
  /**
   * The owner's PATCH: the auction as it becomes (the kernel stamps `dateModified`/`date`), or a refusal. `data` is
   * the body as sent (JsonRecord): the definition picks and validates what it takes.
   */
  ownerPatch(auction: A, data: JsonRecord, timing: Timing): A;
  /** Time-driven changes, applied by the chronograph. */
  events: readonly TimedEvent<A>[];
  /** Which auction statuses admit each operation. */
  statuses: {
    documents: readonly AuctionStatus[];
    questions: readonly AuctionStatus[];
    /** The status in which the auction system reads the procedure and reports results. */
    auction: AuctionStatus;
  };
  /** The period within which questions may be asked. */
  /** What a question may be about (`questionOf`); the originals' Question choices, `tender` when not set. */
  questionsAbout?: readonly ('tender' | 'item' | 'lot')[];
  questionPeriod: PeriodName;
  bids: BidPolicy<A>;
  /** Turns reported results into the next step (usually awarding); ranked bids first. */
  onResults(w: Working, timing: Timing): void;

  /**
   * The status a new auction takes from the body's `status`, or refuses it; `undefined`: the one `initialize`
   * returns (shared: `draftOnlyCreate`).
   */
  createStatus(sent: unknown): A['status'] | undefined;
  /** Documents the server adds at creation (dgfInsider: `x_dgfPlatformLegalDetails`), without client checks. */
  serverDocuments(): DocumentFields[];
  /** `documentOf` of the auction's own documents, and of its awards' and contracts' (2.5 `auction`; 2.3 `tender`). */
  documentOf: string;
  /** `documentOf` of bid documents (2.5 `bid`; 2.3 bids hold the auction's kind of document: `tender`). */
  bidDocumentOf: string;
  /** The refusal when questions are asked or answered in a status that does not admit them (shared: `questionsOnlyIn`). */
  questionRefusal(auction: A, verb: 'add' | 'update'): string;
  /** Whether answering checks the question period too, not only the status. */
  answerWithinQuestionPeriod: boolean;
  /** Awarding and contract rules (shared blocks in awarding.ts: `SINGLE_AWARD`, ...). */
  awarding: AwardingRules;
  /**
   * The JSON Schemas the type validates request bodies with. `npm run generate` compiles each into the validator
   * `<type><Key>` (`landleaseAuction`, `landleaseBidPatch`, ...: schemas/request-schemas.ts), the name its check
   * passes to `checkWith`; the OpenAPI document shows the four below (`auction.<type>`, `auction.<type>.stored`,
   * `bid.<type>`, `bid.<type>.patch`). A type may add its own (landlease: `auctionPeriod`).
   */
  schemas: AuctionSchemas;

  /**
   * An auction created from a lot (`merchandisingObject`) waits in `pending.verification` until the convoy has
   * checked the lot; then it gets the items made from the lot's assets and is released into its first active
   * status, with its periods counted from now (or refused, by a thrown DomainError).
   */
  releaseFromLot(auction: A, items: JsonRecord[], timing: Timing): A;
}

/** The request schemas every auction type has. */
interface TypeSchemas {
  auction: JsonRecord;
  auctionStored: JsonRecord;
  bid: JsonRecord;
  bidPatch: JsonRecord;
}
/** Those, and any the type adds of its own, by key (the validator's name without the type). */
export type AuctionSchemas = TypeSchemas & { readonly [own: string]: JsonRecord };

/** What the kernel stamps on a new auction of any type: ids, owner and dates (the definition's `initialize` sets the rest). */
export type AuctionStamp = 'id' | 'auctionID' | 'owner' | 'date' | 'dateModified';

/**
 * A type's OpenAPI request examples (`types/<type>/examples.ts`), one per named schema (the OpenAPI lint checks each
 * against it): read by the OpenAPI document alone (functions/openapi/examples.ts), apart from the definition, so that
 * no Lambda but the document's carries them.
 */
export type TypeExamples = { readonly [K in keyof TypeSchemas]: JsonRecord };
