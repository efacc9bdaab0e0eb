import { dgfInsiderType } from './types/dgf-insider/descriptor.ts';
import { landleaseType } from './types/landlease/descriptor.ts';

/**
 * THE list of auction types, in route order. The route table builds each type's routes from it and registry.ts
 * must give every name here a definition (a missing one does not compile). A new type: its folder under `types/`
 * (descriptor.ts, definition.ts, ...), one line here and one in registry.ts.
 */
export const AUCTION_TYPES = [landleaseType, dgfInsiderType] as const;

export type AuctionTypeName = (typeof AUCTION_TYPES)[number]['procurementMethodType'];
