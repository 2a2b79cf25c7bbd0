import type { DeliveryPorts } from '../webhooks/delivery-queue-port';

/**
 * Starts the processing workflow of one upload: Step Functions in AWS
 * (`sfn-workflow-starter.ts`), the same ASL run in-process locally (`local/workflow.ts`). Starting
 * the same upload twice never runs it twice.
 */
export type WorkflowStarter = (uploadId: string) => Promise<void>;

/** What the upload use cases are given by their runtime's composition root. */
export interface UploadPorts extends DeliveryPorts {
  readonly workflow: WorkflowStarter;
}
