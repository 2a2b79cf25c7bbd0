import type { SFNClient } from '@aws-sdk/client-sfn';
import { lazyModule } from '../platform/aws/lazy-module';

/** The Step Functions SDK, loaded at the first start (lib/bundle-options.ts: a chunk of its own). */
const sfnSdk = /* @__PURE__ */ lazyModule(() => import('../platform/aws/sdk/sfn-start'));
import type { WorkflowStarter } from './workflow';

/** The AWS adapter: one Step Functions execution per upload, named by the upload id. */
export function sfnWorkflowStarter(stateMachineArn: () => string): WorkflowStarter {
  let sfn: SFNClient | null = null;
  return async (uploadId) => {
    const { SFNClient, StartExecutionCommand, ExecutionAlreadyExists } = await sfnSdk();
    sfn ??= new SFNClient({});
    try {
      // The execution name is the upload id: starting twice is a no-op, never a second run.
      await sfn.send(new StartExecutionCommand({ stateMachineArn: stateMachineArn(), name: uploadId, input: JSON.stringify({ upload_id: uploadId }) }));
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists) && (error as Error).name !== 'ExecutionAlreadyExists') throw error;
    }
  };
}
