import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { INDEXES, TABLE_KEYS } from '../functions/store/table-design.ts';
import { tableAlarms } from './operations.ts';

/** Days an uploaded file nobody attached to a document is kept (tag `agora-attached=no`, see functions/store/files/s3-store.ts). */
export const UNATTACHED_FILE_DAYS = 7;

export interface DataStackProps extends StackProps {
  /** Subscribed to the alarm topic (context `alarmEmail`). */
  alarmEmail?: string;
  /** AWS Budgets may publish to the alarm topic (context `budgetUsd`, OpsStack). */
  budgetNotifications?: boolean;
}

/**
 * The single table, built from table-design.ts: on demand, point-in-time recovery, deletion protection, retained.
 * The document service's files: a private, S3-encrypted bucket (public access blocked, TLS only, retained) whose
 * lifecycle expires uploads nobody attached; and its signing key, a generated Secrets Manager secret.
 */
export class DataStack extends Stack {
  readonly table: TableV2;
  readonly files: Bucket;
  readonly docserviceKey: Secret;
  /** Keys bidders' participation links (HMAC), so nobody can forge one from a bid id. */
  readonly participationKey: Secret;
  /** Where every alarm of the app goes (API 5xx, bot failures); subscribe to it (`alarmEmail`, or any SNS target). */
  readonly alarmTopic: Topic;
  constructor(scope: Construct, id: string, props?: DataStackProps) {
    super(scope, id, props);
    this.alarmTopic = new Topic(this, 'Alarms', { displayName: 'Agora alarms', enforceSSL: true });
    if (props?.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(props.alarmEmail));
    if (props?.budgetNotifications)
      this.alarmTopic.addToResourcePolicy(
        new PolicyStatement({
          principals: [new ServicePrincipal('budgets.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [this.alarmTopic.topicArn],
          conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
        }),
      );
    const key = (name: string) => ({ name, type: AttributeType.STRING });
    this.table = new TableV2(this, 'Table', {
      partitionKey: key(TABLE_KEYS.partitionKey),
      sortKey: key(TABLE_KEYS.sortKey),
      billing: Billing.onDemand(),
      // Items that clean themselves up (the per-key rate limit buckets) carry `ttl` in Unix seconds.
      timeToLiveAttribute: 'ttl',
      // The change stream the webhooks are sent from (BotsStack: a pipe, filtered to changes, into the delivery queue).
      dynamoStream: StreamViewType.NEW_IMAGE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: INDEXES.map((i) => ({
        indexName: i.name,
        partitionKey: key(i.partitionKey),
        sortKey: key(i.sortKey),
        ...(i.projection === 'keys'
          ? { projectionType: ProjectionType.KEYS_ONLY }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...i.projection.include] }),
      })),
    });
    this.files = new Bucket(this, 'Files', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        {
          id: 'expire-unattached-uploads',
          tagFilters: { 'agora-attached': 'no' },
          expiration: Duration.days(UNATTACHED_FILE_DAYS),
        },
        { id: 'abort-incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    this.docserviceKey = new Secret(this, 'DocserviceKey', {
      description: 'Agora document service signing key material (the Ed25519 seed is its SHA-256)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.participationKey = new Secret(this, 'ParticipationKey', {
      description: 'Agora participation links key (2.3: the Ed25519 seed is its SHA-256; 2.5: the SHA-1 hash secret)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    tableAlarms(this, this.table, this.alarmTopic);
    // For the operator CLIs (`TABLE_NAME=... npm run keys`) and whoever subscribes to the alarms.
    new CfnOutput(this, 'TableName', {
      value: this.table.tableName,
      description: 'The DynamoDB table: TABLE_NAME for npm run keys and npm run organizations',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topicArn,
      description: 'The SNS topic every alarm notifies: subscribe mail, chat or a pager to it',
    });
  }
}
