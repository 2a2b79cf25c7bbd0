import { required } from '../platform/config';
import { settlePoolUpload } from '../contacts/pool-settle';
import { sfnWorkflowStarter } from '../uploads/sfn-workflow-starter';
import type { UploadPorts, WorkflowPorts } from '../uploads/workflow';
import { awsDeliveryPorts } from './aws';

// The AWS root's upload ports, apart from ./aws.ts: the workflow starter and the contacts' pool
// settling bring the uploads and contacts features, which esbuild keeps once imported, so the
// functions that only deliver, sweep or bill (webhook delivery and sweeper, billing, the steps)
// no longer carry them at a cold start.

let workflow: WorkflowPorts | null = null;
let uploads: UploadPorts | null = null;

/** Creating uploads: Step Functions executions (UPLOAD_STATE_MACHINE_ARN). */
export function awsWorkflowPorts(): WorkflowPorts {
  workflow ??= { ...awsDeliveryPorts(), workflow: sfnWorkflowStarter(() => required('UPLOAD_STATE_MACHINE_ARN')) };
  return workflow;
}

/** Recovering uploads: also the contact pool's settling of an ended pool upload. */
export function awsUploadPorts(): UploadPorts {
  uploads ??= {
    ...awsWorkflowPorts(),
    settlePool: (upload) => settlePoolUpload(awsDeliveryPorts(), upload),
  };
  return uploads;
}
