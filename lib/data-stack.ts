import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { INDEXES, TABLE_KEYS } from '../functions/store/table-design.ts';

/** The single table, built from table-design.ts: on demand, point-in-time recovery, deletion protection, retained. */
export class DataStack extends Stack {
  readonly table: TableV2;
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const key = (name: string) => ({ name, type: AttributeType.STRING });
    this.table = new TableV2(this, 'Table', {
      partitionKey: key(TABLE_KEYS.partitionKey),
      sortKey: key(TABLE_KEYS.sortKey),
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: INDEXES.map((i) => ({ indexName: i.name, partitionKey: key(i.partitionKey), sortKey: key(i.sortKey) })),
    });
  }
}
