import { SFNClient, StartExecutionCommand, ExecutionAlreadyExists } from '@aws-sdk/client-sfn';
import { config } from '../platform/config';

// Starting the processing workflow: Step Functions in AWS (UPLOAD_STATE_MACHINE_ARN), the same ASL
// run in-process locally (the local runtime registers its runner here).

export type WorkflowStarter = (uploadId: string) => Promise<void>;

let localStarter: WorkflowStarter | null = null;
let sfn: SFNClient | null = null;

export function setLocalWorkflowStarter(starter: WorkflowStarter | null): void {
  localStarter = starter;
}

export async function startUploadWorkflow(uploadId: string): Promise<void> {
  const arn = config().UPLOAD_STATE_MACHINE_ARN;
  if (arn) {
    sfn ??= new SFNClient({});
    try {
      // The execution name is the upload id: starting twice is a no-op, never a second run.
      await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, name: uploadId, input: JSON.stringify({ upload_id: uploadId }) }));
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists) && (error as Error).name !== 'ExecutionAlreadyExists') throw error;
    }
    return;
  }
  if (!localStarter) throw new Error('No workflow runner: set UPLOAD_STATE_MACHINE_ARN or start the local runtime');
  await localStarter(uploadId);
}
