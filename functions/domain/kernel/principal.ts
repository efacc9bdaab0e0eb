import type { AggregateReader, AggregateRepository } from './aggregate.ts';
import type { RevisionAuthor } from './history.ts';
import { NotFoundError } from './errors.ts';
import { tokenMatches } from './ids.ts';

/** Roles an API key may carry (upstream auth groups: brokers, concierge, convoy, chronograph, auction, Administrator). */
export const ROLES = ['broker', 'concierge', 'convoy', 'chronograph', 'auction', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling: the API key's name and role (or anonymous), accreditation levels, and any owner token sent. */
export interface Principal {
  name: string;
  role: Role | 'anonymous';
  /** Accreditation levels, one character each (upstream default `1234`). */
  levels: string;
  /** The owner token from `acc_token`, `X-Access-Token` or body `access.token`, in clear (never stored). */
  token?: string;
}

/**
 * The auction system itself, when the service's own room posts an auction's results (as an `auction` key would): no
 * key, no token; its name is the author the change log records.
 */
export const AUCTION_ROOM: Principal = { name: 'auction-room', role: 'auction', levels: '' };

/** An object's owner is the key that created it, and only while it holds the object's token. */
export interface Owned {
  owner: string;
  tokenHash: string;
}

/** The role a principal acts in on one object: `owner` when name and token match, else its key's role. */
export function actingRole(principal: Principal, object: Owned): Role | 'owner' | 'anonymous' {
  if (
    principal.role === 'broker' &&
    principal.name === object.owner &&
    tokenMatches(principal.token, object.tokenHash)
  ) {
    return 'owner';
  }
  return principal.role;
}

/** The author a revision names for a principal's change: its key's role and public name (never its token). */
export const authorOf = (principal: Pick<Principal, 'role' | 'name'>): RevisionAuthor => ({
  role: principal.role,
  name: principal.name,
});

/** A bot's (or the server's own timed events') changes: the role, named as itself. */
export const botAuthor = (role: 'concierge' | 'convoy' | 'chronograph' | 'auction'): RevisionAuthor => ({
  role,
  name: role,
});

/** Who may read a draft (an object before it is published): the key that owns it, or an admin. */
export const readsDraft = (principal: Pick<Principal, 'name' | 'role'>, owner: unknown): boolean =>
  principal.role === 'admin' || (principal.role === 'broker' && principal.name === owner);

/**
 * A draft answers its owner alone: to anyone else it is not there (404 at `notFound`, as an unknown id), as the
 * feeds and the webhooks already leave it out until it is published.
 */
export function assertReadable(
  principal: Pick<Principal, 'name' | 'role'>,
  root: { status?: unknown; owner?: unknown },
  notFound: string,
): void {
  if (root.status === 'draft' && !readsDraft(principal, root.owner)) throw new NotFoundError(notFound);
}

/** What a draft's root carries that says whose it is. */
interface DraftRoot {
  status?: unknown;
  owner?: unknown;
}

const hiddenFrom = (principal: Pick<Principal, 'name' | 'role'>, root: DraftRoot): boolean =>
  root.status === 'draft' && !readsDraft(principal, root.owner);

/**
 * The read port a request reads through: a draft `principal` may not read is not there, as an unknown id (the same
 * request, the same answer), so every route under it (its children, their documents and the files behind their
 * links) answers as for an unknown id.
 */
export const readerHidingDrafts = <T extends DraftRoot>(
  reader: AggregateReader<T>,
  principal: Pick<Principal, 'name' | 'role'>,
): AggregateReader<T> => ({
  get: async (id) => {
    const found = await reader.get(id);
    return found && hiddenFrom(principal, found.root) ? undefined : found;
  },
});

/**
 * The port a request's commands write through: reads as `readerHidingDrafts`, and a change of a draft `principal`
 * may not read is refused before anything else is checked, as the store refuses an unknown id (404 at `notFound`,
 * from the one read every change makes).
 */
export const repositoryHidingDrafts = <T extends DraftRoot>(
  repository: AggregateRepository<T>,
  principal: Pick<Principal, 'name' | 'role'>,
  notFound: string,
): AggregateRepository<T> => ({
  ...repository,
  ...readerHidingDrafts(repository, principal),
  modify: (id, change, options) =>
    repository.modify(
      id,
      (current, now) => {
        if (hiddenFrom(principal, current.root)) throw new NotFoundError(notFound);
        return change(current, now);
      },
      options,
    ),
});
