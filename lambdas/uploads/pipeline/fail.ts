import { nowIso } from '../../platform/clock';
import { logger } from '../../platform/logger';
import { refund } from '../../credits/credits';
import { handlePoolUploadFinished } from '../../contacts/pool-results';
import { getUpload, transitionUpload } from '../upload-repository';
import { announceFailed } from './announce';
import { poolContactIds } from './finalize';

/**
 * The workflow's catch-all: the upload fails, its credits come back (it produced nothing), and
 * upload.failed is announced. The client sees a plain message; the cause stays in the logs.
 */
export async function fail(input: { upload_id: string; error?: { Error?: string; Cause?: string } }): Promise<{ status: string }> {
  logger.error('upload processing failed', { upload_id: input.upload_id, error: input.error?.Error, cause: input.error?.Cause });
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  if (upload.status === 'completed') return { status: upload.status };
  const message = `Processing failed (${input.error?.Error ?? 'unknown error'}); the credits were refunded. Upload again or contact support with upload id ${upload.id}.`;
  let refunded = 0;
  if ((upload.credits_charged ?? 0) > 0) {
    const result = await refund(upload.organization_id, `refund:upload:${upload.id}`, `upload:${upload.id}`, { reason: 'upload failed', resourceId: upload.id });
    refunded = result?.amount ?? 0;
  }
  const failed =
    (await transitionUpload(upload.id, ['ready_for_processing', 'processing', 'failed'], 'failed', { error_message: upload.error_message ?? message, credits_refunded: refunded }, nowIso())) ?? upload;
  await announceFailed(failed);
  if (failed.source === 'api_pool') await handlePoolUploadFinished(failed, [], await poolContactIds(failed));
  return { status: failed.status };
}

export const handler = fail;
