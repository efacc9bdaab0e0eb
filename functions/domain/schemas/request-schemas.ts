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
import { documentSchema } from '../documents/documents.ts';
import { closeObjects } from '../kernel/validation.ts';
import { lotSchema } from '../lots/lot.ts';
import { boundAll } from '../protocol/model.ts';
import { replaySchema, subscriptionPatchSchema, subscriptionSchema } from '../webhooks/subscription.ts';

/**
 * Every request body schema the service checks, by the name of its validator in generated/request-validators.js.
 * `npm run generate` compiles each with ajv into standalone code (bin/build-schema-validators.ts); the module that
 * checks a body imports its validator by that name. Add a schema here, run `npm run generate`, import the validator.
 */
export const requestSchemas: Readonly<Record<string, object>> = {
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
};

/** The validator of an auction type's schema: `landlease` + `bidPatch` is `landleaseBidPatch`. */
export function auctionValidatorName(type: string, key: string): string {
  return `${type}${key[0]!.toUpperCase()}${key.slice(1)}`;
}

// Unknown fields are refused at every level (closeObjects): in place, so the validators generated from these objects
// and the OpenAPI document that shows them (functions/openapi/schemas.ts imports this module) agree.
// Every string and list not declared with a tighter bound gets the protocol's (protocol/model.ts `boundAll`).
for (const schema of Object.values(requestSchemas)) {
  closeObjects(schema);
  boundAll(schema);
}
