import { required } from '../platform/config';
import { sfnWorkflowStarter } from '../uploads/sfn-workflow-starter';
import type { WorkflowPorts } from '../uploads/workflow';
import { awsDeliveryPorts } from './aws';

// The AWS root's upload ports, apart from ./aws.ts: the workflow starter brings the uploads
// feature, which esbuild keeps once imported, so the functions that only deliver, sweep or bill
// (webhook delivery and sweeper, billing, the steps) do not carry it at a cold start. Recovery's
// ports (the contacts' pool settling besides) are in ./aws-recovery.ts, apart again: the contacts
// feature they bring is no cold start's of the uploads API, the console or the contact pool.

let workflow: WorkflowPorts | null = null;

/** Creating uploads: Step Functions executions (UPLOAD_STATE_MACHINE_ARN). */
export function awsWorkflowPorts(): WorkflowPorts {
  workflow ??= { ...awsDeliveryPorts(), workflow: sfnWorkflowStarter(() => required('UPLOAD_STATE_MACHINE_ARN')) };
  return workflow;
}
