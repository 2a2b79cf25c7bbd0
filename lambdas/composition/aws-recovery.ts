import type { UploadPorts } from '../uploads/workflow';
import { awsDeliveryPorts } from './aws';
import { awsWorkflowPorts } from './aws-uploads';

// The AWS root's ports for recovering uploads, apart from ./aws-uploads.ts: the contacts' pool
// settling brings the contacts feature, the upload planner and the classification facade; only
// recovery (and the admin CLI's every-port root) needs it, and recovery only when a run finds an
// ended pool upload still owing its contacts, so it loads then (import()).

let uploads: UploadPorts | null = null;

/** Recovering uploads: also the contact pool's settling of an ended pool upload. */
export function awsUploadPorts(): UploadPorts {
  uploads ??= {
    ...awsWorkflowPorts(),
    settlePool: async (upload) => (await import('../contacts/pool-settle')).settlePoolUpload(awsDeliveryPorts(), upload),
  };
  return uploads;
}
