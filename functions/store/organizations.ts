import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { JsonObject } from '#domain/kernel/objects.ts';
import type { OrganizationDirectory } from '#domain/kernel/organization-directory.ts';
import { documentClient, tableName } from './client.ts';
import { keys, SCHEMA_VERSION } from './table-design.ts';

/**
 * The organization directory: one item per organization, `ORG#<scheme>#<id>`, read with one GetItem.
 * `npm start` seeds the dev entries (bin/dev-organizations.ts); `npm run organizations` manages it.
 */
export const organizationDirectory: OrganizationDirectory = {
  async find(scheme, id) {
    const out = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.organization(scheme, id) }),
    );
    return out.Item?.data as JsonObject | undefined;
  },
};

/** The item of a directory entry; `organization.identifier` gives its key. */
export function organizationItem(organization: JsonObject): JsonObject {
  const { scheme, id } = organization.identifier;
  return {
    ...keys.organization(scheme, id),
    entity: 'organization',
    schemaVersion: SCHEMA_VERSION,
    data: organization,
  };
}

/** Stores (or replaces) an entry. */
export async function putOrganization(organization: JsonObject): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: organizationItem(organization) }));
}

export async function deleteOrganization(scheme: string, id: string): Promise<boolean> {
  const out = await documentClient().send(
    new DeleteCommand({ TableName: tableName(), Key: keys.organization(scheme, id), ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes !== undefined;
}
