import { CfnElement, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { acknowledgeFunctionFindings } from './nag-acknowledgements';
import { BUNDLE_BUILD } from './bundle-options';

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface ServiceFunctionProps {
  /** Path of the handler module relative to the project root, e.g. `lambdas/functions/http/credits.ts`. */
  entry: string;
  handler?: string;
  environment?: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  description?: string;
  /** Reserved concurrency: both the function's floor and its cap (background fan-out, docs/operations.md). */
  reservedConcurrentExecutions?: number;
}

/**
 * Every Lambda of the service with the same defaults: Node 22 on arm64, a self-contained ESM bundle
 * built by esbuild (minified, code-split so that rarely used clients load on first use, with a source
 * map of the service's own code the runtime uses: lib/bundle-options.ts), active tracing, and its own log
 * group with a retention period. Each function in the stack is then one short line.
 *
 * The bundle holds the AWS SDK and every other dependency at the lockfile's versions: the SDK the
 * Lambda runtime ships is a convenience whose packages and versions are not ours to know
 * (lib-dynamodb, s3-presigned-post, cloudfront-signer… may be missing or differ from what the
 * tests ran). test/deployed/ loads each bundle from an empty folder to hold this. One part of the SDK
 * is replaced (BUNDLE_ALIASES, tools/bundle-lambda.mjs): the default credential chain reads the environment only, where
 * Lambda puts the execution role's credentials.
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      entry: join(PROJECT_ROOT, props.entry),
      handler: props.handler ?? 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      timeout: props.timeout ?? Duration.seconds(29),
      tracing: Tracing.ACTIVE,
      logGroup,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'phone-validation',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        DEPLOYMENT: 'aws',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: BUNDLE_BUILD.target,
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        mainFields: [...BUNDLE_BUILD.mainFields],
        banner: BUNDLE_BUILD.banner.js,
        bundleAwsSDK: true,
        externalModules: [],
        esbuildArgs: { '--alias': Object.entries(BUNDLE_BUILD.alias).map(([from, to]) => `${from}=${to}`) },
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          // CDK's own esbuild run writes one file (--outfile); code splitting needs --outdir, and the
          // build a plugin (tools/deep-imports.mjs), so the bundle is built again over it by
          // tools/bundle-lambda.mjs, the options every bundle shares: index.mjs and its lazily
          // loaded chunks/, all in the asset. The entry and the chunks it imports
          // statically are merged into index.mjs (tools/merge-initial-chunks.mjs: a cold start loads
          // one module, not 10-30, docs/performance.md "Lazy cold starts, third step"), and S3's lazy
          // chunks into one (tools/merge-lazy-groups.mjs: a request that reads and writes objects
          // loads one file for them, not seven, "Cold imports, eleventh step"). Then every map is cut to the service's
          // own code (tools/trim-source-map.mjs): Node reads a bundle's whole map at every cold start
          // under --enable-source-maps, and the dependencies' part cost up to a fifth of the import
          // (docs/performance.md, "Source maps"). The four steps run in one process
          // (tools/build-function.mjs). inputDir is the project root (here, or /asset-input when
          // bundling in Docker).
          afterBundling: (inputDir: string, outputDir: string) => [`node "${inputDir}/tools/build-function.mjs" "${inputDir}/${props.entry}" "${outputDir}"`],
        },
      },
    });
    acknowledgeFunctionFindings(this);
  }
}

/**
 * Scheduler and Step Functions roles may invoke any version of a function they target
 * (`<fn>.Arn:*`); cdk-nag reports that wildcard, which is scoped to this one function.
 */
export function acknowledgeInvokeVersions(scope: Construct, fn: ServiceFunction): void {
  const stack = Stack.of(scope);
  const logicalId = stack.resolve(stack.getLogicalId(fn.node.defaultChild as CfnElement)) as string;
  // The invoking role is often a stack-level singleton (the scheduler's), so acknowledge at stack level.
  Validations.of(stack).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>:*]`,
    reason: 'Invoking any version of this one function; the wildcard covers only its version qualifiers.',
  });
}
