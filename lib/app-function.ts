import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, ParamsAndSecretsLayerVersion, ParamsAndSecretsVersions, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays, type ILogGroup } from 'aws-cdk-lib/aws-logs';
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
  /** A log group shared by many functions (same reason); by default the function gets its own. */
  logGroup?: ILogGroup;
  /** Extra environment (e.g. the docservice secret and bucket names). */
  environment?: Record<string, string>;
  /** Reads secrets through the AWS Parameters and Secrets extension (localhost, cached; no SDK client). */
  secretsExtension?: boolean;
  /**
   * Files of npm packages the handler reads at run time (routes.ts `files`, e.g. `swagger-ui-dist/swagger-ui.css`).
   * esbuild bundles code, not data files: after bundling each is copied to `node_modules/<package>/<file>` next to
   * the bundle, where the handler's `createRequire(import.meta.url).resolve(file)` finds it exactly as it does in the
   * project's node_modules locally. Copied, not installed (`nodeModules` would run npm at synth time).
   */
  files?: readonly string[];
}

/** `cp` commands (local or Docker bundling alike: both give input and output directories) for package files. */
const copyPackageFiles = (files: readonly string[], inputDir: string, outputDir: string): string[] =>
  files.flatMap((file) => {
    const to = join(outputDir, 'node_modules', file);
    return [`mkdir -p "${dirname(to)}"`, `cp "${join(inputDir, 'node_modules', file)}" "${to}"`];
  });

/**
 * The one way this app makes a Lambda: ESM bundle by the local esbuild (SDK v3 left to the runtime), arm64,
 * source maps, its own (or a shared) log group, X-Ray, and exactly the table grant its route declares.
 */
export class AppFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    const logGroup = props.logGroup ?? new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
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
        ...(props.files?.length && {
          commandHooks: {
            beforeBundling: () => [],
            beforeInstall: () => [],
            afterBundling: (inputDir: string, outputDir: string) => copyPackageFiles(props.files!, inputDir, outputDir),
          },
        }),
      },
    });
    if (props.access === 'ro') props.table.grantReadData(this);
    if (props.access === 'rw') props.table.grantReadWriteData(this);
  }
}
