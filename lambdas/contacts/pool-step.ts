import { logger } from '../platform/logger';
import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import { getUpload } from '../uploads/pool';
import { settlePoolUpload } from './pool-settle';

/**
 * The upload workflow's NotifyPool step (after Finalize, and after MarkFailed): an `api_pool`
 * upload's contacts get their outcome, then the upload leaves the watch index. Any other upload,
 * or one not ended yet, is left as it is. Safe to run again; recovery runs the same settling for
 * a pool upload whose step never ran (settlePoolUpload, through the roots' `settlePool` port).
 */
export async function notifyPool(ports: DeliveryPorts, input: { upload_id: string }): Promise<{ status: string }> {
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  if (upload.source !== 'api_pool') return { status: 'not_a_pool' };
  if (upload.status !== 'completed' && upload.status !== 'failed') {
    // Failed by recovery meanwhile, or still running: recovery settles it when it ends.
    logger.warn('pool upload not ended; its contacts are settled when it is', { upload_id: upload.id, status: upload.status });
    return { status: upload.status };
  }
  await settlePoolUpload(ports, upload);
  return { status: upload.status };
}
