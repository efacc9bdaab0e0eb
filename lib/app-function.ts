import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsVersions,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { grantTable, justifyGrant } from './iam.ts';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface AppFunctionProps {
  /** Module under `functions/`, without extension (from routes.ts / bots.ts). */
  handler: string;
  /** Its bundle in the build, when not the handler's own (an auction write's per type: lib/lambda-bundles.ts). */
  bundle?: string;
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
}

/**
 * Every Lambda is built once per process, all in one esbuild run, the first time a stack needs its code; each
 * function's asset is then its own directory of that build (`<outdir>/<bundle>/`). The build (lib/build.ts, which
 * loads the handlers, the domain and the OpenAPI document) runs as a separate process: synthesis itself loads nothing
 * of functions/ but the route and bot tables and the table design (test/unit/architecture.test.ts). Stacks
 * synthesized without bundling (the infra tests: `aws:cdk:bundling-stacks` empty) never build.
 */
let built: string | undefined;
function lambdaBuild(): string {
  if (!built) {
    const outdir = mkdtempSync(join(tmpdir(), 'agora-lambdas-'));
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'lib/build.ts'), outdir, '--sourcemap'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    built = outdir;
  }
  return built;
}

const lambdaCode = (bundle: string) =>
  Code.fromAsset(join(ROOT, 'functions'), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds (the build runs in this process, with the project's esbuild).
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
      // Part of CDK's staging cache key, which cannot see into `local`: without it every function would get one asset.
      environment: { AGORA_HANDLER: bundle },
      local: {
        tryBundle(outputDir: string) {
          cpSync(join(lambdaBuild(), bundle), outputDir, { recursive: true });
          return true;
        },
      },
    },
  });

/**
 * The one way this app makes a Lambda: its bundle from the one build (ESM, SDK v3 left to the runtime), arm64,
 * source maps, its own (or a shared) log group in Lambda's JSON log format, X-Ray active tracing, and exactly the table
 * grant its route declares.
 */
export class AppFunction extends LambdaFunction {
  /** Its module under `functions/` (its bundle's entry): what the setting checks read the code of. */
  readonly handlerModule: string;
  /** Its bundle's folder in the build (what the setting checks read the code of). */
  readonly bundle: string;
  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    const logGroup =
      props.logGroup ??
      new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    super(scope, id, {
      code: lambdaCode(props.bundle ?? props.handler),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      // JSON logs: the platform's own lines (START, REPORT with the init duration) are JSON too, and the code's lines,
      // JSON written straight to stdout (runtime/observability.ts), are kept as they are and filtered by their level.
      // The application level is the code's level too (AWS_LAMBDA_LOG_LEVEL, platform/config.ts). It must stay INFO:
      // Lambda counts a line without a level, such as an EMF metrics document, as INFO, and would drop the metrics.
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.INFO,
      role: props.role,
      environment: {
        TABLE_NAME: props.table.tableName,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      paramsAndSecrets: props.secretsExtension
        ? ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103)
        : undefined,
    });
    this.handlerModule = props.handler;
    this.bundle = props.bundle ?? props.handler;
    if (props.access !== 'none') grantTable(this, props.table, props.access);
    justifyGrant(this.role, {
      actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
      why: "Active tracing: Lambda sends the function's trace segments with its role (no call of the code).",
    });
  }
}
