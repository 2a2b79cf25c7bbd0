import { nowIso } from '../../platform/clock';
import { logger } from '../../platform/logger';
import { refund } from '../../credits/credits';
import { flushOutbox, outboxFields } from '../../webhooks/outbox';
import type { UploadRecord } from '../upload';
import { getUpload, settleUpload, transitionUpload, uploadItemKey } from '../upload-repository';
import { failedEntries } from './announce';
import { SETTLE_BOUND_MS } from './settle-bound';
import type { DeliveryPorts } from '../../webhooks/delivery-queue-port';

/**
 * The workflow's catch-all: the upload fails, its credits come back (it produced nothing), and
 * upload.failed is announced. The client sees a plain message; the cause stays in the logs.
 */
export async function fail(ports: DeliveryPorts, input: { upload_id: string; error?: { Error?: string; Cause?: string } }): Promise<{ status: string }> {
  logger.error('upload processing failed', { upload_id: input.upload_id, error: input.error?.Error, cause: input.error?.Cause });
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  return { status: (await failUpload(ports, upload, `Processing failed (${input.error?.Error ?? 'unknown error'})`)).status };
}

/**
 * Fails an upload that has not completed, then settles what that owes. The state change comes
 * first, with `upload.failed` in the same write and the upload kept in the recovery index: of two
 * workers failing one upload only one wins the change, and a crash before the refund is finished
 * by recovery (settleFailedUpload), which never needs to guess whether it was refunded.
 */
export async function failUpload(ports: DeliveryPorts, upload: UploadRecord, cause: string): Promise<UploadRecord> {
  if (upload.status === 'ready_for_processing' || upload.status === 'processing') {
    const at = nowIso();
    const message = `${cause}; the credits were refunded. Upload the file again, or contact support with upload id ${upload.id}.`;
    const fields = { error_message: upload.error_message ?? message, credits_refunded: upload.credits_charged ?? 0 };
    const key = uploadItemKey(upload.id);
    const entries = failedEntries({ ...upload, ...fields, status: 'failed', updated_at: at });
    const failed = await transitionUpload(upload.id, ['ready_for_processing', 'processing'], 'failed', { ...fields, ...outboxFields(key, entries, at) }, at, new Date(Date.parse(at) + SETTLE_BOUND_MS).toISOString());
    if (!failed) return (await getUpload(upload.id)) ?? upload; // completed or failed by another worker
    upload = failed;
  }
  if (upload.status === 'failed') await settleFailedUpload(ports, upload);
  return upload;
}

/**
 * Refund (once per upload) and the event: each safe to repeat. A pool upload's contacts are settled
 * by the workflow's NotifyPool step (or recovery), which then takes the upload off the watch index.
 */
export async function settleFailedUpload(ports: DeliveryPorts, upload: UploadRecord): Promise<void> {
  if ((upload.credits_charged ?? 0) > 0) {
    await refund(upload.organization_id, `refund:upload:${upload.id}`, `upload:${upload.id}`, { reason: 'upload failed', resourceId: upload.id });
  }
  await flushOutbox(ports, uploadItemKey(upload.id));
  if (upload.source !== 'api_pool') await settleUpload(upload.id);
}
