import { settlePoolUpload } from '../contacts/pool-settle';
import type { UploadPorts } from '../uploads/workflow';
import { awsDeliveryPorts } from './aws';
import { awsWorkflowPorts } from './aws-uploads';

// The AWS root's ports for recovering uploads, apart from ./aws-uploads.ts: the contacts' pool
// settling brings the contacts feature (and through it the classification facade), which esbuild
// keeps once imported; only recovery (and the admin CLI's every-port root) needs it.

let uploads: UploadPorts | null = null;

/** Recovering uploads: also the contact pool's settling of an ended pool upload. */
export function awsUploadPorts(): UploadPorts {
  uploads ??= {
    ...awsWorkflowPorts(),
    settlePool: (upload) => settlePoolUpload(awsDeliveryPorts(), upload),
  };
  return uploads;
}
