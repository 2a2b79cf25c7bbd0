import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StateMachine } from 'aws-local-stepfunctions';

type RunOptions = NonNullable<Parameters<StateMachine['run']>[1]>;
type LocalHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
import { logger } from '../lambdas/platform/logger';
import { setLocalWorkflowStarter } from '../lambdas/uploads/workflow';
import { prepare } from '../lambdas/uploads/pipeline/prepare';
import { classifyChunk } from '../lambdas/uploads/pipeline/classify-chunk';
import { finalize } from '../lambdas/uploads/pipeline/finalize';
import { fail } from '../lambdas/uploads/pipeline/fail';
import type { LocalWorker } from './workers';

const ASL = fileURLToPath(new URL('../statemachines/upload-processing.asl.json', import.meta.url));

/** The deployed definition, with its function placeholders pointed at local stand-ins. */
export function loadUploadStateMachine(): StateMachine {
  const text = readFileSync(ASL, 'utf8').replace(/\$\{(\w+)FunctionArn\}/g, (_, name: string) => `arn:aws:lambda:us-east-1:000000000000:function:local-${name}`);
  return new StateMachine(JSON.parse(text), { validationOptions: { checkPaths: true, checkArn: true } });
}

const handlers = {
  Prepare: prepare,
  ClassifyChunk: classifyChunk,
  Finalize: finalize,
  MarkFailed: fail,
} as unknown as LocalHandlers;

/** Runs one upload's workflow to its end in this process (the same ASL Step Functions runs). */
export async function runUploadWorkflow(uploadId: string, overrides: { retryIntervalMs?: number } = {}): Promise<unknown> {
  const machine = loadUploadStateMachine();
  const retry = overrides.retryIntervalMs ?? 200;
  const execution = machine.run(
    { upload_id: uploadId },
    { overrides: { taskResourceLocalHandlers: handlers, retryIntervalOverrides: { Prepare: retry, ClassifyChunk: retry, Finalize: retry, MarkFailed: retry } } },
  );
  return execution.result;
}

const running = new Set<Promise<unknown>>();

/** Local stand-in for StartExecution: runs in the background, like Step Functions would. */
export async function startLocalWorkflowRunner(): Promise<LocalWorker> {
  setLocalWorkflowStarter(async (uploadId) => {
    const execution = runUploadWorkflow(uploadId).catch((error: unknown) => logger.error('local workflow failed', { upload_id: uploadId, error: error as Error }));
    running.add(execution);
    void execution.finally(() => running.delete(execution));
  });
  return {
    name: 'upload-workflow',
    stop: async () => {
      setLocalWorkflowStarter(null);
      await Promise.allSettled([...running]);
    },
  };
}

/** Waits for every workflow started so far (tests). */
export const settleWorkflows = (): Promise<unknown> => Promise.allSettled([...running]);
