import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, ParamsAndSecretsLayerVersion, ParamsAndSecretsVersions, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FUNCTIONS = join(dirname(fileURLToPath(import.meta.url)), '../functions');

export interface AppFunctionProps {
  /** Module under `functions/`, without extension (from routes.ts / bots.ts). */
  handler: string;
  table: ITableV2;
  access: 'ro' | 'rw' | 'none';
  timeout?: Duration;
  /** A role shared by the functions of one access level (keeps big stacks under CloudFormation's 500 resources). */
  role?: IRole;
  /** Extra environment (e.g. the docservice secret and bucket names). */
  environment?: Record<string, string>;
  /** Reads secrets through the AWS Parameters and Secrets extension (localhost, cached; no SDK client). */
  secretsExtension?: boolean;
}

/**
 * The one way this app makes a Lambda: ESM bundle by the local esbuild (SDK v3 left to the runtime), arm64,
 * source maps, its own log group, X-Ray, and exactly the table grant its route declares.
 */
export class AppFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    super(scope, id, {
      entry: join(FUNCTIONS, `${props.handler}.ts`),
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      role: props.role,
      environment: {
        TABLE_NAME: props.table.tableName,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      paramsAndSecrets: props.secretsExtension ? ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103) : undefined,
      bundling: {
        format: OutputFormat.ESM,
        minify: true,
        sourceMap: true,
        target: 'node22',
        externalModules: ['@aws-sdk/*'],
        mainFields: ['module', 'main'],
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
      },
    });
    if (props.access === 'ro') props.table.grantReadData(this);
    if (props.access === 'rw') props.table.grantReadWriteData(this);
  }
}
