import type { CfnResource } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';

/**
 * Why a role keeps a grant that no call of the code makes (test/aws/iam.test.ts records every call the suite makes and
 * fails on a grant nobody uses unless it is justified here). Written beside the statement that grants it, into the
 * role's template metadata (`agora:unused-grants`), where the IAM check reads it.
 */
export const UNUSED_GRANTS_METADATA = 'agora:unused-grants';

export interface GrantJustification {
  /** The actions exactly as the statement names them (`dynamodb:Scan`, `s3:GetObject*`). */
  actions: readonly string[];
  why: string;
}

export function justifyGrant(role: IRole | undefined, justification: GrantJustification): void {
  const cfn = role?.node.defaultChild as CfnResource | undefined;
  if (!cfn) throw new Error('justifyGrant: a role made in this app (an imported role has no template here)');
  const given = (cfn.getMetadata(UNUSED_GRANTS_METADATA) as GrantJustification[] | undefined) ?? [];
  if (given.some((g) => g.why === justification.why && g.actions.join() === justification.actions.join())) return;
  cfn.addMetadata(UNUSED_GRANTS_METADATA, [...given, justification]);
}

/**
 * What each table access level (routes.ts `table`, bots.ts, lambdas.ts, AppFunction `access`) may do: the item actions
 * the code sends, on the table; Query on its indexes (the listing feeds, the bots' due work). No Scan (the migrations'
 * Lambda alone gets it), no stream reads (the pipe's role has those), no DescribeTable, no batch writes (the webhook
 * delivery Lambda alone gets BatchWriteItem).
 */
export const TABLE_ACTIONS = {
  ro: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  rw: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:ConditionCheckItem',
  ],
} as const;

/**
 * Grants a table access level. Every function of a level gets the level's whole set, whether or not its own code
 * sends each action (justified here, so the IAM check does not list them as unused): one level per function is what
 * the route table declares and reviews, and a hand-kept list per Lambda would fail in AWS on the first path its tests
 * missed.
 */
export function grantTable(grantee: IGrantable & { role?: IRole }, table: ITableV2, access: 'ro' | 'rw'): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: [...TABLE_ACTIONS[access]], resources: [table.tableArn] }),
  );
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/*`] }),
  );
  justifyGrant(grantee.role, {
    actions: TABLE_ACTIONS[access],
    why: `The table access level "${access}" (routes.ts, bots.ts, lambdas.ts): every function of the level may send its item actions and Query the indexes.`,
  });
}

/**
 * Reads a secret's value, as the Parameters and Secrets extension does with the function's role (GetSecretValue; the
 * secrets are encrypted with the AWS managed key, which needs no kms grant). CDK's grantRead adds DescribeSecret, which
 * nothing calls.
 */
export function grantSecretValue(secret: ISecret, grantee: IGrantable): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
  );
}
