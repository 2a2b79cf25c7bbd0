import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import type { UploadRecord } from './upload';

/**
 * Starts the processing workflow of one upload: Step Functions in AWS
 * (`sfn-workflow-starter.ts`), the same ASL run in-process locally (`local/workflow.ts`). Starting
 * the same upload twice never runs it twice.
 */
export type WorkflowStarter = (uploadId: string) => Promise<void>;

/** What creating and starting uploads needs, given by the runtime's composition root. */
export interface WorkflowPorts extends DeliveryPorts {
  readonly workflow: WorkflowStarter;
}

/** What recovering uploads needs besides. */
export interface UploadPorts extends WorkflowPorts {
  /**
   * What an ended `api_pool` upload owes its contacts, for recovery to settle when the workflow's
   * NotifyPool step never ran: the contacts feature's, wired in by each composition root (uploads
   * never imports contacts).
   */
  readonly settlePool: (upload: UploadRecord) => Promise<void>;
}
