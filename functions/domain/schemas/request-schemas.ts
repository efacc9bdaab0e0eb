import { assetSchema as basicAsset } from '../assets/types/basic/definition.ts';
import {
  assetSchema as bounceAsset,
  decisionSchema as bounceDecision,
  itemSchema as bounceItem,
  relatedProcessSchema as bounceRelatedProcess,
} from '../assets/types/bounce/definition.ts';
import { awardPatchSchema, contractPatchSchema } from '../auctions/awarding.ts';
import { cancellationPatchSchema, cancellationSchema } from '../auctions/cancellations.ts';
import { prolongationPatchSchema, prolongationSchema } from '../auctions/prolongations.ts';
import { auctionResultsSchema } from '../auctions/commands.ts';
import { answerSchema, questionSchema } from '../auctions/questions.ts';
import { auctionDefinitions } from '../auctions/registry.ts';
import { calendarChangeSchema } from '../calendar/calendar-changes.ts';
import { documentSchema } from '../documents/documents.ts';
import type { JsonRecord } from '../kernel/objects.ts';
import { closed } from '../kernel/validation.ts';
import { lotSchema } from '../lots/lot.ts';
import { bounded } from '../protocol/model.ts';
import { replaySchema, subscriptionPatchSchema, subscriptionSchema } from '../webhooks/subscription.ts';

/**
 * A request schema as served: unknown fields refused at every level (`closed`), every string and list not declared
 * with a tighter bound given the protocol's (protocol/model.ts `bounded`). A copy: the domain's schema stays as
 * declared, and no module changes another's objects on import.
 */
export const servedSchema = (schema: JsonRecord): JsonRecord => bounded(closed(schema));

/** Every request body schema the service checks, as the domain declares it, by the name of its validator. */
const declared: Readonly<Record<string, JsonRecord>> = {
  lot: lotSchema,
  document: documentSchema,
  basicAsset,
  bounceAsset,
  bounceItem,
  bounceDecision,
  bounceRelatedProcess,
  // Each auction type's, from its definition (auctions/registry.ts): `<type><Key>` for each of its `schemas`.
  ...Object.fromEntries(
    auctionDefinitions.flatMap(({ procurementMethodType: type, schemas }) =>
      Object.entries(schemas).map(([key, schema]) => [auctionValidatorName(type, key), schema]),
    ),
  ),
  question: questionSchema,
  answer: answerSchema,
  awardPatch: awardPatchSchema,
  contractPatch: contractPatchSchema,
  auctionResults: auctionResultsSchema,
  cancellation: cancellationSchema,
  cancellationPatch: cancellationPatchSchema,
  prolongation: prolongationSchema,
  prolongationPatch: prolongationPatchSchema,
  subscription: subscriptionSchema,
  subscriptionPatch: subscriptionPatchSchema,
  subscriptionReplay: replaySchema,
  calendarChange: calendarChangeSchema,
};

/** The validator of an auction type's schema: `landlease` + `bidPatch` is `landleaseBidPatch`. */
export function auctionValidatorName(type: string, key: string): string {
  return `${type}${key[0]!.toUpperCase()}${key.slice(1)}`;
}

/**
 * Every request body schema the service checks, as served (`servedSchema`), by the name of its validator in
 * generated/request-validators.js. `npm run generate` compiles each with ajv into standalone code
 * (bin/build-schema-validators.ts); the module that checks a body imports its validator by that name, and the OpenAPI
 * document shows these same copies (functions/openapi/schemas.ts). Add a schema above, run `npm run generate`, import
 * the validator.
 */
export const requestSchemas: Readonly<Record<string, JsonRecord>> = Object.fromEntries(
  Object.entries(declared).map(([name, schema]) => [name, servedSchema(schema)]),
);
