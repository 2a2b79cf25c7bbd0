import { AssetHashType, CfnElement, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { acknowledgeFunctionFindings } from './nag-acknowledgements';

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
 * map of the service's own code the runtime uses: tools/bundle-lambda.mjs), active tracing, and its
 * own log group with a retention period. Each function in the stack is then one short line.
 *
 * The bundle holds the AWS SDK and every other dependency at the lockfile's versions: the SDK the
 * Lambda runtime ships is a convenience whose packages and versions are not ours to know
 * (lib-dynamodb, s3-presigned-post, cloudfront-signer… may be missing or differ from what the
 * tests ran). test/deployed/ loads each bundle from an empty folder to hold this. One part of the SDK
 * is replaced (BUNDLE_ALIASES, tools/bundle-lambda.mjs): the default credential chain reads the environment only, where
 * Lambda puts the execution role's credentials.
 */
export class ServiceFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      code: functionAsset(props.entry),
      handler: `index.${props.handler ?? 'handler'}`,
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      timeout: props.timeout ?? Duration.seconds(29),
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'phone-validation',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        DEPLOYMENT: 'aws',
        ...props.environment,
      },
    });
    acknowledgeFunctionFindings(this);
  }
}

/**
 * A function's asset: `node tools/build-function.mjs <entry> <folder>` (the code-split bundle from
 * tools/bundle-lambda.mjs with its plugin, tools/deep-imports.mjs; the entry's static chunks merged
 * into index.mjs, tools/merge-initial-chunks.mjs: a cold start loads one module, not 10-30,
 * docs/performance.md "Lazy cold starts, third step"; S3's lazy chunks into one,
 * tools/merge-lazy-groups.mjs: a request that reads and writes objects loads one file for them,
 * not seven, "Cold imports, eleventh step"; every map cut to the service's own code,
 * tools/trim-source-map.mjs: Node reads a bundle's whole map at every cold start under
 * --enable-source-maps, "Source maps"). Run here with the project's Node and node_modules; where
 * that is not possible, CDK runs the same command in the Lambda runtime's build image with the
 * project mounted at /asset-input. The asset's hash is its output's, so a build that writes the
 * same bytes is the same asset. (Not `NodejsFunction`: its own esbuild run writes one file without
 * the plugin, which this build then replaced, about 1 s of every function's synth: docs/deployment.md,
 * "How long a synth takes".)
 */
function functionAsset(entry: string): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: Runtime.NODEJS_22_X.bundlingImage,
      command: ['node', '/asset-input/tools/build-function.mjs', `/asset-input/${entry}`, '/asset-output'],
      local: {
        tryBundle(outputDir: string): boolean {
          execFileSync('node', [join(PROJECT_ROOT, 'tools', 'build-function.mjs'), join(PROJECT_ROOT, entry), outputDir], { stdio: 'inherit' });
          return true;
        },
      },
    },
  });
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
