import { ForbiddenError } from '../kernel/errors.ts';
import type { CheckOf } from '../kernel/validation.ts';

/**
 * Blocks the auction types share for creating and re-checking an auction; each type's definition names the ones it
 * uses (no type is the default of another).
 */

/** Only `draft` may be sent as the status of a new auction; it then takes the status its `initialize` gives (GEB). */
export function draftOnlyCreate(sent: unknown): undefined {
  if (sent !== undefined && sent !== 'draft') throw new ForbiddenError('You can create only in draft status', 'status');
  return undefined;
}

/** `New`, `Stored`: the body types generated from the type's two schemas, which a passed check proves. */
export interface AuctionChecks<New, Stored> {
  /** A new auction's client fields (422 on the first schema or rule error). */
  checkNewAuction: CheckOf<New>;
  /** The client part of a stored auction after a change (owner's PATCH, release from a lot). */
  checkStoredAuction: CheckOf<Stored>;
}

/**
 * The two checks of a type's client fields: its schema's validator for a new auction and for a stored one, each
 * followed by the type's rules across fields (`[]`: none).
 */
export function auctionChecks<New, Stored>(
  validators: { newAuction: CheckOf<New>; storedAuction: CheckOf<Stored> },
  rules: readonly ((fields: New | Stored) => void)[],
): AuctionChecks<New, Stored> {
  const checkRules = (fields: New | Stored) => {
    for (const rule of rules) rule(fields);
  };
  return {
    checkNewAuction(fields) {
      validators.newAuction(fields);
      checkRules(fields);
    },
    checkStoredAuction(fields) {
      validators.storedAuction(fields);
      checkRules(fields);
    },
  };
}
