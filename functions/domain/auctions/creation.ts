import { ForbiddenError } from '../kernel/errors.ts';
import type { JsonObject } from '../kernel/objects.ts';
import type { Check } from '../kernel/validation.ts';

/**
 * Blocks the auction types share for creating and re-checking an auction; each type's definition names the ones it
 * uses (no type is the default of another).
 */

/** Only `draft` may be sent as the status of a new auction; it then takes the status its `initialize` gives (GEB). */
export function draftOnlyCreate(sent: unknown): undefined {
  if (sent !== undefined && sent !== 'draft') throw new ForbiddenError('You can create only in draft status', 'status');
  return undefined;
}

export interface AuctionChecks {
  /** A new auction's client fields (422 on the first schema or rule error). */
  checkNewAuction(fields: JsonObject): void;
  /** The client part of a stored auction after a change (owner's PATCH, release from a lot). */
  checkStoredAuction(fields: JsonObject): void;
}

/**
 * The two checks of a type's client fields: its schema's validator for a new auction and for a stored one, each
 * followed by the type's rules across fields (`[]`: none).
 */
export function auctionChecks(
  validators: { newAuction: Check; storedAuction: Check },
  rules: readonly ((fields: JsonObject) => void)[],
): AuctionChecks {
  const { newAuction: checkNew, storedAuction: checkStored } = validators;
  const checkRules = (fields: JsonObject) => {
    for (const rule of rules) rule(fields);
  };
  return {
    checkNewAuction(fields) {
      checkNew(fields);
      checkRules(fields);
    },
    checkStoredAuction(fields) {
      checkStored(fields);
      checkRules(fields);
    },
  };
}
