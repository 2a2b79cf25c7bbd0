import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { logger, withLogContext } from '../lambdas/platform/logger';
import type { UploadPorts } from '../lambdas/uploads/workflow';
import type { ClassificationPorts } from '../lambdas/classification';
import { prepare } from '../lambdas/uploads/pipeline/prepare';
import { classifyChunk } from '../lambdas/uploads/pipeline/classify-chunk';
import { finalize } from '../lambdas/uploads/pipeline/finalize';
import { fail } from '../lambdas/uploads/pipeline/fail';
import { notifyPool } from '../lambdas/contacts/pool-step';
import { emptyCreateBufferPool } from '../lambdas/uploads/create-buffers';
import { collectedFirst, externalBudgetDuring, fullCollection, heapBudget } from './heap-budget';
import { WorkflowRunner, type AslDefinition, type TaskHandler } from './workflow-runner';

const ASL = fileURLToPath(new URL('../statemachines/upload-processing.asl.json', import.meta.url));

/**
 * Upload workflows that run at once locally (LOCAL_WORKFLOW_CONCURRENCY, default 2). Each holds
 * its upload's CSV and results in memory; eight 100 MB uploads at once exhausted the heap.
 */
export const localWorkflowConcurrency = (): number => {
  const n = Number(process.env.LOCAL_WORKFLOW_CONCURRENCY ?? 2);
  if (!Number.isInteger(n) || n < 1) throw new Error(`LOCAL_WORKFLOW_CONCURRENCY must be a whole number >= 1; got '${process.env.LOCAL_WORKFLOW_CONCURRENCY}'`);
  return n;
};

/** The deployed definition, with its function placeholders pointed at local stand-ins. */
export function uploadWorkflowDefinition(): AslDefinition {
  const text = readFileSync(ASL, 'utf8').replace(/\$\{(\w+)FunctionArn\}/g, (_, name: string) => `arn:aws:lambda:us-east-1:000000000000:function:local-${name}`);
  return JSON.parse(text) as AslDefinition;
}

/**
 * After a step, a collection once the heap and its Buffers have grown by this much since the last
 * (heap-budget.ts): the process then peaks near what one step holds, as each step's own Lambda would.
 */
const STEP_HEAP_GROWTH_BYTES = 32 * 2 ** 20;

/**
 * Each step attempt logs in its own context, keyed by its upload and state, as its own Lambda
 * invocation would, and leaves its garbage to be collected before the heap grows far past it.
 */
const step = (state: string, handler: TaskHandler, afterStep: () => void): TaskHandler => (input) =>
  withLogContext(() => {
    logger.appendKeys({ upload_id: (input as { upload_id?: string }).upload_id, state });
    return handler(input).finally(afterStep);
  });

const emptiedAndCollected = (): void => {
  emptyCreateBufferPool();
  fullCollection?.();
};

/** The workflow's steps, run with the ports of the local composition root. */
const handlersFor = (ports: UploadPorts & ClassificationPorts, afterStep = heapBudget(STEP_HEAP_GROWTH_BYTES)): Record<string, TaskHandler> => ({
  Prepare: step('Prepare', prepare as TaskHandler, afterStep),
  ClassifyChunk: step('ClassifyChunk', (input) => classifyChunk(ports, input as Parameters<typeof classifyChunk>[1]), afterStep),
  // The step holding the most starts on a collected heap (heap-budget.ts, collectedFirst), without
  // the Buffers creates keep for the next create (create-buffers.ts; up to 48 MB): in AWS create
  // runs in a function of its own.
  Finalize: step('Finalize', collectedFirst(externalBudgetDuring((input) => finalize(ports, input as Parameters<typeof finalize>[1])), emptiedAndCollected), afterStep),
  MarkFailed: step('MarkFailed', (input) => fail(ports, input as Parameters<typeof fail>[1]), afterStep),
  NotifyPool: step('NotifyPool', (input) => notifyPool(ports, input as Parameters<typeof notifyPool>[1]), afterStep),
});

/** Local stand-in for Step Functions: queued and run in the background, one execution per upload. */
export function createUploadWorkflowRunner(
  ports: UploadPorts & ClassificationPorts,
  options: { concurrency?: number; retryIntervalMs?: number; onAttempt?: (uploadId: string, state: string) => void; handlers?: Record<string, TaskHandler> } = {},
): WorkflowRunner {
  return new WorkflowRunner({
    definition: uploadWorkflowDefinition(),
    checked: true,
    // `handlers` replaces steps (the bench runs ClassifyChunk in processes of its own, as Lambdas).
    handlers: { ...handlersFor(ports), ...options.handlers },
    concurrency: options.concurrency ?? localWorkflowConcurrency(),
    // Marking an upload failed waits until no other step of it is still running.
    exclusiveStates: ['MarkFailed'],
    retryIntervalMs: options.retryIntervalMs ?? 200,
    onError: (uploadId, error) => logger.error('local workflow failed', { upload_id: uploadId, error: error as Error }),
    onAttemptRequested: (uploadId, state, waiting) => {
      options.onAttempt?.(uploadId, state);
      if (waiting) logger.warn('local workflow: a retry waits for the earlier attempt of the step to finish', { upload_id: uploadId, state });
    },
    onLingering: (uploadId) =>
      logger.error('local workflow: a timed-out step of this upload is still running after its execution ended; its slot is handed on, the upload stays taken until the step ends', { upload_id: uploadId }),
  });
}
