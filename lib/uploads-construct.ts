import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { grantObjects, grantTable } from './grants';
import { UPLOAD_STEP_TABLE_ACCESS, type TableAccess } from './table-access';
import { acknowledgeInvokeVersions, PROJECT_ROOT, ServiceFunction } from './service-function';

export interface UploadsConstructProps {
  table: TableV2;
  filesBucket: Bucket;
  environment: Record<string, string>;
  /** Gives a function what emitting events needs (the webhook queue). */
  grantEmit: (fn: LambdaFunction) => void;
  /** Days objects are kept under uploads/ and staging/ (stage config `retention`). */
  retention?: { uploadsDays: number; stagingDays: number };
  /** The lookup provider's limits (stage config `provider`): the share of failed lookups Finalize tolerates. */
  provider?: { maxFailedShare: number };
  /** The lookup cache (stage config `lookupCache`). */
  lookupCache?: { enabled: boolean; lineTypeDays: number; lineStatusHours: number; identityDays: number; shareIdentity: boolean; claimSeconds: number };
  /** Reserved concurrency of the classify step, the workflow's fan-out (stage config); none when undefined. */
  classifyReservedConcurrency?: number;
}

/**
 * The upload pipeline: the state machine from statemachines/upload-processing.asl.json (the same
 * file the local runtime runs) with its five step functions, and the files bucket's lifecycle.
 */
export class UploadsConstruct extends Construct {
  readonly stateMachine: StateMachine;
  readonly steps: ServiceFunction[];
  /** The step that calls the classification provider (the only one that reads its credentials). */
  readonly classify: ServiceFunction;
  /** The step that signs the download links of upload.completed. */
  readonly finalize: ServiceFunction;

  constructor(scope: Construct, id: string, props: UploadsConstructProps) {
    super(scope, id);
    // Each step function's timeout is its Task's TimeoutSeconds in the ASL: the invocation ends when
    // the state times out, so a retry never runs next to the attempt it replaces.
    const timeouts = taskTimeouts(join(PROJECT_ROOT, 'statemachines/upload-processing.asl.json'));
    const step = (name: string, state: string, entry: string, description: string, memorySize: number, reservedConcurrentExecutions?: number) =>
      new ServiceFunction(this, name, { entry, description, environment: props.environment, memorySize, timeout: Duration.seconds(timeouts[state]!), reservedConcurrentExecutions });
    // Memory from `npm run bench` (process_peak_rss_mb for 250,000 rows), with headroom.
    const prepare = step('Prepare', 'Prepare', 'lambdas/functions/steps/prepare.ts', 'Uploads: mark processing, write chunks', 2048);
    // Reserved: however many uploads run at once, their chunks cannot take the API's concurrency;
    // a throttled chunk is retried by its Task (Lambda.TooManyRequestsException, with backoff).
    const classify = step('ClassifyChunk', 'ClassifyChunk', 'lambdas/functions/steps/classify-chunk.ts', 'Uploads: classify one chunk', 1024, props.classifyReservedConcurrency);
    const finalize = step('Finalize', 'Finalize', 'lambdas/functions/steps/finalize.ts', 'Uploads: summary, processed file, upload.completed', 3008);
    const fail = step('Fail', 'MarkFailed', 'lambdas/functions/steps/fail.ts', 'Uploads: failed, refund, upload.failed', 1024);
    // The contact pool's step (contacts feature): pooled contacts get their outcome after the upload ends.
    const notifyPool = step('NotifyPool', 'NotifyPool', 'lambdas/functions/steps/notify-pool.ts', 'Contacts: pooled contacts get their outcome, refunds, contact events', 1024);
    this.steps = [prepare, classify, finalize, fail, notifyPool];
    this.classify = classify;
    this.finalize = finalize;
    // The account's rate is in the shared environment (lib/service-stack.ts): chunk planning reads it too.
    finalize.addEnvironment('PROVIDER_FAILURE_MAX_SHARE', String(props.provider?.maxFailedShare ?? 0.1));
    const cache = props.lookupCache ?? { enabled: true, lineTypeDays: 30, lineStatusHours: 24, identityDays: 30, shareIdentity: false, claimSeconds: 60 };
    classify.addEnvironment('LOOKUP_CACHE', cache.enabled ? 'on' : 'off');
    classify.addEnvironment('LOOKUP_CACHE_LINE_TTL_DAYS', String(cache.lineTypeDays));
    classify.addEnvironment('LOOKUP_CACHE_STATUS_TTL_HOURS', String(cache.lineStatusHours));
    classify.addEnvironment('LOOKUP_CACHE_IDENTITY_TTL_DAYS', String(cache.identityDays));
    classify.addEnvironment('LOOKUP_CACHE_SHARE_IDENTITY', String(cache.shareIdentity));
    classify.addEnvironment('LOOKUP_CLAIM_SECONDS', String(cache.claimSeconds));
    // What each step's code calls: classify only reads the table (and takes provider tokens); fail
    // reads no file (the pool's contact ids are NotifyPool's to read); NotifyPool reads the pool
    // file and the results; finalize, fail and NotifyPool publish events.
    // Table access per step: lib/table-access.ts.
    const steps = UPLOAD_STEP_TABLE_ACCESS;
    const access: [ServiceFunction, TableAccess, { read?: string[]; write?: string[] }, boolean][] = [
      [prepare, steps.prepare, { read: ['uploads/'], write: ['uploads/'] }, false],
      [classify, steps.classify, { read: ['uploads/'], write: ['uploads/'] }, false],
      [finalize, steps.finalize, { read: ['uploads/'], write: ['uploads/'] }, true],
      [fail, steps.fail, {}, true],
      [notifyPool, steps.notifyPool, { read: ['uploads/'] }, true],
    ];
    for (const [fn, tableActions, files, emits] of access) {
      grantTable(fn, props.table, tableActions);
      grantObjects(fn, props.filesBucket, files);
      if (emits) props.grantEmit(fn);
    }

    const logs = new LogGroup(this, 'WorkflowLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.stateMachine = new StateMachine(this, 'UploadProcessing', {
      definitionBody: DefinitionBody.fromFile(join(PROJECT_ROOT, 'statemachines/upload-processing.asl.json')),
      definitionSubstitutions: {
        PrepareFunctionArn: prepare.functionArn,
        ClassifyChunkFunctionArn: classify.functionArn,
        FinalizeFunctionArn: finalize.functionArn,
        FailFunctionArn: fail.functionArn,
        NotifyPoolFunctionArn: notifyPool.functionArn,
      },
      tracingEnabled: true,
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });
    Validations.of(this.stateMachine).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'The state machine role: X-Ray tracing and CloudWatch Logs vended log delivery (logs:CreateLogDelivery, DescribeResourcePolicies…), none of which has resource-level permissions.',
    });
    for (const fn of this.steps) {
      fn.grantInvoke(this.stateMachine);
      acknowledgeInvokeVersions(this, fn);
    }


    // Retention (docs/operations.md): staged files never made into an upload expire soon; an
    // upload's files (original, chunks, processed file, slices) share its uploads/<org>/<id>/ prefix
    // and expire together, after which its download links answer 404.
    const retention = props.retention ?? { uploadsDays: 90, stagingDays: 2 };
    props.filesBucket.addLifecycleRule({ id: 'staging', prefix: 'staging/', expiration: Duration.days(retention.stagingDays) });
    props.filesBucket.addLifecycleRule({ id: 'uploads', prefix: 'uploads/', expiration: Duration.days(retention.uploadsDays) });
    // The console's drafts (lambdas/console/web-upload.ts) hold the same lists: a confirmed one's
    // files were copied into its upload's, a discarded one's are unreachable, an open one's go with
    // the uploads' (confirming it after that asks for the file again).
    props.filesBucket.addLifecycleRule({ id: 'web-drafts', prefix: 'web-drafts/', expiration: Duration.days(retention.uploadsDays) });
  }

  /** What starting an upload's workflow needs: the state machine, and the files it reads. */
  grantStart(fn: LambdaFunction): void {
    fn.addEnvironment('UPLOAD_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    this.stateMachine.grantStartExecution(fn);
  }
}

interface TimedState {
  Type: string;
  TimeoutSeconds?: number;
  ItemProcessor?: { States: Record<string, TimedState> };
}

/** TimeoutSeconds of every Task state (Map item processors included), by state name. */
function taskTimeouts(aslPath: string): Record<string, number> {
  const out: Record<string, number> = {};
  const visit = (states: Record<string, TimedState>) => {
    for (const [name, state] of Object.entries(states)) {
      if (state.Type === 'Task') {
        if (!state.TimeoutSeconds) throw new Error(`${aslPath}: Task ${name} declares no TimeoutSeconds`);
        out[name] = state.TimeoutSeconds;
      }
      if (state.ItemProcessor) visit(state.ItemProcessor.States);
    }
  };
  visit((JSON.parse(readFileSync(aslPath, 'utf8')) as { States: Record<string, TimedState> }).States);
  return out;
}
