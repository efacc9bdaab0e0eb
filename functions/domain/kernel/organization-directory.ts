import { UnprocessableError } from './errors.ts';
import { isObject, withDefaults, type JsonRecord } from './objects.ts';

/**
 * The organization directory (interface.md §2.2): an organization sent with only `identifier`, `contactPoint` and
 * `address.countryName` comes back with `name`, `identifier.uri` and the rest of the address filled in from it.
 * `functions/store/organizations.ts` implements the port over the table; `npm run organizations` manages it.
 */
export interface OrganizationDirectory {
  /** The directory's entry for `identifier.scheme` + `identifier.id`, if any. */
  find(scheme: string, id: string): Promise<object | undefined>;
}

/** What the directory can fill in: an organization lacking any of these is looked up. */
const FILLED = {
  top: ['name'],
  identifier: ['uri'],
  address: ['countryName', 'postalCode', 'region', 'streetAddress', 'locality'],
};

const identifierOf = (org: unknown): { scheme: string; id: string } | undefined => {
  const identifier = isObject(org) ? org.identifier : undefined;
  return isObject(identifier) && typeof identifier.scheme === 'string' && typeof identifier.id === 'string'
    ? { scheme: identifier.scheme, id: identifier.id }
    : undefined;
};

/** True when the directory could add something to this organization (and it names an identifier to look up). */
export function needsDirectory(org: unknown): boolean {
  if (!isObject(org) || !identifierOf(org)) return false;
  const missing = (object: unknown, keys: string[]) => keys.some((k) => !isObject(object) || object[k] === undefined);
  return missing(org, FILLED.top) || missing(org.identifier, FILLED.identifier) || missing(org.address, FILLED.address);
}

/** Directory entries already read for one command, keyed `<scheme>#<id>` (undefined: looked up, not found). */
export type DirectoryEntries = Map<string, object | undefined>;
const entryKey = (scheme: string, id: string) => `${scheme}#${id}`;
const MAX_IDENTIFIER = 256;

/** Reads, once each, the entries the given organizations need. Called before a command's synchronous part. */
export async function readDirectory(
  directory: OrganizationDirectory,
  organizations: unknown[],
): Promise<DirectoryEntries> {
  const entries: DirectoryEntries = new Map();
  for (const org of organizations) {
    const identifier = identifierOf(org);
    if (!identifier || !needsDirectory(org)) continue;
    const key = entryKey(identifier.scheme, identifier.id);
    // No directory holds an identifier this long (and it would not fit a DynamoDB key): unknown.
    const plausible = identifier.scheme.length <= MAX_IDENTIFIER && identifier.id.length <= MAX_IDENTIFIER;
    if (!entries.has(key))
      entries.set(key, plausible ? await directory.find(identifier.scheme, identifier.id) : undefined);
  }
  return entries;
}

/**
 * Completes the organization in `field` from the directory entries read for it. An organization that needs its
 * `name` from the directory, whose identifier the directory was asked about and does not know, is refused with a
 * 422 naming the field. (One not asked about, e.g. a PATCH that named no identifier, is left to the schema.)
 */
export function completeOrganization<T extends JsonRecord>(object: T, field: string, entries: DirectoryEntries): T {
  const org = object[field];
  const identifier = identifierOf(org);
  if (!identifier || !isObject(org) || !needsDirectory(org)) return object;
  const key = entryKey(identifier.scheme, identifier.id);
  const entry = entries.get(key);
  if (entry) return { ...object, [field]: withDefaults(org, entry) }; // still an organization, completed
  if (entries.has(key) && org.name === undefined) {
    throw UnprocessableError.field(
      field,
      `Organization ${identifier.scheme} ${identifier.id} is not in the organization directory: send its name and address in full.`,
    );
  }
  return object;
}
